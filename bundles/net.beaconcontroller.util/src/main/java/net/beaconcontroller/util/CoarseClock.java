package net.beaconcontroller.util;

import java.util.concurrent.TimeUnit;

/**
 * Seconds since an arbitrary origin, read for the price of a volatile load. Per-packet code (MAC aging) needs
 * second resolution only, and reading the system clock for every packet would cost more than the rest of the work.
 */
public final class CoarseClock {
    private static final long ORIGIN = System.nanoTime();
    private static volatile int seconds;

    static {
        var ticker = new Thread(() -> {
            while (true) {
                seconds = (int) TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - ORIGIN);
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "beacon-coarse-clock");
        ticker.setDaemon(true);
        ticker.start();
    }

    private CoarseClock() {
    }

    /** Whole seconds since the clock started, at most 0.1 s behind. */
    public static int seconds() {
        return seconds;
    }
}
