package net.beaconcontroller.routing.apsp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import net.beaconcontroller.routing.Hop;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

final class RouteAssertions {
    private RouteAssertions() {
    }

    /**
     * {@code hops} enter at {@code src}, leave at {@code dst}, and go from each switch to the next over a link that is
     * up in that direction, {@code distance} links in all; no hops when {@code distance} is -1.
     */
    static void assertRoute(List<Hop> hops, SwitchPort src, SwitchPort dst, Set<Link> links, int distance) {
        if (src.dpid() != dst.dpid() && distance < 0) {
            assertEquals(List.of(), hops, () -> "no route " + src + " -> " + dst);
            return;
        }
        assertEquals(Math.max(distance, 0) + 1, hops.size(), () -> "switches on " + hops);
        assertEquals(new Hop(src.dpid(), src.port(), hops.get(0).outPort()), hops.get(0));
        assertEquals(new Hop(dst.dpid(), hops.get(hops.size() - 1).inPort(), dst.port()), hops.get(hops.size() - 1));
        for (int i = 0; i + 1 < hops.size(); i++) {
            var link = Link.of(hops.get(i).dpid(), hops.get(i).outPort(), hops.get(i + 1).dpid(), hops.get(i + 1).inPort());
            assertTrue(links.contains(link), () -> link + " of " + hops + " is not up");
        }
    }
}
