package net.beaconcontroller.topology.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/** Islands, edge ports and the spanning tree of a view, on its own. */
class TopologyViewTest {
    @Test
    void aRingOfFourIsOneIslandWhoseTreeFloodsEveryHostOnce() {
        var net = Topologies.ring(4);
        var view = net.view();
        assertEquals(Set.of(Set.of(1L, 2L, 3L, 4L)), view.islands());
        assertTreeSpans(view, Set.of(1L, 2L, 3L, 4L));
        for (long d = 1; d <= 4; d++) {
            assertTrue(view.isEdgePort(d, 3));
            assertFalse(view.isEdgePort(d, 1));
            assertFalse(view.isEdgePort(d, 2));
        }
        net.hostPorts().forEach(h -> assertFloodReachesEveryHostOnce(view, net.hostPorts(), h));
    }

    @Test
    void aFatTreeOfTwentySwitchesHasATreeOfNineteenLinksThatFloodsEveryHostOnce() {
        var net = Topologies.fatTree();
        var view = net.view();
        assertEquals(20, view.switches().size());
        assertEquals(1, view.islands().size());
        assertTreeSpans(view, net.ports().keySet());
        assertEquals(16, net.hostPorts().size());
        net.hostPorts().forEach(h -> assertTrue(view.isEdgePort(h.dpid(), h.port()), h.toString()));
        net.hostPorts().forEach(h -> assertFloodReachesEveryHostOnce(view, net.hostPorts(), h));
    }

    @Test
    void theTreeDependsOnTheLinksOnlyNotOnTheOrderTheyCameIn() {
        var net = Topologies.fatTree();
        var expected = net.view().tree();
        var random = new Random(42);
        for (int round = 0; round < 20; round++) {
            var cables = new ArrayList<>(net.cables());
            Collections.shuffle(cables, random);
            var view = new TopologyView(Map.of(), Map.of());
            for (var e : net.ports().entrySet()) {
                view = view.withSwitch(e.getKey(), e.getValue(), 0);
            }
            for (var c : cables) {
                view = view.withLink(c.reverse(), Instant.EPOCH).withLink(c, Instant.EPOCH);
            }
            assertEquals(expected, view.tree());
        }
        // BFS from the lowest dpid: the root is core switch 1.
        assertTrue(expected.stream().anyMatch(l -> l.src().dpid() == 1));
        assertTrue(expected.stream().noneMatch(l -> l.dst().dpid() == 1));
    }

    @Test
    void aLinkSeenOneWayIsReportedButJoinsNoIslandAndItsPortsAreNoEdgePorts() {
        var view = twoSwitches().withLink(Link.of(1, 1, 2, 1), Instant.EPOCH);
        assertEquals(Set.of(Link.of(1, 1, 2, 1)), view.links().keySet());
        assertEquals(Set.of(Set.of(1L), Set.of(2L)), view.islands());
        assertFalse(view.isEdgePort(1, 1));
        assertFalse(view.isEdgePort(2, 1));
        assertTrue(view.isEdgePort(1, 2));
        assertEquals(Set.of(2), view.floodPorts(1));
        assertTrue(view.tree().isEmpty());
        var both = view.withLink(Link.of(2, 1, 1, 1), Instant.EPOCH);
        assertEquals(Set.of(Set.of(1L, 2L)), both.islands());
        assertEquals(Set.of(1, 2), both.floodPorts(1));
    }

    @Test
    void islandsSplitWhenACableGoesAndMergeWhenItComesBack() {
        var net = new Topologies.Net(Map.of(1L, Set.of(1, 2), 2L, Set.of(1, 2), 3L, Set.of(1, 2)),
                java.util.List.of(Link.of(1, 1, 2, 1), Link.of(2, 2, 3, 1)));
        var view = net.view();
        assertEquals(Set.of(Set.of(1L, 2L, 3L)), view.islands());
        var split = view.withoutPort(2, 2);
        assertEquals(Set.of(Set.of(1L, 2L), Set.of(3L)), split.islands());
        assertTrue(split.isEdgePort(3, 1));
        assertEquals(Set.of(1), split.floodPorts(2));
        var merged = split.withPort(2, 2, 0).withLink(Link.of(2, 2, 3, 1), Instant.EPOCH)
                .withLink(Link.of(3, 1, 2, 2), Instant.EPOCH);
        assertEquals(view.islands(), merged.islands());
        assertEquals(view.tree(), merged.tree());
        var leave = merged.withoutSwitch(2, 0);
        assertEquals(Set.of(Set.of(1L), Set.of(3L)), leave.islands());
        assertTrue(leave.links().isEmpty());
        assertFalse(leave.isEdgePort(2, 1));
    }

    @Test
    void aNewSwitchsPortsWaitForTheirQuarantineWhileTheIslandKeepsFlooding() {
        var linked = twoSwitches().withLink(Link.of(1, 1, 2, 1), Instant.EPOCH).withLink(Link.of(2, 1, 1, 1), Instant.EPOCH);
        // Switch 3 connects, cabled to port 2 of switch 2: its ports wait, the others flood throughout.
        var view = linked.withSwitch(3, Set.of(1, 2), 1000);
        assertFalse(view.isSettled(0));
        assertEquals(Set.of(new SwitchPort(3, 1), new SwitchPort(3, 2)), view.quarantined(999));
        assertTrue(view.isQuarantined(new SwitchPort(3, 2), 999));
        assertFalse(view.isQuarantined(new SwitchPort(3, 2), 1000), "the quarantine ends at its time");
        assertFalse(view.isQuarantined(new SwitchPort(2, 2), 0), "an old switch's port");
        assertFalse(view.isQuarantined(new SwitchPort(9, 1), 0), "an unknown switch");
        assertEquals(Set.of(1, 2), view.broadcastPorts(1, 0));
        assertEquals(Set.of(1, 2), view.broadcastPorts(2, 0));
        assertEquals(Set.of(), view.broadcastPorts(3, 999));
        // Its probe comes back: the link puts port 1 on the spanning tree at once, port 2 (a host) waits on.
        var found = view.withLink(Link.of(3, 1, 2, 2), Instant.EPOCH).withLink(Link.of(2, 2, 3, 1), Instant.EPOCH);
        assertEquals(Set.of(1), found.broadcastPorts(3, 500));
        assertEquals(Set.of(1, 2), found.broadcastPorts(2, 500));
        assertEquals(Set.of(1, 2), found.broadcastPorts(3, 1000));
        assertTrue(found.isSettled(1000));
        assertEquals(Set.of(), found.quarantined(1000));
        // A link found at a quarantined port that is not on the tree stays out after the quarantine too.
        var loop = found.withLink(Link.of(3, 2, 1, 2), Instant.EPOCH).withLink(Link.of(1, 2, 3, 2), Instant.EPOCH);
        assertEquals(Set.of(1), loop.broadcastPorts(2, 1000), "the loop 1-2-3-1 is cut between 2 and 3");
        assertEquals(Set.of(2), loop.broadcastPorts(3, 1000));
    }

    @Test
    void aPortThatComesUpWaitsForItsQuarantineAlone() {
        var joined = twoSwitches().withLink(Link.of(1, 1, 2, 1), Instant.EPOCH).withLink(Link.of(2, 1, 1, 1), Instant.EPOCH)
                .withPort(2, 3, 2000);
        assertEquals(Set.of(1, 2), joined.broadcastPorts(1, 1500));
        assertEquals(Set.of(1, 2), joined.broadcastPorts(2, 1500));
        assertFalse(joined.isSettled(1500), "discovery is not settled while a port is in quarantine");
        assertEquals(Set.of(1, 2, 3), joined.broadcastPorts(2, 2000));
        assertTrue(joined.isSettled(2000));
        // A link found at a quarantined port puts it on the spanning tree: flooded at once, since both ends are known.
        var cabled = joined.withSwitch(4, Set.of(1), 0).withLink(Link.of(2, 3, 4, 1), Instant.EPOCH)
                .withLink(Link.of(4, 1, 2, 3), Instant.EPOCH);
        assertEquals(Set.of(1, 2, 3), cabled.broadcastPorts(2, 1500));
        // Going down ends it.
        assertEquals(Set.of(1, 2), joined.withoutPort(2, 3).broadcastPorts(2, 1500));
        assertTrue(joined.withoutPort(2, 3).isSettled(1500));
        assertFalse(TopologyView.EMPTY.isSettled(0));
    }

    private static TopologyView twoSwitches() {
        return TopologyView.EMPTY.withSwitch(1, Set.of(1, 2), 0).withSwitch(2, Set.of(1, 2), 0);
    }

    /** The tree has n-1 links, all bidirectional, and reaches every switch of the island. */
    static void assertTreeSpans(TopologyView view, Set<Long> island) {
        var tree = view.tree().stream().filter(l -> island.contains(l.src().dpid())).toList();
        assertEquals(island.size() - 1, tree.size());
        var reached = new HashSet<Long>();
        reached.add(island.stream().min(Long::compareUnsigned).orElseThrow());
        tree.forEach(l -> {
            assertTrue(view.isBidirectional(l), l.toString());
            reached.add(l.dst().dpid());
        });
        assertEquals(island, reached);
    }

    /** Floods a frame from host port {@code from} along the broadcast ports: every other host gets exactly one copy. */
    static void assertFloodReachesEveryHostOnce(TopologyView view, Set<SwitchPort> hosts, SwitchPort from) {
        var peer = new HashMap<SwitchPort, SwitchPort>();
        view.links().keySet().forEach(l -> peer.put(l.src(), l.dst()));
        var got = new LinkedHashMap<SwitchPort, Integer>();
        var arrivals = new ArrayDeque<SwitchPort>();
        arrivals.add(from);
        int steps = 0;
        while (!arrivals.isEmpty()) {
            assertTrue(++steps < 100_000, "the flood loops");
            var at = arrivals.poll();
            for (int out : view.broadcastPorts(at.dpid(), 0)) {
                if (out == at.port()) {
                    continue;
                }
                var sp = new SwitchPort(at.dpid(), out);
                if (peer.containsKey(sp)) {
                    arrivals.add(peer.get(sp));
                } else {
                    got.merge(sp, 1, Integer::sum);
                }
            }
        }
        var expected = new HashMap<SwitchPort, Integer>();
        hosts.stream().filter(h -> !h.equals(from)).forEach(h -> expected.put(h, 1));
        assertEquals(expected, new HashMap<>(got), "copies per host port when flooding from " + from);
    }
}
