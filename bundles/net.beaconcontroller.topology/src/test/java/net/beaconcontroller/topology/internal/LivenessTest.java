package net.beaconcontroller.topology.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.topology.Link;

/** Liveness probes every second, a grace of 0.5 to 4 s, no evidence from a port unprobed for 5 s. */
class LivenessTest {
    private static final long MS = 1_000_000L;
    private static final Link AB = Link.of(1, 1, 2, 1);
    private final Liveness liveness = new Liveness(500 * MS, 4000 * MS, 5000 * MS);

    private void round(long at, boolean comesBack, long roundTrip) {
        liveness.sent(AB.src(), at);
        if (comesBack) {
            liveness.cameBack(AB, at, at + roundTrip);
        }
    }

    private boolean lost(long now) {
        liveness.tick(now, Set.of(AB));
        return liveness.lost(AB, now, liveness.graceNanos());
    }

    @Test
    void twoProbesUnansweredPastTheGraceAndTheLinkIsLost() {
        round(0, true, MS);
        round(1000 * MS, false, 0);
        assertFalse(lost(1900 * MS), "one probe unanswered is not enough");
        round(2000 * MS, false, 0);
        assertFalse(lost(2400 * MS), "the second one still has its grace");
        assertTrue(lost(2501 * MS));
    }

    @Test
    void probesThatWereNeverSentProveNothing() {
        round(0, true, MS);
        round(1000 * MS, false, 0);
        // The controller was too busy to send the next rounds: the link stays.
        assertFalse(lost(4000 * MS));
    }

    @Test
    void slowRoundTripsWidenTheGrace() {
        for (long t = 0; t < 5000; t += 1000) {
            round(t * MS, true, 1500 * MS); // probes come back 1.5 s late, as at 500 emulated switches
        }
        liveness.tick(5000 * MS, Set.of(AB));
        assertEquals(3000 * MS, liveness.graceNanos());
        round(5000 * MS, false, 0);
        round(6000 * MS, false, 0);
        assertFalse(lost(8500 * MS), "still within twice the slowest round trip");
        assertTrue(lost(9001 * MS));
    }

    @Test
    void aLinkThatDiesWhileItsPortIsStillProbedEverySecondIsLostThoughTheGraceIsLonger() {
        for (long t = 0; t < 5000; t += 1000) {
            round(t * MS, true, 1500 * MS);
        }
        liveness.tick(5000 * MS, Set.of(AB));
        assertEquals(3000 * MS, liveness.graceNanos());
        for (long t = 5000; t <= 10000; t += 1000) {
            round(t * MS, false, 0);
        }
        assertTrue(liveness.lost(AB, 10000 * MS, liveness.graceNanos()), "the second unanswered probe left at 6 s");
    }

    @Test
    void oneVeryLateProbeDoesNotStretchTheGraceBeyondItsCap() {
        round(0, true, 9000 * MS);
        liveness.tick(9000 * MS, Set.of(AB));
        assertEquals(4000 * MS, liveness.graceNanos());
    }

    @Test
    void aPortNotProbedLatelyLeavesItToTheClock() {
        round(0, true, MS);
        round(1000 * MS, true, MS);
        assertTrue(liveness.lost(AB, 6001 * MS, liveness.graceNanos()), "another member probes it now, say");
        assertTrue(liveness.lost(Link.of(3, 1, 4, 1), 0, 0), "never probed here");
    }

    @Test
    void aSwitchNoLongerProbedHereLeavesItsLinksToTheClockAtOnce() {
        round(0, true, MS);
        round(1000 * MS, true, MS);
        assertFalse(lost(1500 * MS));
        liveness.forget(1); // another member masters switch 1 now
        assertTrue(liveness.lost(AB, 1500 * MS, liveness.graceNanos()));
    }

    @Test
    void aClockThatWentBackDoesNotHideADeadLink() {
        round(100_000 * MS, true, MS);
        round(101_000 * MS, true, MS);
        // The cluster's time is 60 s earlier after a merge: the probes from now on never come back.
        round(41_000 * MS, false, 0);
        assertTrue(lost(41_000 * MS), "no evidence ahead of the clock is kept: the clock decides");
        round(42_000 * MS, false, 0);
        round(43_000 * MS, false, 0);
        assertFalse(lost(43_400 * MS), "within the grace of the second unanswered probe");
        assertTrue(lost(43_501 * MS), "the probes since the jump are judged on their own");
    }
}
