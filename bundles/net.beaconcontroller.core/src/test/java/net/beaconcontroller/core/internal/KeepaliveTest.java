package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.ControllerFixture.Kind;
import net.beaconcontroller.openflow.OFData;
import net.beaconcontroller.openflow.OFEchoReply;
import net.beaconcontroller.openflow.OFEchoRequest;
import net.beaconcontroller.openflow.OFType;

/**
 * Echo keepalive and the handshake deadline, with {@code echoInterval=1} and {@code echoTimeout=2} (the timer runs
 * every 250 ms, so an action due after N seconds happens within N + 0.25 s).
 */
class KeepaliveTest {
    private static final String[] FAST_ECHO = {"controller.echoInterval=1", "controller.echoTimeout=2"};
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** Latest a timed action may come: its due time, the timer period and slack for a loaded machine. */
    private static final Duration LATE = Duration.ofMillis(1500);

    /**
     * Two idle switches on one I/O thread, run side by side to keep the suite fast: the one that answers echo
     * requests stays, the silent one is dropped after the echo timeout and {@code removedSwitch} fires once.
     */
    @Test
    void idleSwitchesGetEchoRequestsAndOnlySilentOnesAreDisconnected() {
        try (var fx = ControllerFixture.start(FAST_ECHO)) {
            var answering = fx.connectActive(1);
            var silentFake = fx.connect(2, FakeSwitch.port(1, "eth1")).answer(OFType.ECHO_REQUEST, null);
            var silent = fx.handshake(silentFake);
            long activeAt = System.nanoTime();

            var first = answering.fake().expectReceived(OFType.ECHO_REQUEST, m -> true, Duration.ofSeconds(1).plus(LATE));
            long firstAfter = first.nanos - activeAt;
            assertTrue(firstAfter >= Duration.ofMillis(800).toNanos(), "echo request after only " + firstAfter / 1_000_000
                    + " ms");
            assertEquals(0, ((OFEchoRequest) first.msg).data().length());
            silentFake.expect(OFType.ECHO_REQUEST, Duration.ofSeconds(1).plus(LATE));

            var removed = fx.awaitEvent(Kind.REMOVED, 2, TIMEOUT.plus(LATE));
            long removedAfter = System.nanoTime() - activeAt;
            assertTrue(removedAfter >= Duration.ofMillis(1800).toNanos(), "disconnected after only "
                    + removedAfter / 1_000_000 + " ms");
            assertEquals(silent, removed.sw());
            assertTrue(removed.thread().startsWith("beacon-io-"), removed.thread());
            silentFake.awaitClosed(WAIT);
            assertFalse(silent.isConnected());
            assertFalse(fx.controller.getSwitches().containsKey(2L));

            // Two more requests, about a second apart: the answering switch lived past the echo timeout twice over on
            // its answers alone.
            for (int i = 0; i < 2; i++) {
                answering.fake().expect(OFType.ECHO_REQUEST, TIMEOUT.plus(LATE));
            }
            assertTrue(System.nanoTime() - activeAt > 2 * TIMEOUT.toNanos() - LATE.toNanos());
            assertTrue(answering.sw().isConnected());
            assertEquals(answering.sw(), fx.controller.getSwitches().get(1L));
            assertFalse(answering.fake().isClosed());
            assertEquals(0, fx.count(Kind.REMOVED, 1));
            assertEquals(1, fx.count(Kind.REMOVED, 2));
        }
    }

    @Test
    void echoRequestsFromTheSwitchAreAnsweredWithTheSameXidAndData() {
        try (var fx = ControllerFixture.start()) {
            var c = fx.connectActive(1);
            var data = OFData.of(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9});
            c.fake().send(new OFEchoRequest(0x1234_5678, data));
            OFEchoReply reply = c.fake().expect(OFType.ECHO_REPLY, WAIT);
            assertEquals(new OFEchoReply(0x1234_5678, data), reply);
        }
    }

    /**
     * Three peers that never complete the handshake, side by side: one sends nothing at all, one stops answering
     * mid-handshake, one keeps sending echo requests every 250 ms but never answers the barrier. Each is closed once
     * {@code echoTimeout} has passed since it connected, and never reported as a switch.
     */
    @Test
    void unfinishedHandshakesAreClosedAfterTheEchoTimeout() {
        try (var fx = ControllerFixture.start(FAST_ECHO)) {
            long start = System.nanoTime();
            var silent = fx.connect(5);
            var stalled = fx.connect(6, FakeSwitch.port(1, "eth1")).answer(OFType.STATS_REQUEST, null);
            var chatty = fx.connect(7, FakeSwitch.port(1, "eth1")).answer(OFType.BARRIER_REQUEST, null);
            stalled.hello();
            chatty.hello();
            stalled.expect(OFType.STATS_REQUEST, WAIT);
            chatty.expect(OFType.BARRIER_REQUEST, WAIT);

            // Traffic does not extend the handshake deadline.
            while (!chatty.closesWithin(Duration.ofMillis(250)) && System.nanoTime() - start < 2 * WAIT.toNanos()) {
                try {
                    chatty.send(new OFEchoRequest(chatty.nextXid()));
                } catch (UncheckedIOException closedMeanwhile) {
                    break;
                }
            }
            for (var fake : new FakeSwitch[] {silent, stalled, chatty}) {
                fake.awaitClosed(TIMEOUT.plus(LATE).minusNanos(System.nanoTime() - start));
                assertEquals(OFType.HELLO, fake.types().get(0));
                assertEquals(0, fx.count(Kind.ADDED, fake.dpid()));
                assertEquals(0, fx.count(Kind.REMOVED, fake.dpid()));
            }
            long after = System.nanoTime() - start;
            assertTrue(after >= Duration.ofMillis(1900).toNanos(), "closed after only " + after / 1_000_000 + " ms");
            assertTrue(chatty.count(OFType.ECHO_REPLY) >= 3, "the chatty peer was answered: " + chatty.types());
            assertTrue(fx.controller.getSwitches().isEmpty());
        }
    }
}
