package net.beaconcontroller.core.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.FlowVerdict;
import net.beaconcontroller.core.IFlowReconciler;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.internal.ControllerConfig.ForeignFlows;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;

/**
 * Judges one switch's flow table: each Beacon flow by its owner, the others by the foreign-flow policy. Sends nothing;
 * the caller writes what it returns.
 */
final class FlowAudit {
    private static final Logger log = LoggerFactory.getLogger(FlowAudit.class);

    /**
     * What an audit found and decided.
     *
     * @param deletes the strict deletes of the stale (and, by policy, foreign) flows
     * @param pushes  the flows owners want and the switch lacks
     * @param foreignFlows the flows without a Beacon cookie
     */
    record Result(List<OFFlowMod> deletes, List<OFFlowMod> pushes, Tally tally, List<OFFlowStatsEntry> foreignFlows) {
    }

    /**
     * Counts of one audit.
     *
     * @param wanted  Beacon flows their owner still wants
     * @param unsure  Beacon flows their owner cannot judge yet, or whose owner is not running: kept
     * @param deleted flows deleted
     * @param pushed  flows written
     * @param foreign flows without a Beacon cookie, whatever became of them
     */
    record Tally(long wanted, long unsure, long deleted, long pushed, long foreign) {
        long kept() {
            return wanted + unsure;
        }
    }

    private FlowAudit() {
    }

    /**
     * @param table       the switch's flows; empty when it was wiped or could not be read
     * @param reconcilers the running reconciler of an owner id, or {@code null}
     */
    static Result audit(IOFSwitch sw, List<OFFlowStatsEntry> table, IntFunction<IFlowReconciler> reconcilers,
            ForeignFlows foreignPolicy) {
        var byOwner = new HashMap<Integer, List<OFFlowStatsEntry>>();
        var foreign = new ArrayList<OFFlowStatsEntry>();
        for (var flow : table) {
            int id = FlowOwner.ownerId(flow.cookie());
            if (id < 0) {
                foreign.add(flow);
            } else {
                byOwner.computeIfAbsent(id, k -> new ArrayList<>()).add(flow);
            }
        }
        var deletes = new ArrayList<OFFlowMod>();
        long wanted = 0;
        long unsure = 0;
        for (Map.Entry<Integer, List<OFFlowStatsEntry>> e : byOwner.entrySet()) {
            var reconciler = reconcilers.apply(e.getKey());
            for (var flow : e.getValue()) {
                switch (judge(reconciler, sw, flow)) {
                    case WANTED -> wanted++;
                    case UNSURE -> unsure++;
                    case STALE -> deletes.add(delete(flow));
                }
            }
        }
        if (foreignPolicy == ForeignFlows.DELETE) {
            foreign.forEach(f -> deletes.add(delete(f)));
        }
        var pushes = new ArrayList<OFFlowMod>();
        for (int id = 1; id <= 0xff; id++) {
            var reconciler = reconcilers.apply(id);
            if (reconciler != null) {
                pushes.addAll(missing(reconciler, sw, present(byOwner.getOrDefault(id, List.of()), deletes)));
            }
        }
        return new Result(deletes, pushes, new Tally(wanted, unsure, deletes.size(), pushes.size(), foreign.size()),
                foreign);
    }

    /** A reconciler that fails keeps its flows: deleting what nobody judged would hit forwarding traffic. */
    private static FlowVerdict judge(IFlowReconciler reconciler, IOFSwitch sw, OFFlowStatsEntry flow) {
        if (reconciler == null) {
            return FlowVerdict.UNSURE;
        }
        try {
            var verdict = reconciler.judge(sw, flow);
            return verdict == null ? FlowVerdict.UNSURE : verdict;
        } catch (RuntimeException e) {
            log.warn("switch {}: reconciler of {} failed on a flow, kept: {}", sw.getStringId(), reconciler.owner().name(),
                    flow.match(), e);
            return FlowVerdict.UNSURE;
        }
    }

    private static List<OFFlowMod> missing(IFlowReconciler reconciler, IOFSwitch sw, List<OFFlowStatsEntry> present) {
        try {
            return reconciler.missing(sw, present);
        } catch (RuntimeException e) {
            log.warn("switch {}: reconciler of {} failed to list its missing flows", sw.getStringId(),
                    reconciler.owner().name(), e);
            return List.of();
        }
    }

    /** The owner's flows minus those being deleted. */
    private static List<OFFlowStatsEntry> present(List<OFFlowStatsEntry> flows, List<OFFlowMod> deletes) {
        if (deletes.isEmpty()) {
            return flows;
        }
        var gone = new HashSet<Key>();
        deletes.forEach(d -> gone.add(new Key(d.match(), d.priority())));
        return flows.stream().filter(f -> !gone.contains(new Key(f.match(), f.priority()))).toList();
    }

    /** What names one flow in a table: no two flows share it. */
    private record Key(OFMatch match, int priority) {
    }

    /** OpenFlow 1.0 cannot delete by cookie: the dumped match and priority name exactly this flow. */
    static OFFlowMod delete(OFFlowStatsEntry flow) {
        return OFFlowMod.builder().command(OFFlowMod.Command.DELETE_STRICT).match(flow.match())
                .priority(flow.priority()).outPort(OFPort.NONE).build();
    }
}
