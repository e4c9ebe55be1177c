package net.beaconcontroller.topology.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/** Which ports of broadcast domains flood: one per island and domain, the islands and domains spanned by a tree. */
class BroadcastDomainsTest {
    private static TopologyView view(Map<Long, Set<Integer>> ports, List<Link> cables, Link... domainLinks) {
        var v = new Topologies.Net(ports, cables).view();
        for (var l : domainLinks) {
            v = v.withDomainLink(l);
        }
        return v;
    }

    /**
     * The e2e test's case: a ring of 3 of Beacon's switches whose ends 1 and 3 are also joined through an unmanaged
     * bridge at their ports 4. One of those ports floods, or every broadcast goes round the bridge.
     */
    @Test
    void aBridgeThatClosesALoopOfTheIslandFloodsThroughOnePortOnly() {
        var ring = Topologies.ring(3);
        var ports = new HashMap<>(ring.ports());
        ports.put(1L, Set.of(1, 2, 3, 4));
        ports.put(3L, Set.of(1, 2, 3, 4));
        var v = view(ports, ring.cables(), Link.of(1, 4, 3, 4), Link.of(3, 4, 1, 4));
        assertTrue(v.isDomainPort(new SwitchPort(1, 4)) && v.isDomainPort(new SwitchPort(3, 4)));
        assertTrue(v.isEdgePort(1, 4) && v.isEdgePort(3, 4), "hosts behind the bridge attach there");
        assertTrue(v.floodPorts(1).contains(4), "the lowest port of the island in the domain");
        assertFalse(v.floodPorts(3).contains(4));
        assertTrue(v.floodPorts(3).contains(3), "host ports flood as before");
        assertEquals(Set.of(Set.of(1L, 2L, 3L)), v.islands(), "islands are made of LLDP links only");
    }

    /** Two switches without a cable between them, joined through two bridges: one joins them, the other is a loop. */
    @Test
    void twoDomainsBetweenTwoIslandsJoinThemOnceAndTheOtherFloodsFromOneSideOnly() {
        var ports = Map.of(1L, Set.of(1, 2, 3), 2L, Set.of(1, 2, 3));
        var v = view(ports, List.of(), Link.of(1, 1, 2, 1), Link.of(1, 2, 2, 2));
        assertEquals(Set.of(1, 2, 3), v.floodPorts(1));
        assertEquals(Set.of(1, 3), v.floodPorts(2), "2/1 joins it to 1; the domain of 2/2 is entered from 1/2");
        // One bridge at all four ports: one domain, entered once by each island.
        v = v.withDomainLink(Link.of(2, 1, 1, 2));
        assertEquals(Set.of(1, 3), v.floodPorts(1));
        assertEquals(Set.of(1, 3), v.floodPorts(2));
    }

    @Test
    void aDomainLinkThatAnLldpLinkEndsAtDoesNotCount() {
        var ports = Map.of(1L, Set.of(1, 2), 2L, Set.of(1, 2));
        var v = view(ports, List.of(Link.of(1, 1, 2, 2)), Link.of(1, 1, 2, 1));
        assertEquals(Set.of(), v.domainLinks());
        assertFalse(v.isDomainPort(new SwitchPort(2, 1)));
        // Nor does one whose port went down.
        v = view(ports, List.of(), Link.of(1, 2, 2, 1)).withoutPort(2, 1);
        assertEquals(Set.of(), v.domainLinks());
        assertFalse(v.isDomainPort(new SwitchPort(1, 2)));
    }

    /** A designated port faces bridges, as a tree port faces a switch: it floods while its switch's ports wait. */
    @Test
    void aDesignatedPortFloodsInQuarantine() {
        var v = TopologyView.EMPTY.withSwitch(1, Set.of(1, 2), 100).withSwitch(2, Set.of(1, 2), 100)
                .withDomainLink(Link.of(1, 1, 2, 1));
        assertEquals(Set.of(1), v.broadcastPorts(1, 0));
        assertEquals(Set.of(1), v.broadcastPorts(2, 0), "another island: its port into the domain floods too");
        assertEquals(Set.of(1, 2), v.broadcastPorts(1, 100));
    }
}
