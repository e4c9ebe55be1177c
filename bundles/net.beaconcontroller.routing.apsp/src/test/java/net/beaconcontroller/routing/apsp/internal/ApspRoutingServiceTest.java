package net.beaconcontroller.routing.apsp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.routing.Hop;
import net.beaconcontroller.routing.IRouteListener;
import net.beaconcontroller.routing.IRoutingEngine;
import net.beaconcontroller.routing.RouteChanges;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

class ApspRoutingServiceTest {
    /** A ring of four switches, cables from port 1 of switch i to port 2 of switch i + 1. */
    private static final Set<Link> RING = Set.of(
            Link.of(1, 1, 2, 2), Link.of(2, 2, 1, 1), Link.of(2, 1, 3, 2), Link.of(3, 2, 2, 1),
            Link.of(3, 1, 4, 2), Link.of(4, 2, 3, 1), Link.of(4, 1, 1, 2), Link.of(1, 2, 4, 1));

    private record Told(IRoutingEngine engine, Set<List<Long>> pairs) {
    }

    private static final class Recorder implements IRouteListener {
        final List<Told> calls = new ArrayList<>();

        @Override
        public void routesChanged(IRoutingEngine engine, RouteChanges changes) {
            var pairs = new HashSet<List<Long>>();
            changes.forEach((s, t) -> pairs.add(List.of(s, t)));
            calls.add(new Told(engine, pairs));
        }
    }

    private static ITopology topologyWith(Set<Link> links) {
        return new ITopology() {
            @Override
            public Map<Link, Instant> getLinks() {
                return links.stream().collect(Collectors.toMap(l -> l, l -> Instant.EPOCH));
            }

            @Override
            public boolean isEdgePort(long dpid, int port) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Set<Set<Long>> getIslands() {
                throw new UnsupportedOperationException();
            }

            @Override
            public Set<Integer> getBroadcastPorts(long dpid) {
                throw new UnsupportedOperationException();
            }

            @Override
            public boolean isSettled() {
                throw new UnsupportedOperationException();
            }
        };
    }

    @Test
    void startsFromTheTopologysLinks() {
        var service = new ApspRoutingService(topologyWith(RING));
        assertEquals(List.of(new Hop(1, 3, 1), new Hop(2, 2, 1), new Hop(3, 2, 4)),
                service.getRoute(new SwitchPort(1, 3), new SwitchPort(3, 4)));
    }

    @Test
    void listenersAreToldExactlyThePairsWhosePathChanged() {
        var service = new ApspRoutingService(topologyWith(RING));
        var recorder = new Recorder();
        service.addRouteListener(recorder);

        service.linkRemoved(Link.of(1, 1, 2, 2));
        // Paths that used 1 -> 2: 1 to 2, 1 to 3 (2 beats 4 on the tie), 4 to 2 (1 beats 3).
        assertEquals(List.of(new Told(service, Set.of(List.of(1L, 2L), List.of(1L, 3L), List.of(4L, 2L)))), recorder.calls);

        recorder.calls.clear();
        service.linkAdded(Link.of(1, 1, 2, 2));
        assertEquals(List.of(new Told(service, Set.of(List.of(1L, 2L), List.of(1L, 3L), List.of(4L, 2L)))), recorder.calls);

        recorder.calls.clear();
        service.linkAdded(Link.of(1, 1, 2, 2));
        assertEquals(List.of(), recorder.calls, "nothing changed, nobody is told");
    }

    @Test
    void aFailingListenerDoesNotKeepTheOthersFromBeingTold() {
        var service = new ApspRoutingService(topologyWith(RING));
        var recorder = new Recorder();
        service.addRouteListener((engine, changes) -> {
            throw new IllegalStateException("broken listener");
        });
        service.addRouteListener(recorder);
        service.linkRemoved(Link.of(3, 1, 4, 2));
        assertEquals(1, recorder.calls.size());
        assertSame(service, recorder.calls.get(0).engine());
    }

    @Test
    void aRemovedListenerIsNotToldAnyMore() {
        var service = new ApspRoutingService(topologyWith(RING));
        var recorder = new Recorder();
        service.addRouteListener(recorder);
        service.removeRouteListener(recorder);
        service.linkRemoved(Link.of(3, 1, 4, 2));
        assertEquals(List.of(), recorder.calls);
    }
}
