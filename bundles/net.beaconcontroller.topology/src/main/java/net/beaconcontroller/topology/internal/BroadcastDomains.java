package net.beaconcontroller.topology.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The broadcast domains that broadcast-domain links (BDDP probes that crossed switches Beacon does not manage) reveal,
 * and which of their ports carry broadcasts. Pure, computed with each {@link TopologyView}.
 *
 * <p>A domain is a set of ports joined by such links: a frame sent out of one of them reaches all the others, since
 * the bridges in between flood broadcasts. Flooding out of two ports of one domain that the island also joins (a ring
 * closed by an unmanaged bridge) sends a frame round a loop; so the islands and domains are spanned by a tree of their
 * own, as switches and links are within an island: breadth-first from the island of the lowest dpid, each domain
 * entered once, through the lowest of the ports the island has in it, and every island it reaches not reached before
 * joined through its lowest port there. Only those ports are designated; the other ports of a domain neither flood
 * nor take broadcasts in (the domain has delivered the same frame through a designated port).
 *
 * @param domainOf   every port of every domain, with its domain's number
 * @param designated the ports of the domains on the tree: the one or few through which broadcasts cross each domain
 */
record BroadcastDomains(Map<SwitchPort, Integer> domainOf, Set<SwitchPort> designated) {
    static final BroadcastDomains NONE = new BroadcastDomains(Map.of(), Set.of());

    private static final Comparator<SwitchPort> PORT_ORDER = Comparator.comparing(SwitchPort::dpid,
            Long::compareUnsigned).thenComparingInt(SwitchPort::port);

    BroadcastDomains {
        domainOf = Map.copyOf(domainOf);
        designated = Set.copyOf(designated);
    }

    /** Every port of every domain. */
    Set<SwitchPort> ports() {
        return domainOf.keySet();
    }

    /** Whether {@code a} and {@code b} are ports of one domain: a frame sent out of either reaches the other. */
    boolean together(SwitchPort a, SwitchPort b) {
        var d = domainOf.get(a);
        return d != null && d.equals(domainOf.get(b));
    }

    /**
     * @param links    the broadcast-domain links whose ends are both up and end no LLDP link
     * @param islandOf the island of every active switch (by LLDP links)
     */
    static BroadcastDomains of(Collection<Link> links, Map<Long, Set<Long>> islandOf) {
        if (links.isEmpty()) {
            return NONE;
        }
        var domains = join(links);
        // Per island (by its lowest dpid), the domains it has ports in, each with the island's ports there in order.
        var byIsland = new TreeMap<Long, Map<Integer, List<SwitchPort>>>(Long::compareUnsigned);
        for (int d = 0; d < domains.size(); d++) {
            for (var p : domains.get(d)) {
                byIsland.computeIfAbsent(lowest(islandOf.get(p.dpid())), k -> new TreeMap<>())
                        .computeIfAbsent(d, k -> new ArrayList<>()).add(p);
            }
        }
        var designated = new HashSet<SwitchPort>();
        var reached = new HashSet<Long>();
        var enteredDomains = new HashSet<Integer>();
        for (long root : byIsland.keySet()) {
            if (!reached.add(root)) {
                continue;
            }
            var queue = new ArrayDeque<Long>();
            queue.add(root);
            while (!queue.isEmpty()) {
                var island = queue.poll();
                byIsland.get(island).forEach((d, own) -> {
                    if (!enteredDomains.add(d)) {
                        return;
                    }
                    designated.add(own.get(0));
                    byIsland.forEach((other, theirs) -> {
                        var there = theirs.get(d);
                        if (there != null && reached.add(other)) {
                            designated.add(there.get(0));
                            queue.add(other);
                        }
                    });
                });
            }
        }
        var all = new HashMap<SwitchPort, Integer>();
        for (int d = 0; d < domains.size(); d++) {
            for (var p : domains.get(d)) {
                all.put(p, d);
            }
        }
        return new BroadcastDomains(all, designated);
    }

    /** The domains: the ports joined by {@code links}, each domain's ports in order, the domains by their first. */
    private static List<List<SwitchPort>> join(Collection<Link> links) {
        var parent = new HashMap<SwitchPort, SwitchPort>();
        for (var l : links) {
            var a = root(parent, l.src());
            var b = root(parent, l.dst());
            // The lower port stays the root: a domain's root is its lowest port.
            int order = PORT_ORDER.compare(a, b);
            if (order < 0) {
                parent.put(b, a);
            } else if (order > 0) {
                parent.put(a, b);
            }
        }
        var groups = new TreeMap<SwitchPort, List<SwitchPort>>(PORT_ORDER);
        for (var p : parent.keySet()) {
            groups.computeIfAbsent(root(parent, p), k -> new ArrayList<>()).add(p);
        }
        var result = new ArrayList<List<SwitchPort>>();
        for (var g : groups.values()) {
            g.sort(PORT_ORDER);
            result.add(List.copyOf(g));
        }
        return result;
    }

    private static SwitchPort root(Map<SwitchPort, SwitchPort> parent, SwitchPort p) {
        parent.putIfAbsent(p, p);
        var r = p;
        while (!parent.get(r).equals(r)) {
            r = parent.get(r);
        }
        return r;
    }

    private static long lowest(Set<Long> island) {
        return island.stream().min(Long::compareUnsigned).orElseThrow();
    }
}
