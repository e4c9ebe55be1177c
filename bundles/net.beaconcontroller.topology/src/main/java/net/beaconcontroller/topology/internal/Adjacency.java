package net.beaconcontroller.topology.internal;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import net.beaconcontroller.core.ISwitchAdjacency;
import net.beaconcontroller.topology.ITopology;

/** The links discovery knows, as the switches' neighbourhood (for the cluster's balancer). */
@Component(service = ISwitchAdjacency.class)
public final class Adjacency implements ISwitchAdjacency {
    private final ITopology topology;

    @Activate
    public Adjacency(@Reference ITopology topology) {
        this.topology = topology;
    }

    @Override
    public Map<Long, Set<Long>> neighbours() {
        var result = new HashMap<Long, Set<Long>>();
        for (var link : topology.getLinks().keySet()) {
            long a = link.src().dpid();
            long b = link.dst().dpid();
            if (a != b) {
                result.computeIfAbsent(a, k -> new HashSet<>()).add(b);
                result.computeIfAbsent(b, k -> new HashSet<>()).add(a);
            }
        }
        result.replaceAll((k, v) -> Set.copyOf(v));
        return Map.copyOf(result);
    }
}
