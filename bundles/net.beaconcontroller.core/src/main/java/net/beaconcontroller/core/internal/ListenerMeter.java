package net.beaconcontroller.core.internal;

/**
 * The counters of one listener in one pipeline. Each I/O thread counts in its own cells, on its own cache line, with
 * plain increments: no atomic operation and no shared line on the hot path. Readers sum the cells racily, which is
 * what metrics need.
 */
final class ListenerMeter {
    static final int CALLS = 0;
    static final int ERRORS = 1;
    static final int TIMED_CALLS = 2;
    static final int TIMED_NANOS = 3;
    /** 8 longs: one cache line per thread. Slot 0's line starts one stride in, away from the array header. */
    private static final int STRIDE = 8;

    final long[] cells;

    ListenerMeter(int threads) {
        cells = new long[(threads + 1) * STRIDE];
    }

    /** Where the cells of I/O thread {@code slot} begin. */
    static int base(int slot) {
        return (slot + 1) * STRIDE;
    }

    long sum(int field) {
        long total = 0;
        for (int i = STRIDE + field; i < cells.length; i += STRIDE) {
            total += cells[i];
        }
        return total;
    }
}
