package net.beaconcontroller.core.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.util.Threads;
import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.FlowReconciliationStats;
import net.beaconcontroller.core.IFlowReconciler;
import net.beaconcontroller.openflow.OFStatsReply;

/**
 * Reconciles a switch's flow table when this controller becomes the switch's master ({@link SwitchReconciliation}).
 * The switch is active and forwarding with its flows meanwhile. The flow table request and its replies are the
 * switch's I/O thread's; everything after them runs on one reconciliation thread of the core, so a big table never
 * holds up an I/O thread. At most {@code controller.reconcileInFlight} switches are between their table request and
 * their last write at a time; the others wait, in the order they came, so a storm of reconnecting switches holds a
 * bounded number of tables in memory.
 */
final class FlowReconciliation {
    private static final Logger log = LoggerFactory.getLogger(FlowReconciliation.class);

    private final Map<Integer, IFlowReconciler> reconcilers = new ConcurrentHashMap<>();
    /** Replaced whole on every change, so a reader never sees half a reconciliation counted. */
    private final AtomicReference<FlowReconciliationStats> totals = new AtomicReference<>(FlowReconciliationStats.NONE);
    /** Running while the controller's listener runs; {@code null} otherwise. */
    private volatile Coordinator coordinator;

    /**
     * The reconciliation thread and what it alone touches: the switches in flight and those waiting their turn. One
     * per start of the controller, so a restart begins with none of the last run's.
     */
    private final class Coordinator {
        final ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> Threads.named(r, "beacon-flow-reconciliation"));
        /** By connection: a newer reconciliation of a switch (a new mastership) replaces the one still waiting. */
        final Map<SwitchConnection, SwitchReconciliation> waiting = new LinkedHashMap<>();
        int inFlight;
        /** Reconciliations over, finished or not: for tests, which wait for an outcome that writes nothing. */
        volatile long ended;

        Coordinator() {
            // The thread exists only while there is work: an idle controller has none.
            executor.allowCoreThreadTimeOut(true);
        }

        void post(Runnable task) {
            try {
                executor.execute(task);
            } catch (RejectedExecutionException e) {
                log.info("flow reconciliation skipped: the controller is stopping");
            }
        }

        void admit(SwitchReconciliation job, int limit) {
            if (waiting.containsKey(job.sw)) {
                waiting.put(job.sw, job); // a newer mastership of a waiting switch, in its place
            } else if (inFlight < limit) {
                begin(job);
            } else {
                if (waiting.isEmpty()) {
                    // Once per storm, not once per switch: a thousand switches reconnecting would be a thousand lines.
                    log.info("flow reconciliation: {} switches in flight (controller.reconcileInFlight), the next ones"
                            + " wait their turn", inFlight);
                }
                waiting.put(job.sw, job);
            }
        }

        private void begin(SwitchReconciliation job) {
            inFlight++;
            job.read().whenComplete((parts, error) -> post(() -> finish(job, parts, error)));
        }

        private void finish(SwitchReconciliation job, List<OFStatsReply> parts, Throwable error) {
            try {
                count(job.finish(parts, error, reconcilers::get));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                log.info("switch {}: flow reconciliation stopped: the controller is stopping", job.sw.getStringId());
            } catch (RuntimeException | LinkageError | AssertionError e) {
                // Whatever went wrong with this switch, the next ones are reconciled.
                log.warn("switch {}: flow reconciliation failed", job.sw.getStringId(), e);
            } finally {
                inFlight--;
                ended++;
                job.sw.reconciliation().end(job.mastership);
                next(job.config().reconcileInFlight());
            }
        }

        private void next(int limit) {
            var it = waiting.values().iterator();
            while (inFlight < limit && it.hasNext() && !Thread.currentThread().isInterrupted()) {
                var job = it.next();
                it.remove();
                begin(job);
            }
        }

        void stop() {
            executor.shutdownNow();
            try {
                if (!executor.awaitTermination(2, TimeUnit.SECONDS)) {
                    log.warn("flow reconciliation still running after its controller stopped");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    void start() {
        coordinator = new Coordinator();
    }

    void stop() {
        var c = coordinator;
        coordinator = null;
        if (c != null) {
            c.stop();
        }
    }

    /**
     * @return false when another reconciler already judges that owner's flows, or the owner id is reserved (this one
     *         is then ignored)
     */
    boolean add(IFlowReconciler reconciler) {
        int id = reconciler.owner().id();
        if (id == FlowOwner.CLUSTER.id()) {
            log.error("flow reconciler {} ignored: owner id 0x{} is reserved for the cluster's marker flows",
                    reconciler, Integer.toHexString(id));
            return false;
        }
        var other = reconcilers.putIfAbsent(id, reconciler);
        if (other != null && other != reconciler) {
            log.warn("two flow reconcilers for owner id {}: {} kept, {} ignored", id, other, reconciler);
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

    /** Reconciliations over since the controller started, whether they finished, stopped or failed. */
    long ended() {
        var c = coordinator;
        return c == null ? 0 : c.ended;
    }

    private void count(FlowReconciliationStats done) {
        totals.accumulateAndGet(done, FlowReconciliationStats::plus);
    }

    /**
     * Starts the reconciliation of {@code sw}, just made active as master or made master, and returns at once. On the
     * switch's I/O thread, which knows the role it is reconciled under.
     */
    void reconcile(SwitchConnection sw, ControllerConfig config) {
        var c = coordinator;
        if (c == null) {
            log.info("switch {}: flow reconciliation skipped: the controller is stopping", sw.getStringId());
            return;
        }
        var job = new SwitchReconciliation(sw, config);
        c.post(() -> c.admit(job, config.reconcileInFlight()));
    }
}
