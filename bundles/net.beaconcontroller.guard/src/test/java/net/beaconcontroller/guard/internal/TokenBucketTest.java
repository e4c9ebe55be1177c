package net.beaconcontroller.guard.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The bucket's arithmetic on a clock the test moves. */
class TokenBucketTest {
    private static final long MS = 1_000_000;

    /** Tokens taken one after another at {@code now} until the bucket refuses. */
    private static int drain(TokenBucket b, long now) {
        int n = 0;
        while (b.tryTake(now)) {
            n++;
        }
        return n;
    }

    @Test
    void startsFullRefillsAtTheRateAndNeverBeyondTheBurst() {
        long t = 5_000 * MS;
        var b = new TokenBucket(1000, 50, t); // one token a millisecond
        assertEquals(50, b.tokens(t));
        assertEquals(50, drain(b, t));
        assertEquals(0, b.tokens(t));
        assertEquals(0, drain(b, t + MS / 2), "half an interval makes no token");
        assertEquals(1, drain(b, t + MS));
        assertEquals(10, drain(b, t + 11 * MS));
        assertEquals(50, drain(b, t + 10_000 * MS), "a bucket left alone is full, not fuller");
    }

    @Test
    void aSteadySenderGetsTheRateOverTime() {
        var b = new TokenBucket(2000, 4000, 0);
        int passed = 0;
        // 50,000 a second for 10 s: the burst, then 2,000 a second.
        for (long i = 0; i < 500_000; i++) {
            if (b.tryTake(i * 20_000)) {
                passed++;
            }
        }
        assertEquals(4000 + 2000 * 10, passed, 1);
    }

    @Test
    void aTokenGivenBackCanBeTakenAgain() {
        var b = new TokenBucket(10, 2, 0);
        assertEquals(2, drain(b, 0));
        b.giveBack();
        assertTrue(b.tryTake(0));
        assertFalse(b.tryTake(0));
    }

    @Test
    void nanoTimeMayBeNegativeAndWrap() {
        long t = Long.MAX_VALUE - 3 * MS;
        var b = new TokenBucket(1000, 5, t);
        assertEquals(5, drain(b, t));
        assertEquals(5, drain(b, t + 10 * MS), "across the wrap of nanoTime");
        var negative = new TokenBucket(1000, 5, -7 * MS);
        assertEquals(5, drain(negative, -7 * MS));
        assertEquals(2, drain(negative, -5 * MS));
    }

    @Test
    void hugeBudgetsDoNotOverflow() {
        var b = new TokenBucket(1_000_000_000, 1_000_000_000, 0);
        assertEquals(1_000_000_000, b.tokens(0));
        for (int i = 0; i < 1000; i++) {
            assertTrue(b.tryTake(0));
        }
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(0, 1, 0));
    }
}
