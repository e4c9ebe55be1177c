package net.beaconcontroller.acl.internal;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.util.Threads;

/**
 * The one thread that changes the ACL's static flows, so two changes never interleave: on request, and every
 * {@code recheckSeconds}. Requests from a switch's I/O thread ({@link #runSoon}) only queue a run; a REST change
 * ({@link #runNow}) waits for its run, so that its answer means the flows are changed. Stopped by {@link #close}.
 */
final class EnforcerThread implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EnforcerThread.class);
    /** The static flow pusher writes its file per flow: a run with many hosts can take a while. */
    private static final long WAIT_SECONDS = 5;

    private final Runnable task;
    private final ScheduledExecutorService executor;
    private final AtomicBoolean queued = new AtomicBoolean();

    EnforcerThread(Runnable task, int recheckSeconds) {
        this.task = task;
        executor = Executors.newSingleThreadScheduledExecutor(r -> Threads.daemon(r, "acl-enforcer"));
        executor.scheduleWithFixedDelay(this::runLogged, 0, recheckSeconds, TimeUnit.SECONDS);
    }

    /** Runs it and waits (a bounded while) for it to finish. */
    void runNow() {
        try {
            executor.submit(this::runLogged).get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            log.warn("ACL: the flows are still being changed after {} s; the change goes on in the background",
                    WAIT_SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | RejectedExecutionException e) {
            // runLogged lets nothing escape; rejected means closing, and the flows stay as they were by design
            log.warn("ACL: the flows were not changed ({})", e.toString());
        }
    }

    /** Queues a run unless one is queued already; never blocks. */
    void runSoon() {
        if (!queued.compareAndSet(false, true)) {
            return;
        }
        try {
            executor.execute(() -> {
                queued.set(false);
                runLogged();
            });
        } catch (RejectedExecutionException e) {
            // A host event while the ACL stops: the flows stay as they are until it runs again, by design.
            log.debug("ACL stopping: host change not enforced now ({})", e.toString());
        }
    }

    /** A failed run is logged and the next one tries again: an exception must not end the periodic check. */
    private void runLogged() {
        try {
            task.run();
        } catch (RuntimeException e) {
            log.error("ACL: could not bring the static flows in line with the rules", e);
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS)) {
                log.warn("ACL: the enforcer thread did not stop within {} s", WAIT_SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
