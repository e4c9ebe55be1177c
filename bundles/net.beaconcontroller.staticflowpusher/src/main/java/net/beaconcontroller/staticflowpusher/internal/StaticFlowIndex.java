package net.beaconcontroller.staticflowpusher.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import net.beaconcontroller.openflow.OFFlowRemoved;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.staticflowpusher.StaticFlow;

/**
 * The active static flows by switch, and within a switch by match and priority, the two fields that name a flow in
 * its table: reconciliation judges each flow of a table and lists the missing ones in time linear in the table and
 * the switch's static flows. An immutable snapshot of the pusher's flows, built again after they change.
 */
final class StaticFlowIndex {
    private record Key(OFMatch match, int priority) {
        /** As the switch keeps it, which is how a flow stats reply gives it. */
        static Key of(StaticFlow f) {
            return new Key(f.match().normalized(), f.priority());
        }

        static Key of(OFFlowStatsEntry f) {
            return new Key(f.match(), f.priority());
        }
    }

    /** By switch: its active flows by name, and the same by key (a file may give two names the same key). */
    private record SwitchFlows(List<StaticFlow> byName, Map<Key, List<StaticFlow>> byKey) {
    }

    private static final SwitchFlows NONE = new SwitchFlows(List.of(), Map.of());

    private final Map<Long, SwitchFlows> bySwitch;

    private StaticFlowIndex(Map<Long, SwitchFlows> bySwitch) {
        this.bySwitch = bySwitch;
    }

    static StaticFlowIndex of(Collection<StaticFlow> flows) {
        var lists = new HashMap<Long, List<StaticFlow>>();
        for (var f : flows) {
            if (f.active()) {
                lists.computeIfAbsent(f.dpid(), d -> new ArrayList<>()).add(f);
            }
        }
        var bySwitch = new HashMap<Long, SwitchFlows>();
        lists.forEach((dpid, list) -> {
            list.sort(Comparator.comparing(StaticFlow::name));
            var byKey = new HashMap<Key, List<StaticFlow>>();
            list.forEach(f -> byKey.computeIfAbsent(Key.of(f), k -> new ArrayList<>(1)).add(f));
            bySwitch.put(dpid, new SwitchFlows(List.copyOf(list), Map.copyOf(byKey)));
        });
        return new StaticFlowIndex(Map.copyOf(bySwitch));
    }

    /** Whether {@code flow}, found on switch {@code dpid}, is exactly one of its active static flows. */
    boolean wants(long dpid, OFFlowStatsEntry flow) {
        var same = bySwitch.getOrDefault(dpid, NONE).byKey().getOrDefault(Key.of(flow), List.of());
        return same.stream().anyMatch(f -> f.isOnSwitchAs(flow));
    }

    /** The active static flow of switch {@code dpid} that a flow removed from it was, if any. */
    Optional<StaticFlow> removed(long dpid, OFFlowRemoved removed) {
        return bySwitch.getOrDefault(dpid, NONE).byKey()
                .getOrDefault(new Key(removed.match(), removed.priority()), List.of()).stream()
                .filter(f -> f.switchCookie() == removed.cookie()).findFirst();
    }

    /** The active static flows of switch {@code dpid}, by name, that are not among {@code present}. */
    List<StaticFlow> missing(long dpid, List<OFFlowStatsEntry> present) {
        var flows = bySwitch.getOrDefault(dpid, NONE).byName();
        if (present.isEmpty()) {
            return flows;
        }
        var found = new HashMap<Key, List<OFFlowStatsEntry>>();
        present.forEach(e -> found.computeIfAbsent(Key.of(e), k -> new ArrayList<>(1)).add(e));
        return flows.stream()
                .filter(f -> found.getOrDefault(Key.of(f), List.of()).stream().noneMatch(f::isOnSwitchAs)).toList();
    }
}
