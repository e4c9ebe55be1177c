package net.beaconcontroller.cluster.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import net.beaconcontroller.cluster.internal.Balancer.Move;

/**
 * Moves that give neighbouring switches one master, taken once the balancer's own rules have nothing left to move: a
 * path across switches of one master needs no write forwarded to another member (ElastiCon). The measure is the cut,
 * the number of neighbour pairs with different masters. A step is the single move, or the swap of two switches
 * between two members, that lowers the cut most. It keeps the switch counts as even as they were (a single move only
 * from a member with more switches to one with fewer) and puts no member above the high water mark, so it undoes
 * nothing the other rules did; and as every step lowers the cut, rounds on a topology that does not change come to
 * an end.
 *
 * <p>Used by one balancing round on the store's thread; it keeps the masters as they will be after its steps.
 */
final class Locality {
    /** How many of the best candidates per pair of members a swap is looked for among. */
    private static final int SWAP_CANDIDATES = 3;

    /** Moving {@code dpid} to the member it is for lowers the cut by {@code gain} (before any other step). */
    private record Candidate(long dpid, int gain) { }

    private final List<String> members;
    private final Map<Long, String> masters;
    private final Map<Long, Set<String>> connected;
    private final Map<Long, Long> rates;
    private final Map<Long, Set<Long>> neighbours;
    private final long high;
    private final Map<String, Integer> count = new HashMap<>();
    private final Map<String, Long> load = new HashMap<>();

    /**
     * @param members    the members switches may go to, oldest first
     * @param masters    switch to master, as the round's earlier moves leave them (changed by {@link #step})
     * @param connected  switch to the members it is connected to
     * @param rates      switch to PACKET_INs per second (missing: 0)
     * @param neighbours switch to the switches it has links to
     * @param high       the high water mark, PACKET_INs per second
     */
    Locality(List<String> members, Map<Long, String> masters, Map<Long, Set<String>> connected,
            Map<Long, Long> rates, Map<Long, Set<Long>> neighbours, long high) {
        this.members = members;
        this.masters = masters;
        this.connected = connected;
        this.rates = rates;
        this.neighbours = neighbours;
        this.high = high;
        members.forEach(m -> {
            count.put(m, 0);
            load.put(m, 0L);
        });
        masters.forEach((dpid, m) -> {
            if (count.containsKey(m)) {
                count.merge(m, 1, Integer::sum);
                load.merge(m, rate(dpid), Long::sum);
            }
        });
    }

    /** The links between switches of different masters now. */
    int cut() {
        int cut = 0;
        for (var e : neighbours.entrySet()) {
            var m = masters.get(e.getKey());
            for (long n : e.getValue()) {
                var other = masters.get(n);
                if (m != null && other != null && !m.equals(other) && e.getKey() < n) {
                    cut++;
                }
            }
        }
        return cut;
    }

    /**
     * The best step for switches not in {@code fixed} (one or two moves, applied to the masters this instance keeps),
     * or an empty list when no step lowers the cut.
     */
    List<Move> step(Set<Long> fixed) {
        // Per ordered pair of members (from, to): the switches of "from" best moved to "to", best first.
        var best = new HashMap<List<String>, List<Candidate>>();
        for (var e : masters.entrySet()) {
            long dpid = e.getKey();
            var from = e.getValue();
            if (fixed.contains(dpid) || !count.containsKey(from)) {
                continue;
            }
            for (var to : members) {
                if (!to.equals(from) && connected.getOrDefault(dpid, Set.of()).contains(to)) {
                    best.computeIfAbsent(List.of(from, to), k -> new ArrayList<>())
                            .add(new Candidate(dpid, linksTo(dpid, to) - linksTo(dpid, from)));
                }
            }
        }
        var order = Comparator.comparingInt(Candidate::gain).reversed().thenComparingLong(Candidate::dpid);
        best.values().forEach(l -> l.sort(order));
        List<Move> step = List.of();
        int stepGain = 0;
        for (var from : members) {
            for (var to : members) {
                var there = best.getOrDefault(List.of(from, to), List.of());
                if (there.isEmpty()) {
                    continue;
                }
                var single = there.get(0);
                if (count.get(from) > count.get(to) && single.gain() > stepGain
                        && load.get(to) + rate(single.dpid()) <= high) {
                    step = List.of(new Move(single.dpid(), from, to));
                    stepGain = single.gain();
                }
                var back = best.getOrDefault(List.of(to, from), List.of());
                for (var a : there.subList(0, Math.min(SWAP_CANDIDATES, there.size()))) {
                    for (var b : back.subList(0, Math.min(SWAP_CANDIDATES, back.size()))) {
                        // Two neighbours swapped stay apart: each one's gain counted the other as already there.
                        int gain = a.gain() + b.gain() - (linked(a.dpid(), b.dpid()) ? 2 : 0);
                        long delta = rate(a.dpid()) - rate(b.dpid());
                        if (gain > stepGain && load.get(to) + delta <= high && load.get(from) - delta <= high) {
                            step = List.of(new Move(a.dpid(), from, to), new Move(b.dpid(), to, from));
                            stepGain = gain;
                        }
                    }
                }
            }
        }
        step.forEach(this::apply);
        return step;
    }

    private void apply(Move m) {
        masters.put(m.dpid(), m.to());
        count.merge(m.from(), -1, Integer::sum);
        count.merge(m.to(), 1, Integer::sum);
        load.merge(m.from(), -rate(m.dpid()), Long::sum);
        load.merge(m.to(), rate(m.dpid()), Long::sum);
    }

    /** How many of the switch's neighbours {@code member} masters. */
    private int linksTo(long dpid, String member) {
        int n = 0;
        for (long other : neighbours.getOrDefault(dpid, Set.of())) {
            if (member.equals(masters.get(other))) {
                n++;
            }
        }
        return n;
    }

    private boolean linked(long a, long b) {
        return neighbours.getOrDefault(a, Set.of()).contains(b);
    }

    private long rate(long dpid) {
        return rates.getOrDefault(dpid, 0L);
    }
}
