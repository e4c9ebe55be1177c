package net.beaconcontroller.firewall.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import net.beaconcontroller.firewall.FirewallRule;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.util.MacAddress;

/**
 * Everything the firewall decides by, as one immutable value: a PACKET_IN reads one snapshot and never sees half a
 * change.
 *
 * @param rules in matching order: ascending priority number, and among equal numbers the rule added last first (as
 *              Floodlight v1.2 inserts them); the order is the same on every member of a cluster
 */
record FirewallState(Module module, List<Stored> rules) {
    static final int DEFAULT_SUBNET_MASK = 0xffff_ff00;
    static final FirewallState INITIAL = new FirewallState(new Module(false, DEFAULT_SUBNET_MASK), List.of());

    /** The firewall's settings changed over REST. */
    record Module(boolean enabled, int subnetMask) { }

    /**
     * A rule as stored.
     *
     * @param added when it was added (ms, the cluster's clock): orders rules of equal priority
     */
    record Stored(FirewallRule rule, long added) { }

    private static final Comparator<Stored> ORDER = Comparator.<Stored>comparingInt(k -> k.rule().priority())
            .thenComparing(Comparator.comparingLong(Stored::added).reversed())
            .thenComparingInt(k -> k.rule().id());

    FirewallState {
        var sorted = new ArrayList<>(rules);
        sorted.sort(ORDER);
        rules = List.copyOf(sorted);
    }

    boolean enabled() {
        return module.enabled();
    }

    FirewallState with(Module next) {
        return new FirewallState(next, rules);
    }

    FirewallState with(Stored added) {
        var next = new ArrayList<>(rules);
        next.removeIf(k -> k.rule().id() == added.rule().id());
        next.add(added);
        return new FirewallState(module, next);
    }

    FirewallState without(int id) {
        var next = new ArrayList<>(rules);
        next.removeIf(k -> k.rule().id() == id);
        return new FirewallState(module, next);
    }

    Optional<Stored> get(int id) {
        return rules.stream().filter(k -> k.rule().id() == id).findFirst();
    }

    List<FirewallRule> ruleList() {
        return rules.stream().map(Stored::rule).toList();
    }

    /**
     * Floodlight's decision for a packet with {@code p}'s fields at switch {@code dpid}: an L2 broadcast passes (unless
     * it carries IPv4 to a unicast address of the subnet), anything else is decided by the first matching rule, or
     * dropped.
     */
    Decision decide(long dpid, OFMatch p) {
        if (p.dlDst() == MacAddress.BROADCAST) {
            int host = ~module.subnetMask();
            return new Decision.Broadcast(p.dlType() != FirewallRule.IPV4 || (p.nwDst() & host) == host);
        }
        for (var k : rules) {
            if (k.rule().matches(dpid, p)) {
                return new Decision.ByRule(k.rule());
            }
        }
        return Decision.NoMatch.INSTANCE;
    }
}
