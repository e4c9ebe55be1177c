package net.beaconcontroller.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.FlowReconciliationStats;
import net.beaconcontroller.core.IFlowReconciler;
import net.beaconcontroller.core.SwitchDisconnectedException;
import net.beaconcontroller.core.internal.ControllerConfig.Fallback;
import net.beaconcontroller.core.internal.ControllerConfig.ForeignFlows;
import net.beaconcontroller.core.internal.ControllerConfig.PreExistingFlows;
import net.beaconcontroller.core.internal.RequestTracker.TableTooLargeException;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.openflow.statistics.OFFlowStatsReply;

/**
 * One switch's reconciliation under the mastership it started with: the flow table read, then, on the reconciliation
 * thread, the judging ({@link FlowAudit}) or the fallback, and the writes. Every write goes straight to the switch
 * only while this controller still holds it under that mastership: a member demoted meanwhile stops, so its decisions,
 * made from a table that is no longer its to judge, never reach the switch through the new master.
 */
final class SwitchReconciliation {
    private static final Logger log = LoggerFactory.getLogger(SwitchReconciliation.class);
    /** Writes between barriers: bounds what one switch has queued, so a big reconciliation never hits the buffer limit. */
    private static final int WRITES_PER_BARRIER = 1000;
    /** Foreign flows logged one by one per switch with {@code REPORT}; the rest only counted. */
    private static final int FOREIGN_LOGGED = 10;

    final SwitchConnection sw;
    final Mastership mastership;
    private final ControllerConfig config;
    private long readStarted;

    /** On the switch's I/O thread, which knows the mastership. */
    SwitchReconciliation(SwitchConnection sw, ControllerConfig config) {
        this.sw = sw;
        this.mastership = sw.reconciliation().mastership();
        this.config = config;
    }

    ControllerConfig config() {
        return config;
    }

    /**
     * Requests the flow table; without {@code RECONCILE} there is none to read (the handshake wiped it, or it is kept
     * unread) and the owners are only asked what they miss.
     */
    CompletableFuture<List<OFStatsReply>> read() {
        if (config.preExistingFlows() != PreExistingFlows.RECONCILE) {
            return CompletableFuture.completedFuture(null);
        }
        readStarted = System.nanoTime();
        return sw.reconciliation().readFlowTable(mastership, Duration.ofSeconds(config.reconcileTimeout()), config.reconcileMaxFlows());
    }

    /**
     * Judges and writes, on the reconciliation thread.
     *
     * @param parts the flow table's reply parts; {@code null} when not read
     * @param error why the table could not be read, or {@code null}
     * @return what it did, {@link FlowReconciliationStats#NONE} when it stopped
     */
    FlowReconciliationStats finish(List<OFStatsReply> parts, Throwable error,
            IntFunction<IFlowReconciler> reconcilers) throws InterruptedException {
        var cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof SwitchDisconnectedException || cause instanceof MastershipLostException
                || !sw.reconciliation().holds(mastership)) {
            stopped(cause != null ? cause : notHeld());
            return FlowReconciliationStats.NONE;
        }
        var writes = new ArrayList<OFMessage>();
        String how;
        if (cause != null) {
            how = fallback(cause, writes);
        } else if (parts == null) {
            how = config.preExistingFlows() == PreExistingFlows.DELETE ? "wiped at connection" : "not read";
        } else {
            how = "read in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - readStarted) + " ms";
        }
        long judging = System.nanoTime();
        var result = FlowAudit.audit(sw, cause == null ? entries(parts) : List.of(), reconcilers, config.foreignFlows());
        long judged = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - judging);
        writes.addAll(result.deletes());
        writes.addAll(result.pushes());
        int leftOut;
        try {
            leftOut = send(writes);
        } catch (ExecutionException | TimeoutException e) {
            stopped(e instanceof ExecutionException ? e.getCause() : e);
            return FlowReconciliationStats.NONE;
        }
        var t = result.tally();
        log.info("switch {}: flows reconciled ({}, judged in {} ms): {} kept ({} wanted, {} unsure), {} deleted,"
                + " {} pushed, {} foreign ({}){}", sw.getStringId(), how, judged, t.kept(), t.wanted(), t.unsure(),
                t.deleted() - leftOut, t.pushed(), t.foreign(), config.foreignFlows(), leftOut == 0 ? ""
                        : "; " + leftOut + " stale flow(s) left: written again since the table was read");
        if (config.foreignFlows() == ForeignFlows.REPORT) {
            result.foreignFlows().stream().limit(FOREIGN_LOGGED).forEach(f -> log.info(
                    "switch {}: foreign flow kept: cookie=0x{} priority={} {} actions={}", sw.getStringId(),
                    Long.toHexString(f.cookie()), f.priority(), f.match(), f.actions()));
        }
        return new FlowReconciliationStats(1, cause instanceof TableTooLargeException || cause == null ? 0 : 1,
                t.kept(), t.deleted() - leftOut, t.pushed(), t.foreign(), cause instanceof TableTooLargeException ? 1 : 0);
    }

    /** The table could not be read: says why, adds the wipe if that is the fallback, and says how the table went. */
    private String fallback(Throwable cause, List<OFMessage> writes) {
        var fallback = config.reconcileFallback();
        String why;
        if (cause instanceof TimeoutException) {
            why = "no answer for " + config.reconcileTimeout() + " s";
        } else if (cause instanceof TableTooLargeException) {
            why = cause.getMessage() + ", controller.reconcileMaxFlows=" + config.reconcileMaxFlows();
        } else {
            why = cause.toString();
        }
        log.warn("switch {}: flow table not read for reconciliation ({}): controller.reconcileFallback={}",
                sw.getStringId(), why, fallback);
        if (fallback == Fallback.DELETE) {
            writes.add(OFFlowMod.builder().command(OFFlowMod.Command.DELETE).match(OFMatch.ALL).outPort(OFPort.NONE)
                    .build());
            return "wiped (fallback)";
        }
        return "kept unread (fallback)";
    }

    private static List<OFFlowStatsEntry> entries(List<OFStatsReply> parts) {
        if (parts == null) {
            return List.of();
        }
        var all = new ArrayList<OFFlowStatsEntry>();
        for (var part : parts) {
            if (part.body() instanceof OFFlowStatsReply flows) {
                all.addAll(flows.entries());
            }
        }
        return all;
    }

    /**
     * Writes in slices, each followed by a barrier this thread waits for: the switch's I/O thread never holds more
     * than a slice.
     *
     * @return the strict deletes left out because their flow was written again since the table was read
     * @throws ExecutionException when this controller no longer holds the switch, or the switch left
     * @throws TimeoutException   when the switch does not answer a barrier
     */
    private int send(List<OFMessage> writes) throws InterruptedException, ExecutionException, TimeoutException {
        var timeout = Duration.ofSeconds(config.reconcileTimeout());
        var gate = sw.reconciliation();
        int leftOut = 0;
        for (int from = 0; from < writes.size(); from += WRITES_PER_BARRIER) {
            int to = Math.min(writes.size(), from + WRITES_PER_BARRIER);
            leftOut += gate.writeReconciled(mastership, writes.subList(from, to)).get(timeout.toSeconds(), TimeUnit.SECONDS);
            if (to < writes.size()) {
                sw.barrier(timeout).get();
            }
        }
        return leftOut;
    }

    private void stopped(Throwable cause) {
        if (cause instanceof SwitchDisconnectedException) {
            log.info("switch {}: not reconciled, it disconnected first", sw.getStringId());
        } else if (cause instanceof MastershipLostException) {
            log.info("switch {}: flow reconciliation stopped, nothing more written: {}", sw.getStringId(),
                    cause.getMessage());
        } else {
            log.warn("switch {}: flow reconciliation stopped, nothing more written: {}", sw.getStringId(),
                    cause.toString());
        }
    }

    private RuntimeException notHeld() {
        return sw.isConnected() ? new MastershipLostException(mastership.role(), sw.getRole())
                : new SwitchDisconnectedException("switch " + sw.getStringId() + " disconnected");
    }
}
