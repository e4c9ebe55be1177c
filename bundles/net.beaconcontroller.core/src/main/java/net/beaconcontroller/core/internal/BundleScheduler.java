package net.beaconcontroller.core.internal;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ServiceScope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.IScheduler;

/**
 * One bundle's {@link IScheduler}: the service is bundle-scoped, so each bundle gets its own instance, and when the
 * bundle releases it (stops) this instance is deactivated and cancels everything it scheduled.
 */
@Component(scope = ServiceScope.BUNDLE)
public final class BundleScheduler implements IScheduler {
    private static final Logger log = LoggerFactory.getLogger(BundleScheduler.class);

    private final SchedulerThread thread;
    private final Set<ScheduledFuture<?>> tasks = new HashSet<>();
    private boolean closed;

    @Activate
    public BundleScheduler(@Reference SchedulerThread thread) {
        this.thread = thread;
    }

    @Override
    public synchronized ScheduledFuture<?> schedule(Runnable task, Duration delay) {
        checkOpen();
        return track(thread.executor.schedule(guarded(task), delay.toNanos(), TimeUnit.NANOSECONDS));
    }

    @Override
    public synchronized ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Duration initialDelay, Duration period) {
        checkOpen();
        return track(thread.executor.scheduleAtFixedRate(guarded(task), initialDelay.toNanos(), period.toNanos(),
                TimeUnit.NANOSECONDS));
    }

    private void checkOpen() {
        if (closed) {
            throw new RejectedExecutionException("the bundle that owns this scheduler has stopped");
        }
    }

    private ScheduledFuture<?> track(ScheduledFuture<?> future) {
        tasks.removeIf(ScheduledFuture::isDone);
        tasks.add(future);
        return future;
    }

    /** A periodic task that throws would never run again: log and carry on instead. */
    private static Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.error("scheduled task {} failed", task, e);
            }
        };
    }

    @Deactivate
    synchronized void deactivate() {
        closed = true;
        tasks.forEach(f -> f.cancel(false));
        tasks.clear();
    }
}
