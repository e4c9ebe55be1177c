package net.beaconcontroller.topology.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.Link;

/** Floodlight's link and cluster views of a topology. */
class TopologyControllerTest {
    /** A topology that is exactly these links, islands computed by the test. */
    private record Fixed(Set<Link> links, Set<Set<Long>> islands) implements ITopology {
        @Override
        public Map<Link, Instant> getLinks() {
            return links.stream().collect(Collectors.toMap(l -> l, l -> Instant.EPOCH));
        }

        @Override
        public boolean isEdgePort(long dpid, int port) {
            return links.stream().noneMatch(l -> l.src().dpid() == dpid && l.src().port() == port);
        }

        @Override
        public Set<Set<Long>> getIslands() {
            return islands;
        }

        @Override
        public Set<Integer> getBroadcastPorts(long dpid) {
            return Set.of();
        }

        @Override
        public boolean isSettled() {
            return true;
        }
    }

    private static Map<String, Object> link(long src, int sp, long dst, int dp, String direction) {
        var m = new LinkedHashMap<String, Object>();
        m.put("src-switch", String.format("00:00:00:00:00:00:00:%02x", src));
        m.put("src-port", sp);
        m.put("dst-switch", String.format("00:00:00:00:00:00:00:%02x", dst));
        m.put("dst-port", dp);
        m.put("type", "internal");
        m.put("direction", direction);
        return m;
    }

    @Test
    void eachCableOnceFromTheLowerEndAndOneWayLinksAsTheyAre() {
        var links = Set.of(Link.of(2, 1, 1, 3), Link.of(1, 3, 2, 1), // a cable, seen both ways
                Link.of(3, 2, 2, 5), // one way only
                Link.of(4, 2, 4, 1), Link.of(4, 1, 4, 2)); // a loop cable on one switch
        var web = new TopologyController(new Fixed(links, Set.of(Set.of(1L, 2L, 3L, 4L))));
        assertEquals(List.of(link(1, 3, 2, 1, "bidirectional"), link(3, 2, 2, 5, "unidirectional"),
                link(4, 1, 4, 2, "bidirectional")), web.links());
        assertEquals(5, web.directedLinks().size());
    }

    @Test
    void clustersAreKeyedByTheirLowestDpid() {
        var web = new TopologyController(new Fixed(Set.of(), Set.of(Set.of(5L, 3L), Set.of(0x10L), Set.of(-1L, 7L))));
        var clusters = web.clusters();
        assertEquals(List.of("00:00:00:00:00:00:00:03", "00:00:00:00:00:00:00:07", "00:00:00:00:00:00:00:10"),
                List.copyOf(clusters.keySet()));
        assertEquals(List.of("00:00:00:00:00:00:00:07", "ff:ff:ff:ff:ff:ff:ff:ff"),
                clusters.get("00:00:00:00:00:00:00:07"));
    }
}
