package net.beaconcontroller.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.internal.Keepalive.Due;

/** The keepalive's rules on a clock moved by hand (echo interval 5 s, timeout 10 s). */
class KeepaliveRulesTest {
    private static final long S = TimeUnit.SECONDS.toNanos(1);
    private static final long T0 = 1_000 * S;

    @Test
    void anIdleSwitchGetsOneEchoPerSilenceAndIsClosedAfterTheTimeout() {
        var k = new Keepalive(T0, 5, 10);
        assertEquals(Due.NOTHING, k.check(T0 + 5 * S, false), "exactly the interval is not past it");
        assertEquals(Due.ECHO, k.check(T0 + 5 * S + 1, false));
        assertEquals(Due.NOTHING, k.check(T0 + 7 * S, false), "one echo outstanding is enough");
        assertEquals(Due.SILENT_TOO_LONG, k.check(T0 + 10 * S + 1, false));
        assertEquals(10, k.idleSeconds(T0 + 10 * S + 1));
    }

    @Test
    void anyMessageCountsAsLifeAndAllowsTheNextEcho() {
        var k = new Keepalive(T0, 5, 10);
        assertEquals(Due.ECHO, k.check(T0 + 6 * S, false));
        k.received(T0 + 8 * S);
        assertEquals(Due.NOTHING, k.check(T0 + 12 * S, false));
        assertEquals(Due.ECHO, k.check(T0 + 14 * S, false), "a new silence, a new echo");
        assertEquals(Due.SILENT_TOO_LONG, k.check(T0 + 18 * S + 1, false));
    }

    @Test
    void theHandshakeIsBoundedFromTheConnectionEvenWhileMessagesFlow() {
        var k = new Keepalive(T0, 5, 10);
        assertEquals(T0 + 10 * S, k.handshakeDeadline());
        k.received(T0 + 9 * S);
        assertEquals(Due.NOTHING, k.check(T0 + 10 * S, true));
        assertEquals(Due.HANDSHAKE_TOO_LONG, k.check(T0 + 10 * S + 1, true));
        assertEquals(Due.NOTHING, k.check(T0 + 10 * S + 1, false), "an active switch that talks is fine");
    }

    @Test
    void aProbeEndsAliveWithAnyMessageAndDeadAfterItsWindowOrAtTheClose() {
        var k = new Keepalive(T0, 5, 10);
        var answered = k.startProbe(T0, 5 * S);
        assertSame(answered, k.probe(), "probes asked for meanwhile share it");
        k.check(T0 + 4 * S, false);
        assertFalse(answered.isDone());
        k.received(T0 + 4 * S);
        assertEquals(true, answered.getNow(null));
        assertNull(k.probe());

        var silent = k.startProbe(T0 + 5 * S, 5 * S);
        k.check(T0 + 10 * S, false);
        assertFalse(silent.isDone(), "exactly the window is not past it");
        k.check(T0 + 10 * S + 1, false);
        assertEquals(false, silent.getNow(null));

        var closed = k.startProbe(T0 + 11 * S, 5 * S);
        k.stop();
        assertEquals(false, closed.getNow(null));
    }
}
