package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;

/** Messages written from a listener (the I/O thread) and from other threads, batched and immediate. */
class WriteTest {
    /** A foreign-thread write must not wait for the loop's 250 ms timer: it wakes the loop. */
    private static final Duration PROMPT = Duration.ofMillis(100);

    private static OFPacketOut packetOut(int xid, int inPort, byte[] frame) {
        return OFPacketOut.unbuffered(xid, inPort, List.<OFAction>of(OFActionOutput.to(OFPort.FLOOD)),
                ByteBuffer.wrap(frame));
    }

    private static byte[] data(OFPacketOut po) {
        var b = new byte[po.dataLength()];
        po.data().get(b);
        return b;
    }

    /**
     * A listener answers every PACKET_IN with two PACKET_OUTs built from the packet-in's frame view (no copy); they
     * arrive in order with the right bytes, for a burst of packet-ins in one TCP segment and for single ones.
     */
    @ParameterizedTest(name = "immediate={0}")
    @ValueSource(booleans = {false, true})
    void messagesWrittenFromAListenerArriveInOrder(boolean immediate) {
        try (var fx = ControllerFixture.start("controller.immediate=" + immediate)) {
            fx.controller.addOFMessageListener(OFType.PACKET_IN, new IOFMessageListener() {
                @Override
                public String getName() {
                    return "echoer";
                }

                @Override
                public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
                    var pi = (OFPacketIn) msg;
                    sw.write(OFPacketOut.unbuffered(pi.xid(), pi.inPort(),
                            List.<OFAction>of(OFActionOutput.to(OFPort.FLOOD)), pi.frame()));
                    sw.write(List.of(OFPacketOut.unbuffered(pi.xid() + 1_000_000, pi.inPort(),
                            List.<OFAction>of(OFActionOutput.to(OFPort.ALL)), pi.frame())));
                    return Command.CONTINUE;
                }
            });
            var a = fx.connectActive(1);
            var b = fx.connectActive(2);
            var frames = new ArrayList<byte[]>();
            var burstA = new ArrayList<OFMessage>();
            var burstB = new ArrayList<OFMessage>();
            for (int i = 0; i < 50; i++) {
                frames.add(FakeSwitch.frame(60 + i * 20, i));
                burstA.add(new OFPacketIn(i, OFMessage.NO_BUFFER, frames.get(i).length, 3, OFPacketIn.Reason.NO_MATCH,
                        ByteBuffer.wrap(frames.get(i))));
                burstB.add(new OFPacketIn(i, OFMessage.NO_BUFFER, frames.get(i).length, 4, OFPacketIn.Reason.ACTION,
                        ByteBuffer.wrap(frames.get(i))));
            }
            // Two switches with output in the same loop iteration: both batches must leave.
            a.fake().send(burstA.toArray(OFMessage[]::new));
            b.fake().send(burstB.toArray(OFMessage[]::new));
            for (var fake : List.of(a.fake(), b.fake())) {
                for (int i = 0; i < 50; i++) {
                    OFPacketOut first = fake.expect(OFType.PACKET_OUT, WAIT);
                    OFPacketOut second = fake.expect(OFType.PACKET_OUT, WAIT);
                    assertEquals(i, first.xid());
                    assertEquals(i + 1_000_000, second.xid());
                    assertEquals(fake == a.fake() ? 3 : 4, first.inPort());
                    assertArrayEquals(frames.get(i), data(first));
                    assertArrayEquals(frames.get(i), data(second));
                }
            }
            // A single packet-in with nothing else going on is answered promptly too.
            var frame = FakeSwitch.frame(1500, 99);
            long sent = System.nanoTime();
            a.fake().send(a.fake().packetIn(5, frame));
            var r = a.fake().expectReceived(OFType.PACKET_OUT, m -> true, WAIT);
            assertArrayEquals(frame, data((OFPacketOut) r.msg));
            assertTrue(r.nanos - sent < PROMPT.toNanos(), "answer took " + (r.nanos - sent) / 1_000_000 + " ms");
        }
    }

    /**
     * {@code sw.write} from the test thread, with no other traffic: the message must arrive at once (the loop is woken),
     * not when the loop's timer next fires. Several writes, each after the previous one arrived.
     */
    @ParameterizedTest(name = "immediate={0}")
    @ValueSource(booleans = {false, true})
    void aWriteFromAnotherThreadWakesTheLoopAndArrivesPromptly(boolean immediate) {
        try (var fx = ControllerFixture.start("controller.immediate=" + immediate)) {
            var c = fx.connectActive(1);
            var slow = new ArrayList<String>();
            for (int i = 0; i < 8; i++) {
                var frame = FakeSwitch.frame(200, i);
                // Not a synchronisation: a pause lets the loop settle back into select(), so that the write has to wake
                // it (a write that races the loop's previous iteration would be picked up without a wake-up).
                LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
                long before = System.nanoTime();
                c.sw().write(packetOut(500 + i, 1, frame));
                var r = c.fake().expectReceived(OFType.PACKET_OUT, m -> true, WAIT);
                assertEquals(500 + i, r.msg.xid());
                assertArrayEquals(frame, data((OFPacketOut) r.msg));
                long ms = (r.nanos - before) / 1_000_000;
                if (r.nanos - before > PROMPT.toNanos()) {
                    slow.add("write " + i + ": " + ms + " ms");
                }
            }
            assertTrue(slow.isEmpty(), "foreign-thread writes waited for the loop timer: " + slow);
        }
    }

    @ParameterizedTest(name = "immediate={0}")
    @ValueSource(booleans = {false, true})
    void aListWrittenFromAnotherThreadArrivesInOrder(boolean immediate) {
        try (var fx = ControllerFixture.start("controller.immediate=" + immediate)) {
            var c = fx.connectActive(1);
            var msgs = new ArrayList<OFPacketOut>();
            for (int i = 0; i < 30; i++) {
                msgs.add(packetOut(900 + i, 2, FakeSwitch.frame(64 + i, i)));
            }
            c.sw().write(msgs);
            c.sw().flush();
            for (int i = 0; i < 30; i++) {
                OFPacketOut po = c.fake().expect(OFType.PACKET_OUT, WAIT);
                assertEquals(900 + i, po.xid());
                assertArrayEquals(FakeSwitch.frame(64 + i, i), data(po));
            }
        }
    }
}
