package net.beaconcontroller.routing.apsp.internal;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import net.beaconcontroller.topology.Link;

/**
 * The links as the engine's writer knows them, by the switch they leave and the switch they reach; not thread-safe.
 * A link from a switch to itself never shortens a path, so it is not kept.
 */
final class LinkGraph {
    /** Of parallel links, the lowest ports stand for all: a choice that depends on the links only, not their order. */
    private static final Comparator<Link> BY_NEIGHBOUR_THEN_PORTS = Comparator
            .comparingLong((Link l) -> DpidIndex.orderKey(l.dst().dpid()))
            .thenComparingInt(l -> l.src().port())
            .thenComparingInt(l -> l.dst().port());

    private final Map<Long, Set<Link>> from = new HashMap<>();
    private final Map<Long, Set<Link>> to = new HashMap<>();

    /** Adds the link; false when it is known already or joins a switch to itself. */
    boolean add(Link link) {
        if (link.src().dpid() == link.dst().dpid() || !from.computeIfAbsent(link.src().dpid(), k -> new HashSet<>()).add(link)) {
            return false;
        }
        to.computeIfAbsent(link.dst().dpid(), k -> new HashSet<>()).add(link);
        return true;
    }

    /** Removes the link; false when it was not known. */
    boolean remove(Link link) {
        Set<Link> out = from.get(link.src().dpid());
        if (out == null || !out.remove(link)) {
            return false;
        }
        forget(from, link.src().dpid(), out);
        Set<Link> in = to.get(link.dst().dpid());
        in.remove(link);
        forget(to, link.dst().dpid(), in);
        return true;
    }

    boolean hasLinks(long dpid) {
        return from.containsKey(dpid) || to.containsKey(dpid);
    }

    /** Every switch with a link. */
    Set<Long> switches() {
        var all = new HashSet<>(from.keySet());
        all.addAll(to.keySet());
        return all;
    }

    /** The switch's links out, one per neighbour; every neighbour must have an index. */
    OutLinks outLinks(long dpid, DpidIndex index) {
        Link[] links = from.getOrDefault(dpid, Set.of()).stream().sorted(BY_NEIGHBOUR_THEN_PORTS).toArray(Link[]::new);
        int n = 0;
        var toIndex = new int[links.length];
        var toKey = new long[links.length];
        var outPort = new int[links.length];
        var inPort = new int[links.length];
        for (int i = 0; i < links.length; i++) {
            long key = DpidIndex.orderKey(links[i].dst().dpid());
            if (n > 0 && toKey[n - 1] == key) {
                continue; // a parallel link after the one standing for them
            }
            toIndex[n] = index.indexOf(links[i].dst().dpid());
            toKey[n] = key;
            outPort[n] = links[i].src().port();
            inPort[n] = links[i].dst().port();
            n++;
        }
        return n == 0 ? OutLinks.NONE
                : new OutLinks(Arrays.copyOf(toIndex, n), Arrays.copyOf(toKey, n),
                        Arrays.copyOf(outPort, n), Arrays.copyOf(inPort, n));
    }

    /** The indices of the switches with a link into this one, each once; every one must have an index. */
    int[] inNeighbours(long dpid, DpidIndex index) {
        return to.getOrDefault(dpid, Set.of()).stream().mapToInt(l -> index.indexOf(l.src().dpid())).distinct().toArray();
    }

    private static void forget(Map<Long, Set<Link>> map, long dpid, Set<Link> links) {
        if (links.isEmpty()) {
            map.remove(dpid);
        }
    }
}
