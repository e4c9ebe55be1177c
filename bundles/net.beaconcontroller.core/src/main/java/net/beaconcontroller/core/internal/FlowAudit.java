package net.beaconcontroller.core.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.FlowVerdict;
import net.beaconcontroller.core.IFlowReconciler;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.internal.ControllerConfig.ForeignFlows;
import net.beaconcontroller.openflow.OFFlowMod;
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

    /** What one reconciler got wrong on one switch: logged once for the switch, however many flows it hit. */
    private static final class Failure {
        final int owner;
        int flows;
        boolean missing;
        int unusable;
        Throwable first;

        Failure(int owner) {
            this.owner = owner;
        }

        void add(Throwable t) {
            if (first == null) {
                first = t;
            }
        }

        String what() {
            var parts = new ArrayList<String>(3);
            if (flows > 0) {
                parts.add("judging " + flows + " of its flows (kept)");
            }
            if (missing) {
                parts.add("listing the flows it misses (none written)");
            }
            if (unusable > 0) {
                parts.add(unusable + " missing flow(s) that are null (left out)");
            }
            return String.join(", ", parts);
        }
    }

    private final IOFSwitch sw;
    private final IntFunction<IFlowReconciler> reconcilers;
    private final Map<IFlowReconciler, Failure> failures = new LinkedHashMap<>();

    private FlowAudit(IOFSwitch sw, IntFunction<IFlowReconciler> reconcilers) {
        this.sw = sw;
        this.reconcilers = reconcilers;
    }

    /**
     * A reconciler that fails (a bug, or its bundle going away under it) costs only its own flows, which are kept,
     * and is logged once for the switch; the other owners' work goes on.
     *
     * @param table       the switch's flows; empty when it was wiped or could not be read
     * @param reconcilers the running reconciler of an owner id, or {@code null}
     * @throws InterruptedException when the controller stops meanwhile (checked between flows: a big table takes long)
     */
    static Result audit(IOFSwitch sw, List<OFFlowStatsEntry> table, IntFunction<IFlowReconciler> reconcilers,
            ForeignFlows foreignPolicy) throws InterruptedException {
        var audit = new FlowAudit(sw, reconcilers);
        try {
            return audit.run(table, foreignPolicy);
        } finally {
            // Named by its id and itself: a broken reconciler may fail even to say its owner.
            audit.failures.forEach((reconciler, f) -> log.warn("switch {}: flow reconciler {} of owner 0x{} failed {};"
                    + " the other owners' flows are reconciled", sw.getStringId(), reconciler,
                    Integer.toHexString(f.owner), f.what(), f.first));
        }
    }

    private Result run(List<OFFlowStatsEntry> table, ForeignFlows foreignPolicy) throws InterruptedException {
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
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                switch (judge(e.getKey(), reconciler, flow)) {
                    case WANTED -> wanted++;
                    case UNSURE -> unsure++;
                    case STALE -> deletes.add(delete(flow));
                }
            }
        }
        if (foreignPolicy == ForeignFlows.DELETE) {
            foreign.forEach(f -> deletes.add(delete(f)));
        }
        var gone = new HashSet<FlowKey>();
        deletes.forEach(d -> gone.add(FlowKey.of(d)));
        var pushes = new ArrayList<OFFlowMod>();
        for (int id = 1; id <= 0xff; id++) {
            var reconciler = reconcilers.apply(id);
            if (reconciler != null) {
                pushes.addAll(missing(id, reconciler, present(byOwner.getOrDefault(id, List.of()), gone)));
            }
        }
        return new Result(deletes, pushes, new Tally(wanted, unsure, deletes.size(), pushes.size(), foreign.size()),
                foreign);
    }

    private FlowVerdict judge(int owner, IFlowReconciler reconciler, OFFlowStatsEntry flow) {
        if (reconciler == null) {
            return FlowVerdict.UNSURE;
        }
        try {
            var verdict = reconciler.judge(sw, flow);
            return verdict == null ? FlowVerdict.UNSURE : verdict;
        } catch (Throwable t) {
            failed(owner, reconciler, t).flows++;
            return FlowVerdict.UNSURE;
        }
    }

    private List<OFFlowMod> missing(int owner, IFlowReconciler reconciler, List<OFFlowStatsEntry> present) {
        List<OFFlowMod> wanted;
        try {
            wanted = reconciler.missing(sw, present);
        } catch (Throwable t) {
            failed(owner, reconciler, t).missing = true;
            return List.of();
        }
        if (wanted == null) {
            return List.of();
        }
        // One bad entry must not keep the owner's other flows off the switch.
        var usable = new ArrayList<OFFlowMod>(wanted.size());
        for (var mod : wanted) {
            if (mod != null) {
                usable.add(mod);
            } else {
                failures.computeIfAbsent(reconciler, r -> new Failure(owner)).unusable++;
            }
        }
        return usable;
    }

    private Failure failed(int owner, IFlowReconciler reconciler, Throwable t) {
        // The JVM's own trouble (out of memory) is no reconciler's fault: it goes on up. A stack overflow is a bug.
        if (t instanceof VirtualMachineError fatal && !(t instanceof StackOverflowError)) {
            throw fatal;
        }
        var f = failures.computeIfAbsent(reconciler, r -> new Failure(owner));
        f.add(t);
        return f;
    }

    /** The owner's flows minus those being deleted. */
    private static List<OFFlowStatsEntry> present(List<OFFlowStatsEntry> flows, Set<FlowKey> gone) {
        return gone.isEmpty() ? flows : flows.stream().filter(f -> !gone.contains(FlowKey.of(f))).toList();
    }

    /** OpenFlow 1.0 cannot delete by cookie: the dumped match and priority name exactly this flow. */
    static OFFlowMod delete(OFFlowStatsEntry flow) {
        return OFFlowMod.builder().command(OFFlowMod.Command.DELETE_STRICT).match(flow.match())
                .priority(flow.priority()).outPort(OFPort.NONE).build();
    }
}
