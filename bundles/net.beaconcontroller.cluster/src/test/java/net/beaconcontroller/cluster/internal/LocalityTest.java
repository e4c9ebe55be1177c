package net.beaconcontroller.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The balancer's rounds with the switches' neighbourhood: what a member's store would plan, round after round. */
class LocalityTest {
    private static final List<String> MEMBERS = List.of("a", "b", "c");
    private static final long HIGH = 100;
    private static final long LOW = 10;

    /** Switches 1..n in a line. */
    private static Map<Long, Set<Long>> line(int n) {
        var g = new HashMap<Long, Set<Long>>();
        for (long i = 1; i < n; i++) {
            link(g, i, i + 1);
        }
        return g;
    }

    private static void link(Map<Long, Set<Long>> g, long a, long b) {
        g.computeIfAbsent(a, k -> new HashSet<>()).add(b);
        g.computeIfAbsent(b, k -> new HashSet<>()).add(a);
    }

    private static Map<Long, Set<String>> everyoneConnected(Map<Long, String> masters) {
        var c = new HashMap<Long, Set<String>>();
        masters.keySet().forEach(d -> c.put(d, Set.copyOf(MEMBERS)));
        return c;
    }

    private static int cut(Map<Long, String> masters, Map<Long, Set<Long>> g) {
        return new Locality(MEMBERS, new HashMap<>(masters), Map.of(), Map.of(), g, HIGH).cut();
    }

    private static Map<String, Integer> counts(Map<Long, String> masters) {
        var counts = new HashMap<String, Integer>();
        masters.values().forEach(m -> counts.merge(m, 1, Integer::sum));
        return counts;
    }

    /** Rounds until one moves nothing (at most {@code limit}); returns the masters then. */
    private static Map<Long, String> settle(Map<Long, String> start, Map<Long, Set<Long>> g, Map<Long, Long> rates,
            int limit) {
        var masters = new HashMap<>(start);
        for (int round = 0; round < limit; round++) {
            int before = cut(masters, g);
            var moves = Balancer.planAll(MEMBERS, masters, everyoneConnected(masters), rates, HIGH, LOW, g,
                    Set.of());
            if (moves.isEmpty()) {
                return masters;
            }
            var movedOnce = new HashSet<Long>();
            moves.forEach(m -> assertTrue(movedOnce.add(m.dpid()), "switch " + m.dpid() + " moved twice in a round"));
            moves.forEach(m -> {
                assertEquals(masters.get(m.dpid()), m.from());
                masters.put(m.dpid(), m.to());
            });
            if (round > 0) { // the first round may spread first, which can cut links
                assertTrue(cut(masters, g) < before, "a round that moves lowers the cut");
            }
        }
        throw new AssertionError("still moving after " + limit + " rounds: " + masters);
    }

    @Test
    void aLineStartedOnOneMemberEndsInThreeRunsOfTwo() {
        var start = new HashMap<Long, String>();
        for (long d = 1; d <= 6; d++) {
            start.put(d, "a");
        }
        var end = settle(start, line(6), Map.of(), 5);
        assertEquals(List.of(2, 2, 2), counts(end).values().stream().sorted().toList());
        assertEquals(2, cut(end, line(6)), "three runs of two neighbours: two links between members");
    }

    @Test
    void interleavedMastersAreGatheredWithoutUnbalancing() {
        var start = Map.of(1L, "a", 2L, "b", 3L, "c", 4L, "a", 5L, "b", 6L, "c");
        assertEquals(5, cut(start, line(6)));
        var end = settle(start, line(6), Map.of(), 5);
        assertEquals(List.of(2, 2, 2), counts(end).values().stream().sorted().toList());
        assertEquals(2, cut(end, line(6)));
    }

    @Test
    void withoutLinksOnlyTheCountsMatter() {
        var start = Map.of(1L, "a", 2L, "b", 3L, "c", 4L, "a", 5L, "b", 6L, "c");
        assertEquals(List.of(), Balancer.planAll(MEMBERS, start, everyoneConnected(start), Map.of(), HIGH, LOW,
                Map.of(), Set.of()));
    }

    @Test
    void aMoveThatWouldPushAMemberOverTheHighMarkIsNotMade() {
        // a masters 1 and 2 (2 is linked to b's 3): a at 61 PACKET_IN/s, b at 95, c at 2. Any swap that brings 2
        // and 3 together puts a or b above the high mark of 100.
        var start = Map.of(1L, "a", 2L, "a", 3L, "b", 4L, "b", 5L, "c", 6L, "c");
        var g = new HashMap<Long, Set<Long>>();
        link(g, 2, 3);
        var rates = Map.of(1L, 1L, 2L, 60L, 3L, 50L, 4L, 45L, 5L, 1L, 6L, 1L);
        assertEquals(List.of(), Balancer.planAll(MEMBERS, start, everyoneConnected(start), rates, HIGH, LOW, g,
                Set.of()));
    }

    @Test
    void aSwitchGoesOnlyToAMemberConnectedToIt() {
        var start = Map.of(1L, "a", 2L, "b", 3L, "a", 4L, "b");
        var g = line(4); // a-b-a-b
        var connected = Map.<Long, Set<String>>of(1L, Set.of("a"), 2L, Set.of("b"), 3L, Set.of("a"), 4L, Set.of("b"));
        assertEquals(List.of(), Balancer.planAll(List.of("a", "b"), start, connected, Map.of(), HIGH, LOW, g,
                Set.of()));
    }

    @Test
    void aSwitchMovedLatelyStaysWhereItIs() {
        // Moved by hand to b, away from its neighbours on a: the rule leaves it there while it settles.
        var start = Map.of(1L, "a", 2L, "b", 3L, "a", 4L, "b", 5L, "c", 6L, "c");
        var g = line(6);
        assertEquals(List.of(), Balancer.planAll(MEMBERS, start, everyoneConnected(start), Map.of(), HIGH, LOW, g,
                Set.of(1L, 2L, 3L, 4L)));
        assertTrue(!Balancer.planAll(MEMBERS, start, everyoneConnected(start), Map.of(), HIGH, LOW, g, Set.of())
                .isEmpty(), "once settled, it is gathered");
    }

    @Test
    void randomTopologiesSettleBalancedWithoutUndoingThemselves() {
        for (long seed = 1; seed <= 40; seed++) {
            var random = new Random(seed);
            int n = 4 + random.nextInt(40);
            var g = new HashMap<Long, Set<Long>>();
            for (long d = 2; d <= n; d++) { // a random tree, then a few more links
                link(g, d, 1 + random.nextInt((int) d - 1));
            }
            for (int extra = random.nextInt(n); extra > 0; extra--) {
                long a = 1 + random.nextInt(n);
                long b = 1 + random.nextInt(n);
                if (a != b) {
                    link(g, a, b);
                }
            }
            var start = new HashMap<Long, String>();
            for (long d = 1; d <= n; d++) {
                start.put(d, MEMBERS.get(random.nextInt(MEMBERS.size())));
            }
            var end = settle(start, g, Map.of(), 30);
            var sizes = new ArrayList<>(counts(end).values());
            assertEquals(MEMBERS.size(), sizes.size(), "seed " + seed);
            assertTrue(sizes.stream().mapToInt(i -> i).max().orElseThrow()
                    - sizes.stream().mapToInt(i -> i).min().orElseThrow() <= 1, "seed " + seed + ": " + sizes);
        }
    }
}
