package net.beaconcontroller.core.internal;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/** A bundle's scheduler: tasks run, survive their own failures, and stop when the bundle releases the service. */
class BundleSchedulerTest {
    @Test
    void periodicTasksRunUntilTheBundleReleasesTheServiceAndFailuresDoNotStopThem() throws Exception {
        var thread = new SchedulerThread();
        try {
            var scheduler = new BundleScheduler(thread);
            var runs = new AtomicInteger();
            var threeRuns = new CountDownLatch(3);
            var periodic = scheduler.scheduleAtFixedRate(() -> {
                runs.incrementAndGet();
                threeRuns.countDown();
                throw new IllegalStateException("a failing run must not end the task");
            }, Duration.ZERO, Duration.ofMillis(10));
            assertTrue(threeRuns.await(5, TimeUnit.SECONDS));
            var delayed = scheduler.schedule(() -> runs.addAndGet(1000), Duration.ofHours(1));

            scheduler.deactivate();
            assertTrue(periodic.isCancelled());
            assertTrue(delayed.isCancelled());
            assertTrue(thread.executor.getQueue().isEmpty(), "cancelled tasks leave the queue: nothing keeps the bundle");
            assertThrows(RejectedExecutionException.class, () -> scheduler.schedule(() -> runs.addAndGet(1000),
                    Duration.ZERO), "a stopped bundle schedules nothing");
            assertTrue(runs.get() < 1000);
        } finally {
            thread.deactivate();
        }
        assertTrue(thread.executor.isTerminated(), "the scheduler thread ends with the core bundle");
    }
}
