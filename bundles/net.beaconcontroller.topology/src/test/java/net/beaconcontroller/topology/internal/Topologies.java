package net.beaconcontroller.topology.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/** Test topologies as cables (each becomes two links) between switches with the ports they use plus host ports. */
final class Topologies {
    /** Switch dpid -> its physical ports, and the cables, one direction each. */
    record Net(Map<Long, Set<Integer>> ports, List<Link> cables) {
        TopologyView view() {
            var switches = new HashMap<Long, TopologyView.SwitchState>();
            ports.forEach((d, p) -> switches.put(d, new TopologyView.SwitchState(p, Map.of())));
            var links = new HashMap<Link, Instant>();
            for (Link c : cables) {
                links.put(c, Instant.EPOCH);
                links.put(c.reverse(), Instant.EPOCH);
            }
            return new TopologyView(switches, links);
        }

        /** Host ports: every port that ends no cable. */
        Set<SwitchPort> hostPorts() {
            var ends = new HashSet<SwitchPort>();
            cables.forEach(c -> {
                ends.add(c.src());
                ends.add(c.dst());
            });
            var hosts = new HashSet<SwitchPort>();
            ports.forEach((d, ps) -> ps.forEach(p -> {
                var sp = new SwitchPort(d, p);
                if (!ends.contains(sp)) {
                    hosts.add(sp);
                }
            }));
            return hosts;
        }
    }

    private Topologies() {
    }

    /** Switches 1..n in a ring: port 1 to the next, port 2 from the previous, port 3 a host. */
    static Net ring(int n) {
        var ports = new HashMap<Long, Set<Integer>>();
        var cables = new ArrayList<Link>();
        for (long i = 1; i <= n; i++) {
            ports.put(i, Set.of(1, 2, 3));
            cables.add(Link.of(i, 1, i % n + 1, 2));
        }
        return new Net(ports, cables);
    }

    /**
     * A k=4 fat tree: 4 core switches (dpids 1..4), 4 pods of 2 aggregation (0x100 + 2 pod + i) and 2 edge
     * (0x200 + 2 pod + j) switches; each edge switch has 2 host ports (1, 2).
     */
    static Net fatTree() {
        var ports = new HashMap<Long, Set<Integer>>();
        var cables = new ArrayList<Link>();
        for (long c = 1; c <= 4; c++) {
            ports.put(c, Set.of(1, 2, 3, 4));
        }
        for (int pod = 0; pod < 4; pod++) {
            for (int i = 0; i < 2; i++) {
                long agg = 0x100 + 2 * pod + i;
                ports.put(agg, Set.of(1, 2, 3, 4));
                long edge = 0x200 + 2 * pod + i;
                ports.put(edge, Set.of(1, 2, 3, 4));
                for (int up = 0; up < 2; up++) {
                    // aggregation i's up port 3+up goes to core 2i+up, arriving on the core's port pod+1
                    cables.add(Link.of(agg, 3 + up, 2L * i + up + 1, pod + 1));
                    // edge i's up port 3+up goes to aggregation up, arriving on its down port i+1
                    cables.add(Link.of(edge, 3 + up, 0x100 + 2 * pod + up, i + 1));
                }
            }
        }
        return new Net(ports, cables);
    }
}
