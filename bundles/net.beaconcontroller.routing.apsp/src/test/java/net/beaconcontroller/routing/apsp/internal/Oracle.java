package net.beaconcontroller.routing.apsp.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import net.beaconcontroller.topology.Link;

/**
 * The engine's specification, computed the slow and obvious way on a copy of the links: a breadth-first search
 * towards each destination for the distances, then from the source, at each switch, the link to the lowest dpid
 * (unsigned) one step closer, the lowest ports among parallel links.
 */
final class Oracle {
    private static final Comparator<Link> PREFERRED = Comparator.<Link, Long>comparing(l -> l.dst().dpid(), Long::compareUnsigned)
            .thenComparingInt(l -> l.src().port())
            .thenComparingInt(l -> l.dst().port());

    private final Set<Link> links;
    private final Map<Long, Map<Long, Integer>> distancesTo = new HashMap<>();

    Oracle(Set<Link> links) {
        this.links = Set.copyOf(links);
    }

    /** Links on the way from {@code src} to {@code dst}; -1 when there is no way. */
    int distance(long src, long dst) {
        return distancesTo.computeIfAbsent(dst, this::search).getOrDefault(src, -1);
    }

    Optional<List<Link>> path(long src, long dst) {
        if (src != dst && distance(src, dst) < 0) {
            return Optional.empty();
        }
        var path = new ArrayList<Link>();
        for (long x = src; x != dst; x = path.get(path.size() - 1).dst().dpid()) {
            long at = x;
            int closer = distance(x, dst) - 1;
            path.add(links.stream()
                    .filter(l -> l.src().dpid() == at && l.dst().dpid() != at && distance(l.dst().dpid(), dst) == closer)
                    .min(PREFERRED).orElseThrow());
        }
        return Optional.of(path);
    }

    private Map<Long, Integer> search(long dst) {
        var distance = new HashMap<Long, Integer>(Map.of(dst, 0));
        var queue = new ArrayDeque<Long>(List.of(dst));
        while (!queue.isEmpty()) {
            long z = queue.poll();
            for (Link l : links) {
                if (l.dst().dpid() == z && !distance.containsKey(l.src().dpid())) {
                    distance.put(l.src().dpid(), distance.get(z) + 1);
                    queue.add(l.src().dpid());
                }
            }
        }
        return distance;
    }
}
