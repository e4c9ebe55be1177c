package net.beaconcontroller.maple.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.action.OFAction;

/**
 * The flows the runtime has written to each switch, as it wrote them (actions as the switch got them): what a
 * switch should hold of Maple's, whether or not it was connected when they were written. Reconciliation judges a
 * switch's flows by it, and a switch that reconnects gets them again. Owned by the runtime's thread.
 */
final class Installed {
    private record Key(OFMatch match, int priority) {
    }

    private final Map<Long, Map<Key, List<OFAction>>> bySwitch = new HashMap<>();

    /** Records what {@code mod} does to switch {@code dpid}'s table. */
    void apply(long dpid, OFFlowMod mod) {
        var key = new Key(mod.match(), mod.priority());
        switch (mod.command()) {
            case ADD, MODIFY_STRICT -> bySwitch.computeIfAbsent(dpid, k -> new HashMap<>()).put(key, mod.actions());
            case DELETE_STRICT -> {
                var table = bySwitch.get(dpid);
                if (table != null) {
                    table.remove(key);
                }
            }
            default -> throw new IllegalArgumentException("the runtime sends no " + mod.command());
        }
    }

    /** Whether switch {@code dpid} should hold a flow of that match and priority, whatever its actions. */
    boolean has(long dpid, OFMatch match, int priority) {
        var table = bySwitch.get(dpid);
        return table != null && table.containsKey(new Key(match, priority));
    }

    /** Whether switch {@code dpid} should hold exactly this flow. */
    boolean has(long dpid, OFMatch match, int priority, List<OFAction> actions) {
        var table = bySwitch.get(dpid);
        return table != null && actions.equals(table.get(new Key(match, priority)));
    }

    /** Every flow switch {@code dpid} should hold, as ADDs carrying {@code cookie}. */
    List<OFFlowMod> adds(long dpid, long cookie) {
        var table = bySwitch.getOrDefault(dpid, Map.of());
        var adds = new ArrayList<OFFlowMod>(table.size());
        table.forEach((k, actions) -> adds.add(FlowMods.add(k.match(), k.priority(), cookie, actions)));
        return adds;
    }

    /** The ADD of the flow switch {@code dpid} should hold at that match and priority, or null. */
    OFFlowMod add(long dpid, OFMatch match, int priority, long cookie) {
        var table = bySwitch.get(dpid);
        var actions = table == null ? null : table.get(new Key(match, priority));
        return actions == null ? null : FlowMods.add(match, priority, cookie, actions);
    }

    /** How many flows each switch should hold. */
    Map<Long, Integer> counts() {
        var counts = new HashMap<Long, Integer>();
        bySwitch.forEach((dpid, table) -> counts.put(dpid, table.size()));
        return counts;
    }
}
