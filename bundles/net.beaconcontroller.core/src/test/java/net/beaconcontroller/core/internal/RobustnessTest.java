package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.core.test.ControllerFixture.Connected;
import net.beaconcontroller.core.test.ControllerFixture.Kind;
import net.beaconcontroller.openflow.OFEchoReply;
import net.beaconcontroller.openflow.OFEchoRequest;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPhysicalPort;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;

/** One misbehaving switch must never hurt the controller or the other switches on its I/O thread. */
class RobustnessTest {
    private static final int LIMIT = 65536;

    private static OFPacketOut bigPacketOut(int xid, byte[] frame) {
        return OFPacketOut.unbuffered(xid, 1, List.<OFAction>of(OFActionOutput.to(OFPort.FLOOD)), ByteBuffer.wrap(frame));
    }

    /** The healthy switch still gets its PACKET_IN to the listener and its echo answered. */
    private static void assertStillServed(Connected healthy, RecordingListener packetIns) {
        byte[] frame = FakeSwitch.frame(300, 77);
        healthy.fake().send(healthy.fake().packetIn(2, frame));
        var call = packetIns.await(WAIT);
        assertSame(healthy.sw(), call.sw());
        assertArrayEquals(frame, ((OFPacketIn) call.msg()).frameBytes());
        int xid = healthy.fake().nextXid();
        healthy.fake().send(new OFEchoRequest(xid));
        assertEquals(xid, healthy.fake().<OFEchoReply>expect(OFType.ECHO_REPLY, m -> m.xid() == xid, WAIT).xid());
        assertTrue(healthy.sw().isConnected());
    }

    /**
     * A switch that stops reading is disconnected once its output exceeds {@code outputBufferLimit}; the other switch
     * on the same I/O thread keeps working and new switches can still connect.
     */
    @Test
    void aSwitchThatStopsReadingIsDisconnectedAndTheOthersCarryOn() {
        try (var fx = ControllerFixture.start("controller.threadCount=1", "controller.outputBufferLimit=" + LIMIT)) {
            var packetIns = new RecordingListener("pi");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, packetIns);
            var healthy = fx.connectActive(1);
            var slowFake = fx.track(FakeSwitch.connect(fx.port(), 2, List.of(FakeSwitch.port(1, "eth1")), 4096));
            var slow = fx.handshake(slowFake);
            assertEquals(healthy.sw().getThreadName(), slow.getThreadName());
            slowFake.stopReading();

            // Writes, each flushed, that the switch would take if it read: only the unread backlog trips the limit.
            // All share one frame, so the queue of pending writes stays small whatever the loop's pace.
            byte[] frame = FakeSwitch.frame(16 * 1024, 1);
            int written = 0;
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (slow.isConnected() && System.nanoTime() < deadline && written < 20_000) {
                slow.write(bigPacketOut(written, frame));
                slow.flush();
                written++;
            }
            var removed = fx.awaitEvent(Kind.REMOVED, 2);
            assertSame(slow, removed.sw());
            assertFalse(slow.isConnected());
            assertFalse(fx.controller.getSwitches().containsKey(2L));
            // What reached the switch was well-formed, and the connection ends after it.
            slowFake.awaitClosed(WAIT);
            assertTrue(slowFake.count(OFType.PACKET_OUT) < written, "disconnected only after all " + written
                    + " messages were delivered");

            assertStillServed(healthy, packetIns);
            var newcomer = fx.connectActive(3);
            assertTrue(newcomer.sw().isConnected());
            assertEquals(0, fx.count(Kind.REMOVED, 1));
        }
    }

    /** After a burst the output buffer goes back to its initial size: the switch costs its steady-state memory again. */
    @Test
    void theOutputBufferShrinksBackAfterABurst() throws InterruptedException {
        try (var fx = ControllerFixture.start("controller.outputBufferLimit=" + (64 << 20))) {
            var fake = fx.track(FakeSwitch.connect(fx.port(), 1, List.of(FakeSwitch.port(1, "eth1")), 4096));
            var sw = (SwitchConnection) fx.handshake(fake);
            int initial = sw.output().capacity();
            fake.stopReading();
            // Writes, each flushed, until the socket's own buffers are full and the controller's buffer has to grow.
            byte[] frame = FakeSwitch.frame(16 * 1024, 3);
            int written = 0;
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (sw.output().capacity() == initial && System.nanoTime() < deadline) {
                sw.write(bigPacketOut(written++, frame));
                sw.flush();
                if (written % 64 == 0) {
                    Thread.sleep(5);
                }
            }
            assertTrue(sw.output().capacity() > initial, "the burst grew the output buffer");
            fake.resumeReading();
            for (int i = 0; i < written; i++) {
                fake.expect(OFType.PACKET_OUT, WAIT);
            }
            // Nothing big for over a second: the next flush gives the memory back.
            Thread.sleep(1_200);
            sw.write(bigPacketOut(written, FakeSwitch.frame(100, 4)));
            sw.flush();
            fake.expect(OFType.PACKET_OUT, WAIT);
            deadline = System.nanoTime() + WAIT.toNanos();
            while (sw.output().capacity() != initial && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(initial, sw.output().capacity());
            assertTrue(sw.isConnected());
        }
    }

    /**
     * The limit is about a switch that does not read. A switch that reads must get a burst bigger than the limit,
     * written in one go (here: one {@code write(List)} of 320 KiB with a 64 KiB limit), which the socket accepts as
     * fast as the switch reads it.
     */
    @Test
    void aBurstBiggerThanTheLimitReachesASwitchThatReads() {
        try (var fx = ControllerFixture.start("controller.outputBufferLimit=" + LIMIT)) {
            var c = fx.connectActive(1);
            var burst = new ArrayList<OFMessage>();
            byte[] frame = FakeSwitch.frame(8 * 1024, 2);
            for (int i = 0; i < 40; i++) {
                burst.add(bigPacketOut(i, frame));
            }
            c.sw().write(burst);
            for (int i = 0; i < 40; i++) {
                assertEquals(i, c.fake().<OFPacketOut>expect(OFType.PACKET_OUT, WAIT).xid());
            }
            assertTrue(c.sw().isConnected());
            assertEquals(0, fx.count(Kind.REMOVED, 1));
        }
    }

    /** A FEATURES_REPLY header announcing one port and a half: 32 + 72 bytes, not a multiple of 48 after the fixed part. */
    private static byte[] truncatedFeaturesReply(int xid) {
        var port = FakeSwitch.port(1, "eth1");
        var buf = ByteBuffer.allocate(32 + 72);
        buf.put((byte) 1).put((byte) OFType.FEATURES_REPLY.value()).putShort((short) buf.capacity()).putInt(xid);
        buf.putLong(0x99).putInt(256).put((byte) 1).put(new byte[3]).putInt(0).putInt(0);
        var p = ByteBuffer.allocate(OFPhysicalPort.LENGTH);
        port.writeTo(p);
        buf.put(p.array()).put(p.array(), 0, 24);
        return buf.array();
    }

    static List<Arguments> malformed() {
        return List.of(
                Arguments.of("length field 4", new byte[] {1, (byte) OFType.PACKET_IN.value(), 0, 4, 0, 0, 0, 9}),
                Arguments.of("unknown type 200", new byte[] {1, (byte) 200, 0, 8, 0, 0, 0, 9}),
                Arguments.of("wrong version 4 on a PACKET_IN", new byte[] {4, (byte) OFType.PACKET_IN.value(), 0, 26, 0, 0,
                    0, 9, -1, -1, -1, -1, 0, 8, 0, 1, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}),
                Arguments.of("truncated FEATURES_REPLY port list", truncatedFeaturesReply(9)),
                Arguments.of("fixed-size BARRIER_REPLY with length 12", new byte[] {1,
                    (byte) OFType.BARRIER_REPLY.value(), 0, 12, 0, 0, 0, 9, 0, 0, 0, 0}));
    }

    /**
     * A malformed message closes only its own connection: the other switch on the same I/O thread
     * ({@code threadCount=1}) still gets its PACKET_IN to the listener and its echo answered.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void aMalformedMessageClosesOnlyItsConnection(String what, byte[] bytes) {
        try (var fx = ControllerFixture.start("controller.threadCount=1")) {
            var packetIns = new RecordingListener("pi");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, packetIns);
            var healthy = fx.connectActive(1);
            var bad = fx.connectActive(2);
            // A valid PACKET_IN in front of the bad bytes in the same segment is still delivered.
            var good = bad.fake().packetIn(1, FakeSwitch.frame(64, 5));
            var segment = ByteBuffer.allocate(good.length() + bytes.length);
            good.writeTo(segment);
            segment.put(bytes);
            bad.fake().sendBytes(segment.array());

            bad.fake().awaitClosed(WAIT);
            assertSame(bad.sw(), fx.awaitEvent(Kind.REMOVED, 2).sw());
            assertSame(bad.sw(), packetIns.await(WAIT).sw());
            assertStillServed(healthy, packetIns);
            fx.expectNoMoreEvents(Kind.REMOVED, 2, 1, Duration.ofMillis(100));
            assertEquals(0, fx.count(Kind.REMOVED, 1));
            assertEquals(1, fx.controller.getSwitches().size());
        }
    }

    /** After a malformed message closed one switch, the keepalive timer of its I/O thread still serves the others. */
    @Test
    void theKeepaliveOfTheOtherSwitchesSurvivesAMalformedMessage() {
        try (var fx = ControllerFixture.start("controller.threadCount=1", "controller.echoInterval=1",
                "controller.echoTimeout=2")) {
            var healthy = fx.connectActive(1);
            var bad = fx.connectActive(2);
            bad.fake().sendBytes(truncatedFeaturesReply(9));
            bad.fake().awaitClosed(WAIT);
            fx.awaitEvent(Kind.REMOVED, 2);
            long closedAt = System.nanoTime();
            var echo = healthy.fake().expectReceived(OFType.ECHO_REQUEST, m -> true, Duration.ofMillis(2500));
            assertTrue(echo.nanos > closedAt, "the echo request came after the bad switch was closed");
            assertTrue(healthy.sw().isConnected());
            assertEquals(0, fx.count(Kind.REMOVED, 1));
        }
    }

    @Test
    void aMalformedAnswerDuringTheHandshakeClosesTheConnection() {
        try (var fx = ControllerFixture.start("controller.threadCount=1")) {
            var healthy = fx.connectActive(1);
            var bad = fx.connect(2).answer(OFType.FEATURES_REQUEST, m -> truncatedFeaturesReply(m.xid()));
            bad.hello();
            bad.awaitClosed(WAIT);
            assertEquals(0, fx.count(Kind.ADDED, 2));
            var packetIns = new RecordingListener("pi");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, packetIns);
            assertStillServed(healthy, packetIns);
        }
    }

    /** A peer that does not speak OpenFlow at all (here: HTTP) is closed, not waited for. */
    @Test
    void aPeerSendingGarbageBeforeHelloIsClosed() {
        try (var fx = ControllerFixture.start()) {
            var fake = fx.connect(5);
            fake.sendBytes("GET / HTTP/1.1\r\nHost: beacon\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            fake.awaitClosed(WAIT);
            assertEquals(0, fx.count(Kind.ADDED, 5));
            assertTrue(fx.controller.getSwitches().isEmpty());
        }
    }
}
