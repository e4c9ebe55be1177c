package net.beaconcontroller.routing.apsp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.routing.Hop;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

class ApspEngineTest {
    /** Switches 1..n in a ring, each cable from port 1 of switch i to port 2 of switch i + 1; hosts on port 3. */
    private static Set<Link> ring(int n) {
        var links = new HashSet<Link>();
        for (int i = 1; i <= n; i++) {
            var link = Link.of(i, 1, i % n + 1, 2);
            links.add(link);
            links.add(link.reverse());
        }
        return links;
    }

    private static ApspEngine engineOver(Set<Link> links) {
        var engine = new ApspEngine();
        links.forEach(engine::add);
        return engine;
    }

    private static SwitchPort host(long dpid) {
        return new SwitchPort(dpid, 3);
    }

    @Test
    void ringRoutesAroundALinkThatWentDownAndBackWhenItReturns() {
        var engine = engineOver(ring(4));
        var direct = List.of(new Hop(1, 3, 1), new Hop(2, 2, 3));
        assertEquals(direct, engine.getRoute(host(1), host(2)));

        engine.remove(Link.of(1, 1, 2, 2));
        assertEquals(List.of(new Hop(1, 3, 2), new Hop(4, 1, 2), new Hop(3, 1, 2), new Hop(2, 1, 3)),
                engine.getRoute(host(1), host(2)));
        assertEquals(List.of(new Hop(2, 3, 2), new Hop(1, 1, 3)), engine.getRoute(host(2), host(1)),
                "the other direction still works and is still used");

        engine.add(Link.of(1, 1, 2, 2));
        assertEquals(direct, engine.getRoute(host(1), host(2)));
    }

    @Test
    void equallyShortPathsGoThroughTheLowestDpid() {
        var engine = engineOver(ring(4));
        assertEquals(Optional.of(List.of(Link.of(1, 1, 2, 2), Link.of(2, 1, 3, 2))), engine.getPath(1, 3));
        assertEquals(Optional.of(List.of(Link.of(3, 2, 2, 1), Link.of(2, 2, 1, 1))), engine.getPath(3, 1));
    }

    @Test
    void fatTreeConnectsEveryHostPairOverOneThreeOrFiveSwitches() {
        int k = 4;
        var links = new HashSet<Link>();
        // Core switch c (dpid 1 + c) has port p + 1 to pod p; aggregation switch j of pod p uses ports 1..k/2 down
        // and k/2 + 1.. up; edge switch i of pod p uses ports 1..k/2 for hosts and k/2 + 1.. up.
        for (int p = 0; p < k; p++) {
            for (int j = 0; j < k / 2; j++) {
                long agg = 0x100 + p * k + j;
                for (int m = 0; m < k / 2; m++) {
                    cable(links, agg, k / 2 + 1 + m, 1 + j * k / 2 + m, p + 1);
                }
                for (int i = 0; i < k / 2; i++) {
                    cable(links, agg, 1 + i, 0x200 + p * k + i, k / 2 + 1 + j);
                }
            }
        }
        var engine = engineOver(links);
        var hosts = new ArrayList<SwitchPort>();
        for (int p = 0; p < k; p++) {
            for (int i = 0; i < k / 2; i++) {
                for (int h = 1; h <= k / 2; h++) {
                    hosts.add(new SwitchPort(0x200 + p * k + i, h));
                }
            }
        }
        assertEquals(20, engine.switchCount());
        for (var src : hosts) {
            for (var dst : hosts) {
                if (!src.equals(dst)) {
                    long srcPod = (src.dpid() - 0x200) / k;
                    long dstPod = (dst.dpid() - 0x200) / k;
                    int switches = src.dpid() == dst.dpid() ? 1 : srcPod == dstPod ? 3 : 5;
                    RouteAssertions.assertRoute(engine.getRoute(src, dst), src, dst, links, switches - 1);
                }
            }
        }
    }

    private static void cable(Set<Link> links, long a, int portA, long b, int portB) {
        var link = Link.of(a, portA, b, portB);
        links.add(link);
        links.add(link.reverse());
    }

    @Test
    void aOneWayLinkCarriesRoutesInItsDirectionOnly() {
        var engine = engineOver(Set.of(Link.of(1, 1, 2, 1)));
        assertEquals(List.of(new Hop(1, 3, 1), new Hop(2, 1, 3)), engine.getRoute(host(1), host(2)));
        assertEquals(List.of(), engine.getRoute(host(2), host(1)));
        assertEquals(Optional.empty(), engine.getPath(2, 1));
    }

    @Test
    void parallelLinksUseTheLowestPortsAndTheNextWhenItGoes() {
        var engine = engineOver(Set.of(Link.of(1, 5, 2, 6), Link.of(1, 4, 2, 9)));
        assertEquals(Optional.of(List.of(Link.of(1, 4, 2, 9))), engine.getPath(1, 2));
        var changes = engine.remove(Link.of(1, 4, 2, 9));
        assertEquals(Optional.of(List.of(Link.of(1, 5, 2, 6))), engine.getPath(1, 2));
        assertEquals(1, changes.size());
        assertTrue(changes.contains(1, 2));
    }

    @Test
    void pointsOnOneSwitchAreOneHopEvenWithoutLinks() {
        var engine = new ApspEngine();
        assertEquals(List.of(new Hop(7, 1, 2)), engine.getRoute(new SwitchPort(7, 1), new SwitchPort(7, 2)));
        assertEquals(Optional.of(List.of()), engine.getPath(7, 7));
        assertEquals(List.of(), engine.getRoute(new SwitchPort(7, 1), new SwitchPort(8, 2)));
    }

    @Test
    void aSwitchThatLostItsLastLinkIsForgottenAndItsIndexReused() {
        var engine = engineOver(ring(3));
        engine.remove(Link.of(3, 1, 1, 2));
        engine.remove(Link.of(1, 2, 3, 1));
        engine.remove(Link.of(2, 1, 3, 2));
        engine.remove(Link.of(3, 2, 2, 1));
        assertEquals(2, engine.switchCount());
        engine.add(Link.of(1, 7, 9, 7));
        assertEquals(3, engine.switchCount());
        assertEquals(Optional.of(List.of(Link.of(2, 2, 1, 1), Link.of(1, 7, 9, 7))), engine.getPath(2, 9));
    }

    @Test
    void knownLinksAddedAgainAndUnknownLinksRemovedChangeNothing() {
        var engine = engineOver(ring(4));
        assertEquals(0, engine.add(Link.of(1, 1, 2, 2)).size());
        assertEquals(0, engine.remove(Link.of(1, 9, 2, 9)).size());
        assertEquals(0, engine.add(Link.of(5, 1, 5, 2)).size(), "a link to the same switch is no shortcut");
    }
}
