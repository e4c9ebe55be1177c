package net.beaconcontroller.topology.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.Link;

class AdjacencyTest {
    private static ITopology linked(Map<Link, Instant> links) {
        return (ITopology) Proxy.newProxyInstance(ITopology.class.getClassLoader(), new Class<?>[] {ITopology.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getLinks")) {
                        return links;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void everyLinkMakesItsEndsNeighboursBothWaysOneDirectionEnough() {
        var adjacency = new Adjacency(linked(Map.of(
                Link.of(1, 1, 2, 1), Instant.EPOCH, Link.of(2, 1, 1, 1), Instant.EPOCH, // both directions
                Link.of(2, 2, 3, 1), Instant.EPOCH, // one direction only, so far
                Link.of(2, 3, 3, 2), Instant.EPOCH, // a second cable between the same two switches
                Link.of(4, 1, 4, 2), Instant.EPOCH))); // a loop cable on one switch: no neighbour
        assertEquals(Map.of(1L, Set.of(2L), 2L, Set.of(1L, 3L), 3L, Set.of(2L)), adjacency.neighbours());
    }

    @Test
    void noLinksNoNeighbours() {
        assertEquals(Map.of(), new Adjacency(linked(Map.of())).neighbours());
    }
}
