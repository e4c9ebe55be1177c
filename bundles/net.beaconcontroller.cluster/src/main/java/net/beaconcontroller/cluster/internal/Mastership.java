package net.beaconcontroller.cluster.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * The oldest member's decisions (with a majority): which member masters each switch, re-derived every round from the
 * members' own reports (which switches each is connected to, and the role each switch granted it) rather than from
 * what the map held before, so that nothing a dead member took with it decides anything.
 *
 * <p>Rules, per switch: a live master connected to it keeps it; otherwise a live member the switch already granted
 * MASTER takes it (no role change at the switch); otherwise the connected member mastering fewest switches, a member
 * that is leaving only if no other is connected. A live master that no longer reports the switch keeps it for
 * {@link #GRACE_NANOS} (its report may lag its claim), and a switch no live member reports is dropped.
 *
 * <p>Confined to the store's thread ({@link Store}), which keeps the instance.
 */
final class Mastership {
    /** How long a live master may be missing from its switch's reports before the switch is given to another. */
    static final long GRACE_NANOS = 3_000_000_000L;

    /**
     * One change to write to the masters map, conditionally on {@code from} still being there.
     *
     * @param from the master the map names now, null for none
     * @param to   the new master, null to remove the entry
     */
    record Change(long dpid, String from, String to) { }

    /** A switch's live master missing from its reports, and since when (System.nanoTime). */
    private record Unreported(String master, long since) { }

    private final Map<Long, Unreported> unreported = new HashMap<>();

    /**
     * @param live    the live members, oldest first
     * @param leaving members handing their switches over before they leave: given a switch only if no other can
     * @param reports each live member's latest report (a member without one is connected to nothing yet)
     * @param masters the masters map as read just before {@code reports}
     * @param now     System.nanoTime()
     */
    List<Change> decide(List<String> live, Set<String> leaving, Map<String, MemberReport> reports,
            Map<Long, String> masters, long now) {
        var liveSet = new HashSet<>(live);
        var targets = targets(live, leaving);
        var counts = new HashMap<String, Integer>();
        masters.values().forEach(m -> counts.merge(m, 1, Integer::sum));
        var dpids = new TreeSet<>(masters.keySet());
        for (var m : live) {
            var r = reports.get(m);
            if (r != null) {
                r.switches().forEach(s -> dpids.add(s.dpid()));
            }
        }
        var changes = new ArrayList<Change>();
        for (long dpid : dpids) {
            var connected = new ArrayList<String>();
            var holders = new ArrayList<String>();
            for (var m : live) {
                var r = reports.get(m);
                var s = r == null ? null : r.find(dpid);
                if (s != null) {
                    connected.add(m);
                    if (s.role() == NiciraRole.MASTER) {
                        holders.add(m);
                    }
                }
            }
            var current = masters.get(dpid);
            if (current != null && connected.contains(current)) {
                unreported.remove(dpid);
                continue;
            }
            if (current != null && liveSet.contains(current)) {
                var u = unreported.get(dpid);
                if (u == null || !u.master().equals(current)) { // a new master gets a grace of its own
                    u = new Unreported(current, now);
                    unreported.put(dpid, u);
                }
                if (now - u.since() < GRACE_NANOS) {
                    continue;
                }
            }
            unreported.remove(dpid);
            if (connected.isEmpty()) {
                if (current != null) {
                    changes.add(new Change(dpid, current, null));
                    counts.merge(current, -1, Integer::sum);
                }
                continue;
            }
            String pick;
            if (!holders.isEmpty()) {
                pick = holders.get(0);
            } else {
                var candidates = new HashSet<>(connected);
                pick = Balancer.pick(candidates, counts, targets.stream().anyMatch(candidates::contains) ? targets : live);
            }
            changes.add(new Change(dpid, current, pick));
            counts.merge(pick, 1, Integer::sum);
            if (current != null) {
                counts.merge(current, -1, Integer::sum);
            }
        }
        unreported.keySet().retainAll(dpids);
        return changes;
    }

    /** The members a switch may be given to: the live ones that are not leaving, oldest first. */
    static List<String> targets(List<String> live, Set<String> leaving) {
        return live.stream().filter(m -> !leaving.contains(m)).toList();
    }

    /**
     * Who takes each switch of {@code dead} over, as {@link #decide} will have it when every live member is connected
     * to the switch (the usual case: switches connect to every member): the one mastering fewest, oldest first on
     * ties, switch by switch in datapath id order. Computed from the masters map alone, which every member caches
     * alike, so the survivors agree on it without talking, at the moment they see the death.
     *
     * @param live    the live members, oldest first
     * @param masters the masters map as cached
     */
    static Map<Long, String> successors(String dead, List<String> live, Map<Long, String> masters) {
        var counts = new HashMap<String, Integer>();
        masters.values().forEach(m -> counts.merge(m, 1, Integer::sum));
        var candidates = new HashSet<>(live);
        var result = new HashMap<Long, String>();
        if (candidates.isEmpty()) {
            return result;
        }
        var orphans = new TreeSet<Long>();
        masters.forEach((dpid, m) -> {
            if (m.equals(dead)) {
                orphans.add(dpid);
            }
        });
        for (long dpid : orphans) {
            var pick = Balancer.pick(candidates, counts, live);
            result.put(dpid, pick);
            counts.merge(pick, 1, Integer::sum);
        }
        return result;
    }

    /**
     * Switches this member must assert MASTER on again although it believes it holds MASTER: another live member
     * reports MASTER for them (the switch demoted one of the two without telling it).
     */
    static Set<Long> contested(String self, List<String> live, Map<String, MemberReport> reports,
            Map<Long, String> masters) {
        var result = new HashSet<Long>();
        for (var m : live) {
            var r = reports.get(m);
            if (m.equals(self) || r == null) {
                continue;
            }
            for (var s : r.switches()) {
                if (s.role() == NiciraRole.MASTER && self.equals(masters.get(s.dpid()))) {
                    result.add(s.dpid());
                }
            }
        }
        return result;
    }
}
