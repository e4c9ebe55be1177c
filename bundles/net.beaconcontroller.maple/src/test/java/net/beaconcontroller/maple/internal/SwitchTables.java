package net.beaconcontroller.maple.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.action.OFAction;

/**
 * Simulated OpenFlow 1.0 switches fed only with the compiler's {@link FlowChange}s, as real switches would be:
 * ADD replaces an entry with the same match and priority, MODIFY_STRICT changes its actions, DELETE_STRICT removes
 * it. A lookup takes the highest-priority entry that matches, with the specification's wildcards and CIDR masks,
 * and a field counting only where its prerequisites are in the match (as Open vSwitch keeps a flow); a miss is
 * null (the packet goes to the controller).
 */
final class SwitchTables {
    private record Key(OFMatch match, int priority) {
    }

    private final Map<Long, Map<Key, Rule>> tables = new HashMap<>();

    void apply(List<FlowChange> changes) {
        for (FlowChange c : changes) {
            Rule r = c.rule();
            Map<Key, Rule> t = tables.computeIfAbsent(r.dpid(), k -> new LinkedHashMap<>());
            var key = new Key(r.match(), r.priority());
            switch (c.kind()) {
                case ADD -> t.put(key, r);
                case MODIFY -> assertNotNull(t.put(key, r), "MODIFY of a rule the switch does not have: " + r);
                case DELETE -> assertNotNull(t.remove(key), "DELETE of a rule the switch does not have: " + r);
            }
        }
    }

    /** Every switch's entries, highest priority first, for comparing with the compiler's own view. */
    Map<Long, List<Rule>> snapshot() {
        var all = new TreeMap<Long, List<Rule>>();
        tables.forEach((s, t) -> {
            if (!t.isEmpty()) {
                var rules = new ArrayList<>(t.values());
                rules.sort((a, b) -> Integer.compare(b.priority(), a.priority()));
                all.put(s, rules);
            }
        });
        return all;
    }

    int size(long dpid) {
        return tables.getOrDefault(dpid, Map.of()).size();
    }

    /**
     * What switch {@code dpid} may do with {@code h} arriving on {@code inPort}: the actions of the highest-priority
     * matching entry that does not send it to the controller (null if none), and whether the switch may send it to
     * the controller instead (a table miss, or a controller entry at that priority: OpenFlow leaves the choice
     * between overlapping entries of one priority to the switch). Fails when two entries of that priority with
     * different actions both forward it: a compiler must never leave such a choice.
     */
    Lookup lookup(long dpid, int inPort, Header h) {
        int top = -1;
        List<List<OFAction>> candidates = new ArrayList<>();
        for (Rule r : tables.getOrDefault(dpid, Map.of()).values()) {
            if (!matches(r.match(), inPort, h) || r.priority() < top) {
                continue;
            }
            if (r.priority() > top) {
                top = r.priority();
                candidates.clear();
            }
            candidates.add(r.actions());
        }
        List<OFAction> forward = null;
        boolean controller = candidates.isEmpty();
        for (List<OFAction> actions : candidates) {
            if (actions.equals(Actions.TO_CONTROLLER)) {
                controller = true;
            } else if (forward == null) {
                forward = actions;
            } else if (!forward.equals(actions)) {
                fail("ambiguous at priority " + top + " on " + dpid + " for " + h + ": " + forward + " or "
                        + actions);
            }
        }
        return new Lookup(forward, controller);
    }

    /** See {@link SwitchTables#lookup}. */
    record Lookup(List<OFAction> forward, boolean controller) {
    }

    static boolean matches(OFMatch raw, int inPort, Header h) {
        OFMatch m = raw.normalized();
        return field(m, OFMatch.OFPFW_IN_PORT, m.inPort(), inPort)
                && (m.isWildcarded(OFMatch.OFPFW_DL_SRC) || m.dlSrc() == h.dlSrc())
                && (m.isWildcarded(OFMatch.OFPFW_DL_DST) || m.dlDst() == h.dlDst())
                && field(m, OFMatch.OFPFW_DL_VLAN, m.dlVlan(), h.dlVlan())
                && field(m, OFMatch.OFPFW_DL_VLAN_PCP, m.dlVlanPcp(), h.dlVlanPcp())
                && field(m, OFMatch.OFPFW_DL_TYPE, m.dlType(), h.dlType())
                && field(m, OFMatch.OFPFW_NW_TOS, m.nwTos(), h.nwTos())
                && field(m, OFMatch.OFPFW_NW_PROTO, m.nwProto(), h.nwProto())
                && prefix(m.nwSrc(), m.nwSrcPrefixLength(), h.nwSrc())
                && prefix(m.nwDst(), m.nwDstPrefixLength(), h.nwDst())
                && field(m, OFMatch.OFPFW_TP_SRC, m.tpSrc(), h.tpSrc())
                && field(m, OFMatch.OFPFW_TP_DST, m.tpDst(), h.tpDst());
    }

    private static boolean field(OFMatch m, int flag, int want, int have) {
        return m.isWildcarded(flag) || want == have;
    }

    private static boolean prefix(int want, int length, int have) {
        return length == 0 || (want >>> (32 - length)) == (have >>> (32 - length));
    }

    /** The switches' entries must be exactly what the compiler believes it installed. */
    void assertSameAs(Map<Long, List<Rule>> compiled) {
        assertEquals(asSets(compiled), asSets(snapshot()), "the switches and the compiler disagree");
    }

    private static Map<Long, Set<Rule>> asSets(Map<Long, List<Rule>> t) {
        var m = new TreeMap<Long, Set<Rule>>();
        t.forEach((s, rules) -> {
            if (!rules.isEmpty()) {
                m.put(s, new HashSet<>(rules));
            }
        });
        return m;
    }
}
