package net.beaconcontroller.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.cluster.internal.Balancer.Move;

class BalancerTest {
    private static final Set<String> ALL = Set.of("a", "b", "c");

    @Test
    void aNewMemberGetsSwitchesUntilCountsDifferByAtMostOne() {
        var masters = Map.of(1L, "a", 2L, "a", 3L, "a", 4L, "b");
        var connected = Map.of(1L, ALL, 2L, ALL, 3L, ALL, 4L, ALL);
        assertEquals(Optional.of(new Move(1, "a", "c")),
                Balancer.plan(List.of("a", "b", "c"), masters, connected, Map.of(), 100, 10));
        var balanced = Map.of(1L, "c", 2L, "a", 3L, "a", 4L, "b");
        assertEquals(Optional.empty(), Balancer.plan(List.of("a", "b", "c"), balanced, connected, Map.of(), 100, 10));
    }

    @Test
    void theQuietestSwitchMovesByCount() {
        var masters = Map.of(1L, "a", 2L, "a", 3L, "a");
        var connected = Map.of(1L, ALL, 2L, ALL, 3L, ALL);
        assertEquals(Optional.of(new Move(2, "a", "b")), Balancer.plan(List.of("a", "b"), masters, connected,
                Map.of(1L, 5L, 2L, 1L, 3L, 7L), 100, 10));
    }

    @Test
    void anOverloadedMemberGivesTheSwitchThatBalancesBest() {
        var masters = Map.of(1L, "a", 2L, "a", 3L, "b");
        var connected = Map.of(1L, ALL, 2L, ALL, 3L, ALL);
        // a: 900 + 500 = 1400, b: 0; moving 2 (500) leaves 900/500, moving 1 (900) leaves 500/900: equal gaps, but
        // the first found closest wins; moving both is never proposed at once.
        var move = Balancer.plan(List.of("a", "b"), masters, connected, Map.of(1L, 900L, 2L, 500L, 3L, 0L), 1000, 100);
        assertEquals("a", move.orElseThrow().from());
        assertEquals("b", move.orElseThrow().to());
        // A single switch that carries all the load cannot be split: moving it only moves the problem.
        var single = Balancer.plan(List.of("a", "b"), Map.of(1L, "a"), Map.of(1L, ALL), Map.of(1L, 5000L), 1000, 100);
        assertEquals(Optional.empty(), single);
    }

    @Test
    void onlyAMemberConnectedToTheSwitchCanTakeIt() {
        var masters = Map.of(1L, "a", 2L, "a", 3L, "a");
        var onlyA = Set.of("a");
        var connected = Map.of(1L, onlyA, 2L, onlyA, 3L, Set.of("a", "b"));
        assertEquals(Optional.of(new Move(3, "a", "b")),
                Balancer.plan(List.of("a", "b"), masters, connected, Map.of(), 100, 10));
    }

    @Test
    void countBalancingDoesNotOverloadTheReceiver() {
        var masters = Map.of(1L, "a", 2L, "a", 3L, "a", 4L, "b");
        var connected = Map.of(1L, ALL, 2L, ALL, 3L, ALL, 4L, ALL);
        assertEquals(Optional.empty(), Balancer.plan(List.of("a", "b"), masters, connected,
                Map.of(1L, 60L, 2L, 60L, 3L, 60L, 4L, 60L), 100, 10));
    }

    @Test
    void oneRoundSpreadsAClusterThatStartedOnOneMember() {
        var masters = Map.of(1L, "a", 2L, "a", 3L, "a", 4L, "a", 5L, "a");
        var connected = Map.of(1L, ALL, 2L, ALL, 3L, ALL, 4L, ALL, 5L, ALL);
        var moves = Balancer.planAll(List.of("a", "b", "c"), masters, connected, Map.of(), 100, 10, Map.of(),
                Set.of());
        var after = new java.util.HashMap<>(masters);
        moves.forEach(m -> after.put(m.dpid(), m.to()));
        var counts = new java.util.HashMap<String, Integer>();
        after.values().forEach(m -> counts.merge(m, 1, Integer::sum));
        assertEquals(Map.of("a", 1, "b", 2, "c", 2).values().stream().sorted().toList(),
                counts.values().stream().sorted().toList());
        assertEquals(3, counts.size());
        assertEquals(3, moves.size(), "each switch moves at most once, and only as many as balance needs");
        assertEquals(List.of(), Balancer.planAll(List.of("a", "b", "c"), after, connected, Map.of(), 100, 10,
                Map.of(), Set.of()));
    }

    @Test
    void pickChoosesTheConnectedMemberWithFewestSwitches() {
        assertEquals("b", Balancer.pick(Set.of("b", "c"), Map.of("a", 0, "b", 1, "c", 2), List.of("a", "b", "c")));
    }
}
