package net.beaconcontroller.core.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import net.beaconcontroller.core.IScheduler;

/**
 * A scheduler whose tasks run only when the test says so, on the test's thread (standing in for the scheduler's): every
 * periodic task, then the one-shot tasks scheduled since the last tick, whatever their delay.
 */
public final class ManualScheduler implements IScheduler, AutoCloseable {
    /** Only makes the futures: its tasks are due in a day and do nothing. */
    private final ScheduledExecutorService futures = Executors.newSingleThreadScheduledExecutor();
    private final List<Runnable> periodic = new CopyOnWriteArrayList<>();
    private final List<Runnable> once = new CopyOnWriteArrayList<>();

    @Override
    public ScheduledFuture<?> schedule(Runnable task, Duration delay) {
        once.add(task);
        return futures.schedule(() -> { }, 1, TimeUnit.DAYS);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Duration initialDelay, Duration period) {
        periodic.add(task);
        return futures.schedule(() -> { }, 1, TimeUnit.DAYS);
    }

    /** Runs every periodic task once, then the one-shot tasks due. */
    public void tick() {
        periodic.forEach(Runnable::run);
        var due = List.copyOf(once);
        once.removeAll(due);
        due.forEach(Runnable::run);
    }

    @Override
    public void close() {
        futures.shutdownNow();
    }
}
