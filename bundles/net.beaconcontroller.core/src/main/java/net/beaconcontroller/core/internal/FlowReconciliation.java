package net.beaconcontroller.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.FlowReconciliationStats;
import net.beaconcontroller.core.IFlowReconciler;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.SwitchDisconnectedException;
import net.beaconcontroller.core.internal.ControllerConfig.Fallback;
import net.beaconcontroller.core.internal.ControllerConfig.PreExistingFlows;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.openflow.statistics.OFFlowStatsReply;
import net.beaconcontroller.openflow.statistics.OFFlowStatsRequest;

/**
 * Reconciles a switch's flow table when this controller becomes the switch's master: reads the table, lets each
 * owner judge its flows ({@link FlowAudit}) and writes the deletes and pushes. The switch is active and forwarding with
 * its flows meanwhile. The flow table request is the switch's I/O thread's; everything after it runs on one
 * reconciliation thread of its own, so a big table never holds up an I/O thread, and switches connecting at once are
 * reconciled one after the other (one table in memory at a time besides the replies in flight).
 */
final class FlowReconciliation {
    private static final Logger log = LoggerFactory.getLogger(FlowReconciliation.class);
    /** Writes between barriers: bounds what one switch has queued, so a big reconciliation never hits the buffer limit. */
    private static final int WRITES_PER_BARRIER = 1000;
    /** Foreign flows logged one by one per switch with {@code REPORT}; the rest only counted. */
    private static final int FOREIGN_LOGGED = 10;

    private final Map<Integer, IFlowReconciler> reconcilers = new ConcurrentHashMap<>();
    /** Replaced whole on every change, so a reader never sees half a reconciliation counted. */
    private final AtomicReference<FlowReconciliationStats> totals = new AtomicReference<>(FlowReconciliationStats.NONE);
    /** Running while the controller's listener runs; {@code null} otherwise. */
    private volatile ExecutorService executor;

    void start() {
        var pool = new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> new Thread(r, "beacon-flow-reconciliation"));
        // The thread exists only while there is work: an idle controller has none.
        pool.allowCoreThreadTimeOut(true);
        executor = pool;
    }

    void stop() {
        var pool = executor;
        executor = null;
        if (pool != null) {
            pool.shutdownNow();
            try {
                if (!pool.awaitTermination(2, TimeUnit.SECONDS)) {
                    log.warn("flow reconciliation still running after its controller stopped");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** @return false when another reconciler already judges that owner's flows (this one is then ignored) */
    boolean add(IFlowReconciler reconciler) {
        var other = reconcilers.putIfAbsent(reconciler.owner().id(), reconciler);
        if (other != null && other != reconciler) {
            log.warn("two flow reconcilers for owner id {}: {} kept, {} ignored", reconciler.owner().id(), other,
                    reconciler);
            return false;
        }
        return true;
    }

    void remove(IFlowReconciler reconciler) {
        reconcilers.remove(reconciler.owner().id(), reconciler);
    }

    FlowReconciliationStats stats() {
        return totals.get();
    }

    /**
     * Starts the reconciliation of {@code sw}, just made active as master, and returns at once. With {@code DELETE}
     * the handshake has wiped the table already, with {@code KEEP} it is not read: owners are then only asked for the
     * flows they miss.
     */
    void reconcile(IOFSwitch sw, ControllerConfig config) {
        var mode = config.preExistingFlows();
        if (mode != PreExistingFlows.RECONCILE) {
            run(() -> finish(sw, List.of(), config, mode == PreExistingFlows.DELETE ? "wiped at connection" : "not read"));
            return;
        }
        long started = System.nanoTime();
        sw.getStatistics(new OFStatsRequest(0, 0, OFFlowStatsRequest.all()),
                Duration.ofSeconds(config.reconcileTimeout())).whenComplete((parts, error) -> {
                    if (error == null) {
                        run(() -> finish(sw, entries(parts), config, "read in "
                                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) + " ms"));
                    } else {
                        run(() -> failed(sw, error, config));
                    }
                });
    }

    private void run(Runnable task) {
        var pool = executor;
        try {
            if (pool == null) {
                throw new RejectedExecutionException("the controller is stopped");
            }
            pool.execute(task);
        } catch (RejectedExecutionException e) {
            log.info("flow reconciliation skipped: the controller is stopping");
        }
    }

    private static List<OFFlowStatsEntry> entries(List<OFStatsReply> parts) {
        var all = new ArrayList<OFFlowStatsEntry>();
        for (var part : parts) {
            if (part.body() instanceof OFFlowStatsReply flows) {
                all.addAll(flows.entries());
            }
        }
        return all;
    }

    private void failed(IOFSwitch sw, Throwable error, ControllerConfig config) {
        var cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof SwitchDisconnectedException) {
            log.info("switch {}: not reconciled, it disconnected first", sw.getStringId());
            return;
        }
        totals.accumulateAndGet(new FlowReconciliationStats(0, 1, 0, 0, 0, 0), FlowReconciliationStats::plus);
        var fallback = config.reconcileFallback();
        log.warn("switch {}: flow table not read for reconciliation ({}): controller.reconcileFallback={}",
                sw.getStringId(), cause instanceof TimeoutException ? "no answer within " + config.reconcileTimeout()
                        + " s" : cause.toString(), fallback);
        if (fallback == Fallback.DELETE) {
            sw.write(OFFlowMod.builder().command(OFFlowMod.Command.DELETE).match(OFMatch.ALL).outPort(OFPort.NONE)
                    .build());
        }
        finish(sw, List.of(), config, fallback == Fallback.DELETE ? "wiped (fallback)" : "kept unread (fallback)");
    }

    /** On the reconciliation thread. */
    private void finish(IOFSwitch sw, List<OFFlowStatsEntry> table, ControllerConfig config, String how) {
        if (!sw.isConnected()) {
            return;
        }
        long started = System.nanoTime();
        var result = FlowAudit.audit(sw, table, reconcilers::get, config.foreignFlows());
        var writes = new ArrayList<OFMessage>(result.deletes().size() + result.pushes().size());
        writes.addAll(result.deletes());
        writes.addAll(result.pushes());
        // Counted when decided, before the writes: whoever sees their effect on the switch sees them counted.
        var t = result.tally();
        totals.accumulateAndGet(new FlowReconciliationStats(1, 0, t.kept(), t.deleted(), t.pushed(), t.foreign()),
                FlowReconciliationStats::plus);
        log.info("switch {}: flows reconciled ({}, judged in {} ms): {} kept ({} wanted, {} unsure), {} deleted,"
                + " {} pushed, {} foreign ({})", sw.getStringId(), how,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), t.kept(), t.wanted(), t.unsure(),
                t.deleted(), t.pushed(), t.foreign(), config.foreignFlows());
        if (config.foreignFlows() == ControllerConfig.ForeignFlows.REPORT) {
            result.foreignFlows().stream().limit(FOREIGN_LOGGED).forEach(f -> log.info(
                    "switch {}: foreign flow kept: cookie=0x{} priority={} {} actions={}", sw.getStringId(),
                    Long.toHexString(f.cookie()), f.priority(), f.match(), f.actions()));
        }
        send(sw, writes, config);
    }

    /**
     * Writes in slices, each followed by a barrier this thread waits for: the switch's I/O thread never holds more
     * than a slice. Stops (logged) when the switch leaves or does not answer a barrier.
     */
    private static void send(IOFSwitch sw, List<OFMessage> writes, ControllerConfig config) {
        for (int from = 0; from < writes.size(); from += WRITES_PER_BARRIER) {
            sw.write(writes.subList(from, Math.min(writes.size(), from + WRITES_PER_BARRIER)));
            sw.flush();
            if (writes.size() <= WRITES_PER_BARRIER) {
                return;
            }
            try {
                sw.barrier(Duration.ofSeconds(config.reconcileTimeout())).get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException e) {
                log.warn("switch {}: reconciliation stopped after {} of {} writes: {}", sw.getStringId(), from,
                        writes.size(), e.getCause().toString());
                return;
            }
        }
    }
}
