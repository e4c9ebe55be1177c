package net.beaconcontroller.acl.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

import net.beaconcontroller.acl.AclRule;
import net.beaconcontroller.openflow.OFMatch;

/**
 * The rules as one immutable value, so the enforcer reads a whole snapshot, never half a change.
 *
 * @param rules  by ascending id
 * @param nextId the id the next rule gets: ids are not reused until a clear (as Floodlight's counter)
 */
record AclState(List<AclRule> rules, int nextId) {
    static final AclState EMPTY = new AclState(List.of(), 1);
    private static final int IPV4 = 0x0800;

    AclState {
        var byId = new TreeMap<Integer, AclRule>();
        for (var r : rules) {
            byId.put(r.id(), r);
        }
        rules = List.copyOf(byId.values());
        nextId = Math.max(nextId, byId.isEmpty() ? 1 : byId.lastKey() + 1);
    }

    Optional<AclRule> get(int id) {
        return rules.stream().filter(r -> r.id() == id).findFirst();
    }

    /** The earlier rule that already matches everything {@code rule} would, if any. */
    Optional<AclRule> covering(AclRule rule) {
        return rules.stream().filter(r -> r.covers(rule)).findFirst();
    }

    /** Whether the first rule (by id) that matches the packet is a DENY. */
    boolean denies(OFMatch packet) {
        if (rules.isEmpty() || packet.dlType() != IPV4) {
            return false;
        }
        for (var r : rules) {
            if (r.matches(packet.nwSrc(), packet.nwDst(), packet.nwProto(), packet.tpDst())) {
                return r.action() == AclRule.Action.DENY;
            }
        }
        return false;
    }

    AclState with(AclRule rule) {
        var next = new ArrayList<>(rules);
        next.removeIf(r -> r.id() == rule.id());
        next.add(rule);
        return new AclState(next, nextId);
    }

    AclState without(int id) {
        return new AclState(rules.stream().filter(r -> r.id() != id).toList(), nextId);
    }
}
