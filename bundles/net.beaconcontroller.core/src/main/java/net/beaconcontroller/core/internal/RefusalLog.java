package net.beaconcontroller.core.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Which refused DPID claims are logged: the first one per DPID in each interval. A peer that reconnects in a loop
 * claiming a connected switch's DPID (an impostor, or a bridge pointed at Beacon twice, which Open vSwitch retries)
 * must not flood the log; the next line logged says how many were not. Kept per held DPID only (forgotten when the
 * holder leaves), so an impostor cannot grow it by claiming ever new DPIDs. Thread-safe.
 */
final class RefusalLog {
    static final Duration INTERVAL = Duration.ofSeconds(10);

    /** The interval that began with a logged line, and the refusals since then that were not logged. */
    private record Window(long start, int unlogged) { }

    private final long intervalNanos;
    private final LongSupplier clock;
    private final Map<Long, Window> windows = new ConcurrentHashMap<>();

    RefusalLog(Duration interval, LongSupplier nanoClock) {
        this.intervalNanos = interval.toNanos();
        this.clock = nanoClock;
    }

    /** A claim on {@code dpid} was refused: -1 if it is not to be logged, else the refusals not logged before it. */
    int admit(long dpid) {
        long now = clock.getAsLong();
        int[] logged = {-1};
        windows.compute(dpid, (k, w) -> {
            if (w == null || now - w.start() >= intervalNanos) {
                logged[0] = w == null ? 0 : w.unlogged();
                return new Window(now, 0);
            }
            return new Window(w.start(), w.unlogged() + 1);
        });
        return logged[0];
    }

    /** The holder of {@code dpid} left: forgets it, returning the refusals not logged. */
    int forget(long dpid) {
        var w = windows.remove(dpid);
        return w == null ? 0 : w.unlogged();
    }
}
