package net.beaconcontroller.guard.internal;

/**
 * A token bucket of {@code burst} tokens refilled at {@code rate} per second, kept as one number: the time at which
 * the bucket is full again (the "theoretical arrival time" of GCRA, the same arithmetic). Taking a token pushes that
 * time one interval ({@code 1 s / rate}) later; a token is there while it lies less than {@code burst} intervals
 * ahead of now. So a refill costs nothing, and a bucket that nobody touched for long is simply full.
 *
 * <p>Times are {@link System#nanoTime} values, compared by difference (they may be negative and wrap). Confined to the
 * switch's I/O thread, like everything of one switch in the guard.
 */
final class TokenBucket {
    /** Far beyond any real bucket, small enough that {@code now + DEPTH_LIMIT} cannot overflow into a wrong compare. */
    private static final long DEPTH_LIMIT = Long.MAX_VALUE / 4;

    private final long interval;
    private final long depth;
    private long fullAt;

    /** Full at {@code now}. A rate above 1e9/s is taken as 1e9/s: one token per nanosecond. */
    TokenBucket(long ratePerSecond, long burst, long now) {
        if (ratePerSecond < 1 || burst < 1) {
            throw new IllegalArgumentException("rate and burst are at least 1, not " + ratePerSecond + "/" + burst);
        }
        interval = Math.max(1, 1_000_000_000L / ratePerSecond);
        depth = burst > DEPTH_LIMIT / interval ? DEPTH_LIMIT : burst * interval;
        fullAt = now;
    }

    /** Takes a token if there is one. */
    boolean tryTake(long now) {
        long from = fullAt - now > 0 ? fullAt : now;
        long next = from + interval;
        if (next - now > depth) {
            return false;
        }
        fullAt = next;
        return true;
    }

    /** Puts back the token just taken (the packet was dropped for another reason). */
    void giveBack() {
        fullAt -= interval;
    }

    /** Whole tokens in the bucket now. */
    long tokens(long now) {
        long owed = Math.max(0, fullAt - now);
        return (depth - owed) / interval;
    }
}
