package net.beaconcontroller.benchmarks;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import net.beaconcontroller.topology.Link;

/**
 * A random connected network for the routing benchmarks: a random spanning tree plus random extra cables, every
 * cable a link each way, each switch numbering its ports from 1 as cables arrive. Fixed seed: every run measures the
 * same network.
 */
record RandomNetwork(int switches, List<Link> links) {
    static RandomNetwork of(int switches, int cables, long seed) {
        var random = new Random(seed);
        var nextPort = new int[switches];
        var joined = new HashSet<Long>();
        var links = new ArrayList<Link>();
        for (int i = 1; links.size() < 2 * cables; i++) {
            // First a spanning tree (switch i to an earlier one), then cables between any two distinct switches.
            int a = i < switches ? i : random.nextInt(switches);
            int b = i < switches ? random.nextInt(i) : random.nextInt(switches);
            if (a == b || !joined.add(Math.min(a, b) * (long) switches + Math.max(a, b))) {
                continue;
            }
            var link = Link.of(dpid(a), ++nextPort[a], dpid(b), ++nextPort[b]);
            links.add(link);
            links.add(link.reverse());
        }
        return new RandomNetwork(switches, List.copyOf(links));
    }

    static long dpid(int i) {
        return 0x1000L + i;
    }

    Set<Link> linkSet() {
        return Set.copyOf(links);
    }
}
