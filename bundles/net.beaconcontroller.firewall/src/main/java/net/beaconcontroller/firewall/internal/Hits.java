package net.beaconcontroller.firewall.internal;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import net.beaconcontroller.firewall.FirewallCounters;
import net.beaconcontroller.firewall.FirewallRule;

/** The firewall's counters: added to by every I/O thread, read by /metrics. */
final class Hits {
    private final ConcurrentHashMap<Integer, LongAdder> byRule = new ConcurrentHashMap<>();
    private final LongAdder broadcastAllowed = new LongAdder();
    private final LongAdder broadcastDropped = new LongAdder();
    private final LongAdder defaultDropped = new LongAdder();
    private final LongAdder flowsDeleted = new LongAdder();

    void count(Decision d) {
        if (d instanceof Decision.ByRule r) {
            byRule.computeIfAbsent(r.rule().id(), id -> new LongAdder()).increment();
        } else if (d instanceof Decision.Broadcast b) {
            (b.allowed() ? broadcastAllowed : broadcastDropped).increment();
        } else {
            defaultDropped.increment();
        }
    }

    void flowsDeleted(int n) {
        flowsDeleted.add(n);
    }

    /** A deleted rule's count goes with it, so that a rule added again under its id starts at 0. */
    void forget(int ruleId) {
        byRule.remove(ruleId);
    }

    /** Every one of {@code rules}, with 0 for those that decided nothing yet. */
    FirewallCounters snapshot(Collection<FirewallRule> rules) {
        var counts = new LinkedHashMap<Integer, Long>();
        for (var r : rules) {
            var n = byRule.get(r.id());
            counts.put(r.id(), n == null ? 0 : n.sum());
        }
        return new FirewallCounters(counts, broadcastAllowed.sum(), broadcastDropped.sum(), defaultDropped.sum(),
                flowsDeleted.sum());
    }
}
