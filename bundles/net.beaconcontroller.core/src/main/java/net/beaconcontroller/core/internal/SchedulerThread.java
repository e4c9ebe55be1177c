package net.beaconcontroller.core.internal;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;

import net.beaconcontroller.util.Threads;

/** The one thread that runs every bundle's scheduled tasks; it ends when the core bundle stops. */
@Component(service = SchedulerThread.class)
public final class SchedulerThread {
    final ScheduledThreadPoolExecutor executor;

    public SchedulerThread() {
        executor = new ScheduledThreadPoolExecutor(1, r -> Threads.daemon(r, "beacon-scheduler"));
        // Cancelled tasks leave the queue at once: a bundle that stops must not stay reachable from it.
        executor.setRemoveOnCancelPolicy(true);
    }

    @Deactivate
    void deactivate() throws InterruptedException {
        executor.shutdownNow();
        executor.awaitTermination(2, TimeUnit.SECONDS);
    }
}
