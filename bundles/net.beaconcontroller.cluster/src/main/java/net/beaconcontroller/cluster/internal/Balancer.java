package net.beaconcontroller.cluster.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Decides masters: who takes a switch nobody live masters, and which switch to move so that members balance. */
final class Balancer {
    /** Move {@code dpid}'s mastership from member {@code from} to {@code to}. */
    record Move(long dpid, String from, String to) { }

    private Balancer() {
    }

    /** Of the members connected to a switch, the one mastering fewest switches (ties: the first in {@code order}). */
    static String pick(Set<String> connected, Map<String, Integer> counts, List<String> order) {
        return order.stream().filter(connected::contains)
                .min(Comparator.comparingInt(m -> counts.getOrDefault(m, 0))).orElseThrow();
    }

    /**
     * At most one migration that brings the members closer to balance, or none.
     *
     * <p>Load first: when a member handles more than {@code high} PACKET_INs per second and another fewer than
     * {@code low}, the busy one gives the switch that leaves the two closest. Otherwise switch counts: a member with
     * at least two more switches than another gives it its quietest switch, provided that does not push the receiver
     * over {@code high} (so the two rules do not undo each other), which is how a member that joins gets its share.
     *
     * @param members   live members, oldest first
     * @param masters   switch to master
     * @param connected switch to the members it is connected to
     * @param rates     switch to PACKET_INs per second (missing: 0)
     */
    static Optional<Move> plan(List<String> members, Map<Long, String> masters, Map<Long, Set<String>> connected,
            Map<Long, Long> rates, long high, long low) {
        if (members.size() < 2) {
            return Optional.empty();
        }
        var load = new HashMap<String, Long>();
        var count = new HashMap<String, Integer>();
        members.forEach(m -> {
            load.put(m, 0L);
            count.put(m, 0);
        });
        masters.forEach((dpid, m) -> {
            if (load.containsKey(m)) {
                load.merge(m, rates.getOrDefault(dpid, 0L), Long::sum);
                count.merge(m, 1, Integer::sum);
            }
        });
        var busiest = members.stream().max(Comparator.comparingLong(load::get)).orElseThrow();
        var idlest = members.stream().min(Comparator.comparingLong(load::get)).orElseThrow();
        if (load.get(busiest) > high && load.get(idlest) < low) {
            long gap = load.get(busiest) - load.get(idlest);
            return masters.entrySet().stream()
                    .filter(e -> e.getValue().equals(busiest) && canTake(connected, e.getKey(), idlest))
                    .filter(e -> rates.getOrDefault(e.getKey(), 0L) > 0 && rates.getOrDefault(e.getKey(), 0L) < gap)
                    .min(Comparator.comparingLong(e -> Math.abs(gap - 2 * rates.getOrDefault(e.getKey(), 0L))))
                    .map(e -> new Move(e.getKey(), busiest, idlest));
        }
        var most = members.stream().max(Comparator.comparingInt(count::get)).orElseThrow();
        for (var fewest : members.stream().sorted(Comparator.comparingInt(count::get)).toList()) {
            if (count.get(most) - count.get(fewest) < 2) {
                break;
            }
            var move = masters.entrySet().stream()
                    .filter(e -> e.getValue().equals(most) && canTake(connected, e.getKey(), fewest))
                    .filter(e -> load.get(fewest) + rates.getOrDefault(e.getKey(), 0L) <= high)
                    .min(Comparator.<Map.Entry<Long, String>>comparingLong(e -> rates.getOrDefault(e.getKey(), 0L))
                            .thenComparingLong(Map.Entry::getKey))
                    .map(e -> new Move(e.getKey(), most, fewest));
            if (move.isPresent()) {
                return move;
            }
        }
        return Optional.empty();
    }

    /**
     * The moves of one balancing round: {@link #plan} again on the masters as they will be, until it has nothing to
     * move, then {@link Locality}'s steps, each switch at most once. They run at the same time, so members that join
     * get their share in one round (a cluster started with all its switches on one member is spread within seconds,
     * not one switch a period).
     *
     * @param neighbours switch to the switches it has links to (empty: placed without regard to them)
     * @param settling   switches whose master changed lately, which {@link Locality} leaves where they are: a move
     *                   by hand stays for a while, and a switch does not go back and forth between rounds
     */
    static List<Move> planAll(List<String> members, Map<Long, String> masters, Map<Long, Set<String>> connected,
            Map<Long, Long> rates, long high, long low, Map<Long, Set<Long>> neighbours, Set<Long> settling) {
        var after = new HashMap<>(masters);
        var moves = new ArrayList<Move>();
        var moved = new HashSet<Long>();
        while (moves.size() < masters.size()) {
            var move = plan(members, after, connected, rates, high, low);
            if (move.isEmpty() || !moved.add(move.get().dpid())) {
                break;
            }
            moves.add(move.get());
            after.put(move.get().dpid(), move.get().to());
        }
        if (members.size() < 2 || neighbours.isEmpty()) {
            return moves;
        }
        var locality = new Locality(members, after, connected, rates, neighbours, high);
        var fixed = new HashSet<>(moved);
        fixed.addAll(settling);
        for (var step = locality.step(fixed); !step.isEmpty(); step = locality.step(fixed)) {
            step.forEach(m -> {
                fixed.add(m.dpid());
                moves.add(m);
            });
        }
        return moves;
    }

    private static boolean canTake(Map<Long, Set<String>> connected, long dpid, String member) {
        return connected.getOrDefault(dpid, Set.of()).contains(member);
    }
}
