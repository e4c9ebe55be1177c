package net.beaconcontroller.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** Refused claims on a clock moved by hand: one line per DPID and interval, the next one counting the rest. */
class RefusalLogTest {
    private static final long S = TimeUnit.SECONDS.toNanos(1);

    @Test
    void oneLinePerDpidAndIntervalAndTheNextOneCountsWhatWasNotLogged() {
        var clock = new AtomicLong(1_000 * S);
        var refusals = new RefusalLog(Duration.ofSeconds(10), clock::get);

        assertEquals(0, refusals.admit(1), "the first refusal is logged");
        assertEquals(0, refusals.admit(2), "another DPID has its own interval");
        clock.addAndGet(9 * S);
        assertEquals(-1, refusals.admit(1));
        assertEquals(-1, refusals.admit(1));
        clock.addAndGet(S);
        assertEquals(2, refusals.admit(1), "a new interval: logged, with the two that were not");
        assertEquals(-1, refusals.admit(1));

        assertEquals(1, refusals.forget(1), "the holder left: what was not logged is told");
        assertEquals(0, refusals.admit(1), "forgotten: the next refusal is logged at once");
        assertEquals(0, refusals.forget(2));
    }
}
