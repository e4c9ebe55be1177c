package net.beaconcontroller.maple.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

import net.beaconcontroller.maple.Environment;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * A small network for tests: switches, cables (a link each way) and hosts on edge ports. Paths are shortest
 * paths towards the destination with ties broken by the lowest datapath id, so all routes to one switch form a
 * tree (destination-based forwarding).
 */
final class FakeNetwork implements Environment {
    final TreeSet<Long> switches = new TreeSet<>();
    /** Links by the port they leave from. */
    final Map<SwitchPort, Link> links = new LinkedHashMap<>();
    final Map<Long, SwitchPort> hosts = new LinkedHashMap<>();
    /** Each host's IPv4 address. */
    final Map<Long, Integer> ips = new LinkedHashMap<>();

    /**
     * Four switches in a ring (port 1 to the next, port 2 to the previous) with a chord from 1 to 3 on port 6, and
     * {@code hostsPerSwitch} hosts on ports 3.. of each switch; host {@code k} on switch {@code s} has MAC
     * {@code 0x0a0000000000 + s*16 + k} and IP 10.0.s.k.
     */
    static FakeNetwork ringWithChord(int hostsPerSwitch) {
        var net = new FakeNetwork();
        for (long s = 1; s <= 4; s++) {
            net.switches.add(s);
            for (int k = 0; k < hostsPerSwitch; k++) {
                net.addHost(s, 3 + k, k);
            }
        }
        for (long s = 1; s <= 4; s++) {
            net.cable(s, 1, s % 4 + 1, 2);
        }
        net.cable(1, 6, 3, 6);
        return net;
    }

    /** One switch with {@code hosts} hosts on ports 1..hosts. */
    static FakeNetwork oneSwitch(int hosts) {
        var net = new FakeNetwork();
        net.switches.add(1L);
        for (int k = 0; k < hosts; k++) {
            net.addHost(1, 1 + k, k);
        }
        return net;
    }

    private void addHost(long s, int port, int k) {
        long mac = 0x0a00_0000_0000L + s * 16 + k;
        hosts.put(mac, new SwitchPort(s, port));
        ips.put(mac, (10 << 24) | ((int) s << 8) | k);
    }

    void cable(long a, int pa, long b, int pb) {
        Link l = Link.of(a, pa, b, pb);
        links.put(l.src(), l);
        links.put(l.dst(), l.reverse());
    }

    /** Cuts the cable on {@code port}; returns its two ends. */
    List<SwitchPort> cut(SwitchPort port) {
        Link l = links.remove(port);
        links.remove(l.dst());
        return List.of(l.src(), l.dst());
    }

    List<SwitchPort> edgePorts() {
        return new ArrayList<>(hosts.values());
    }

    @Override
    public Optional<SwitchPort> hostLocation(long mac) {
        return Optional.ofNullable(hosts.get(mac));
    }

    @Override
    public Optional<List<Link>> path(long src, long dst) {
        Map<Long, Link> towards = new HashMap<>(); // each switch's first link on a shortest path to dst
        var queue = new ArrayDeque<Long>();
        queue.add(dst);
        var seen = new TreeSet<Long>();
        seen.add(dst);
        while (!queue.isEmpty()) {
            long at = queue.poll();
            for (Link in : sortedLinksInto(at)) {
                long from = in.src().dpid();
                if (seen.add(from)) {
                    towards.put(from, in);
                    queue.add(from);
                }
            }
        }
        if (!seen.contains(src)) {
            return Optional.empty();
        }
        var path = new ArrayList<Link>();
        for (long at = src; at != dst; at = towards.get(at).dst().dpid()) {
            path.add(towards.get(at));
        }
        return Optional.of(path);
    }

    private List<Link> sortedLinksInto(long dpid) {
        return links.values().stream().filter(l -> l.dst().dpid() == dpid)
                .sorted((a, b) -> Long.compare(a.src().dpid(), b.src().dpid())).toList();
    }
}
