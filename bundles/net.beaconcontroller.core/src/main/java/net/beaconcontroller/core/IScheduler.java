package net.beaconcontroller.core;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;

/**
 * Delayed and periodic work for applications (LLDP probes, aging, statistics polling). Each bundle gets its own
 * instance of this service, and the tasks it scheduled are cancelled when the bundle releases it (when it stops), so
 * no timer outlives its application.
 *
 * <p>Tasks run on a shared scheduler thread: keep them short, and hand per-switch work to the switch's I/O thread with
 * {@link IOFSwitch#execute}. A task that throws is logged; a periodic one keeps running.
 */
public interface IScheduler {
    ScheduledFuture<?> schedule(Runnable task, Duration delay);

    /** Runs {@code task} every {@code period}, the first time after {@code initialDelay}. */
    ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Duration initialDelay, Duration period);
}
