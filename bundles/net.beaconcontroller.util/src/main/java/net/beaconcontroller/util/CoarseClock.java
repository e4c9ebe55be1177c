package net.beaconcontroller.util;

import net.beaconcontroller.util.internal.Ticker;

/**
 * Seconds since an arbitrary origin, read for the price of a volatile load. Per-packet code (MAC aging) needs
 * second resolution only, and reading the system clock for every packet would cost more than the rest of the work.
 *
 * <p>A thread of the util bundle keeps the value current; it runs while the bundle is active (outside OSGi, from the
 * first reading on). When it does not run, each reading asks the system clock, so the value is always right.
 */
public final class CoarseClock {
    private CoarseClock() {
    }

    /** Whole seconds since the clock started, at most 0.1 s behind. */
    public static int seconds() {
        return Ticker.seconds();
    }
}
