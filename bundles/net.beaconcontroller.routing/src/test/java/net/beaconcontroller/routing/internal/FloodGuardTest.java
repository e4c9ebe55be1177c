package net.beaconcontroller.routing.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

class FloodGuardTest {
    private final FloodGuard guard = new FloodGuard();

    private static ByteBuffer frame(int n) {
        return ByteBuffer.allocate(64).putInt(20, n).clear();
    }

    @Test
    void aFrameBackThroughAnotherPortWithinTheWindowIsACopy() {
        long t = 1_000_000_000L;
        assertTrue(guard.firstTime(frame(1), 64, 1, t));
        assertFalse(guard.firstTime(frame(1), 64, 3, t + FloodGuard.WINDOW_NANOS - 1), "back round a loop");
        assertTrue(guard.firstTime(frame(2), 64, 3, t + 1), "another frame");
        assertTrue(guard.firstTime(frame(1), 100, 3, t + 1), "the same first bytes of a longer frame");
        assertTrue(guard.firstTime(frame(1), 64, 3, t + 2 * FloodGuard.WINDOW_NANOS), "a retransmission after it");
    }

    @Test
    void aHostRepeatingAFrameOnItsPortIsFloodedEachTime() {
        long t = 1_000_000_000L;
        for (int i = 0; i < 5; i++) {
            assertTrue(guard.firstTime(frame(1), 64, 1, t + i * 100_000_000L), "ARP retried every 100 ms");
        }
    }

    @Test
    void theBytesAreReadWithoutMovingTheBuffer() {
        var f = frame(7);
        guard.firstTime(f, 64, 1, 1);
        assertTrue(f.position() == 0 && f.limit() == 64);
    }

    @Test
    void aCopyDoesNotTakeTheOriginalsPlace() {
        long t = 1_000_000_000L;
        long retry = 100_000_000L;
        assertTrue(guard.firstTime(frame(1), 64, 1, t));
        assertFalse(guard.firstTime(frame(1), 64, 3, t + 1));
        assertTrue(guard.firstTime(frame(1), 64, 1, t + retry), "the host's retry on its own port");
        assertFalse(guard.firstTime(frame(1), 64, 3, t + retry + 1), "and its copy back round the loop");
    }

    /** A stall let one copy through and it came back through the port it was let in on: still cut. */
    @Test
    void copiesBackThroughTheSamePortWithinMillisecondsAreCut() {
        long t = 1_000_000_000L;
        assertTrue(guard.firstTime(frame(1), 64, 3, t), "let through after a stall");
        long turn = 2_000_000L;
        for (int i = 1; i <= 200; i++) {
            assertFalse(guard.firstTime(frame(1), 64, 3, t + i * turn), "turn " + i + " of the loop");
        }
    }
}
