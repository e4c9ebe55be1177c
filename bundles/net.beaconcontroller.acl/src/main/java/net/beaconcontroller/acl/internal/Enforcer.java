package net.beaconcontroller.acl.internal;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.LongPredicate;
import java.util.stream.Collectors;

import net.beaconcontroller.acl.AclRule;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.staticflowpusher.IStaticFlowPusher;
import net.beaconcontroller.staticflowpusher.StaticFlow;
import net.beaconcontroller.util.Dpids;

/**
 * Floodlight's enforcement of ACL rules as static flows, computed from the rules and the hosts and brought about by
 * adding and removing only the difference, so that it can run as often as anything changes.
 *
 * <p>A DENY rule is a drop flow on each switch where a host inside its source prefix (without one: its destination
 * prefix) is attached. An ALLOW rule is a flow to the controller, above a later DENY rule that covers it, on that
 * rule's switches: the exception reaches routing as if there were no ACL. Earlier rules win: the flow of rule
 * {@code id} has priority {@code base - id}.
 *
 * <p>In OpenFlow 1.0 an exact-match flow (routing's, by default) beats every wildcarded one whatever the priorities,
 * so before a drop flow goes to its switch the flows it covers there are deleted (a non-strict delete by its match):
 * traffic already flowing under such flows is stopped at once, and its next packet meets the drop flow.
 */
final class Enforcer {
    /** Floodlight's names: {@code ACLRule_<id>_<dpid>}. */
    static final String PREFIX = "ACLRule_";
    private static final int MAX_LEN = 0xffff;

    private Enforcer() {
    }

    /** What was changed in the static flows. */
    record Applied(int added, int removed) { }

    static String name(int id, long dpid) {
        return PREFIX + id + "_" + Dpids.toString(dpid);
    }

    /** The rule id in an ACL flow's name; -1 for a name the ACL does not write. */
    static int ruleId(String name) {
        if (!name.startsWith(PREFIX)) {
            return -1;
        }
        int end = name.indexOf('_', PREFIX.length());
        try {
            return end < 0 ? -1 : Integer.parseInt(name.substring(PREFIX.length(), end));
        } catch (NumberFormatException e) {
            return -1; // an operator's own static flow that happens to start so: not the ACL's
        }
    }

    /**
     * The ACL's static flows, by name, on the switches {@code here} accepts.
     *
     * @param rules by ascending id
     */
    static Map<String, StaticFlow> wanted(List<AclRule> rules, Collection<Device> hosts, LongPredicate here,
            int basePriority) {
        var flows = new HashMap<String, StaticFlow>();
        for (int i = 0; i < rules.size(); i++) {
            var deny = rules.get(i);
            if (deny.action() != AclRule.Action.DENY) {
                continue;
            }
            for (long dpid : switchesOf(deny, hosts)) {
                if (!here.test(dpid)) {
                    continue;
                }
                flows.put(name(deny.id(), dpid), flow(deny, dpid, List.of(), basePriority));
                for (var allow : rules.subList(0, i)) {
                    if (allow.action() == AclRule.Action.ALLOW && deny.covers(allow)) {
                        flows.put(name(allow.id(), dpid), flow(allow, dpid,
                                List.of(OFActionOutput.toController(MAX_LEN)), basePriority));
                    }
                }
            }
        }
        return flows;
    }

    /** The switches of the hosts the rule is about: those inside its source, or without one its destination. */
    static Set<Long> switchesOf(AclRule rule, Collection<Device> hosts) {
        var prefix = rule.nwSrc() != null ? rule.nwSrc() : rule.nwDst();
        return hosts.stream().filter(h -> h.ipv4().stream().anyMatch(prefix::matches))
                .map(h -> h.attachment().dpid()).collect(Collectors.toCollection(TreeSet::new));
    }

    static StaticFlow flow(AclRule rule, long dpid, List<OFAction> actions, int basePriority) {
        var m = OFMatch.builder().dlType(0x0800);
        if (rule.nwSrc() != null) {
            m.nwSrc(rule.nwSrc().address(), rule.nwSrc().bits());
        }
        if (rule.nwDst() != null) {
            m.nwDst(rule.nwDst().address(), rule.nwDst().bits());
        }
        if (rule.nwProto() != 0) {
            m.nwProto(rule.nwProto());
        }
        if (rule.tpDst() != 0) {
            m.tpDst(rule.tpDst());
        }
        return new StaticFlow(name(rule.id(), dpid), dpid, m.build(), actions, Math.max(1, basePriority - rule.id()),
                rule.id(), 0, 0, true);
    }

    /**
     * Makes the ACL's static flows {@code wanted}: adds what is missing or different, removes what is not wanted on
     * the switches {@code here} accepts, and everywhere the flows of rules that are gone ({@code ruleIds} are those
     * that exist). Flows on other switches are left to the member that masters them, which sees the same rules.
     *
     * @param deleteCovered deletes, on its switch, the flows a drop flow about to be added covers
     */
    static Applied apply(IStaticFlowPusher pusher, Map<String, StaticFlow> wanted, Set<Integer> ruleIds,
            LongPredicate here, Consumer<StaticFlow> deleteCovered) {
        var current = new HashMap<String, StaticFlow>();
        int removed = 0;
        for (var f : pusher.getFlows()) {
            int id = ruleId(f.name());
            if (id < 0) {
                continue;
            }
            if (!wanted.containsKey(f.name()) && (!ruleIds.contains(id) || here.test(f.dpid()))) {
                pusher.remove(f.name());
                removed++;
            } else {
                current.put(f.name(), f);
            }
        }
        int added = 0;
        for (var f : wanted.values()) {
            if (!same(f, current.get(f.name()))) {
                if (f.actions().isEmpty()) {
                    deleteCovered.accept(f);
                }
                pusher.add(f);
                added++;
            }
        }
        return new Applied(added, removed);
    }

    /** Equal as flows: a match read back from the static flows' file may spell the same wildcards otherwise. */
    static boolean same(StaticFlow a, StaticFlow b) {
        return b != null && a.dpid() == b.dpid() && a.match().normalized().equals(b.match().normalized())
                && a.actions().equals(b.actions()) && a.priority() == b.priority() && a.cookie() == b.cookie()
                && a.idleTimeout() == b.idleTimeout() && a.hardTimeout() == b.hardTimeout() && a.active() == b.active();
    }
}
