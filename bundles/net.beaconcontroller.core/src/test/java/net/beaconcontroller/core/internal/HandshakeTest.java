package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.test.ControllerFixture.Kind;
import net.beaconcontroller.openflow.OFBarrierReply;
import net.beaconcontroller.openflow.OFData;
import net.beaconcontroller.openflow.OFError;
import net.beaconcontroller.openflow.OFErrorType;
import net.beaconcontroller.openflow.OFFeaturesRequest;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFHello;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFPortStatus;
import net.beaconcontroller.openflow.OFSetConfig;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.OFVendor;
import net.beaconcontroller.openflow.statistics.OFDescStatsRequest;

/** The switch handshake against a scripted switch on a real socket. */
class HandshakeTest {
    private static final long DPID = 0x0000_0000_00ab_cdefL;

    @Test
    void handshakeSendsTheRequestsInOrderAndActivatesTheSwitchOnce() {
        try (var fx = ControllerFixture.start("controller.preExistingFlows=DELETE")) {
            var fake = fx.connect(DPID, FakeSwitch.port(1, "eth1"), FakeSwitch.port(7, "eth7"),
                    FakeSwitch.port(OFPort.LOCAL, "br0"));
            OFHello hello = fake.expect(OFType.HELLO, WAIT);
            assertEquals(OFMessage.VERSION, hello.version());
            // The controller's HELLO goes out on connect, before it has heard from the switch.
            assertEquals(List.of(OFType.HELLO), fake.types());

            fake.hello();
            var sw = fx.awaitEvent(Kind.ADDED, DPID).sw();

            assertEquals(List.of(OFType.HELLO, OFType.FEATURES_REQUEST, OFType.STATS_REQUEST, OFType.SET_CONFIG,
                    OFType.FLOW_MOD, OFType.BARRIER_REQUEST), fake.types());
            var received = fake.received();
            assertTrue(received.get(1) instanceof OFFeaturesRequest);
            var descRequest = (OFStatsRequest) received.get(2);
            assertTrue(descRequest.body() instanceof OFDescStatsRequest, descRequest.toString());
            var setConfig = (OFSetConfig) received.get(3);
            assertEquals(0xffff, setConfig.missSendLength());
            assertEquals(OFSetConfig.FRAG_NORMAL, setConfig.flags());
            var delete = (OFFlowMod) received.get(4);
            assertEquals(OFFlowMod.Command.DELETE, delete.command());
            assertEquals(OFMatch.ALL, delete.match());
            assertEquals(OFMatch.OFPFW_ALL, delete.match().wildcards());
            assertEquals(OFPort.NONE, delete.outPort());
            assertTrue(delete.actions().isEmpty());
            // Every request carries its own transaction id.
            assertEquals(received.size(), new HashSet<>(received.stream().map(OFMessage::xid).toList()).size());

            assertSame(sw, fx.controller.getSwitches().get(DPID));
            assertEquals(1, fx.controller.getSwitches().size());
            assertEquals(DPID, sw.getId());
            assertEquals("00:00:00:00:00:ab:cd:ef", sw.getStringId());
            assertEquals(fake.features(received.get(1).xid()), sw.getFeatures());
            assertEquals(new HashSet<>(fake.ports()), new HashSet<>(sw.getPorts()));
            assertEquals(FakeSwitch.port(7, "eth7"), sw.getPort(7));
            assertNull(sw.getPort(3));
            assertEquals(FakeSwitch.DESCRIPTION, sw.getDescription());
            assertTrue(sw.isConnected());
            assertEquals("beacon-io-0", sw.getThreadName());
            assertEquals(fake.received().size(), sw.getMessagesOut());
            assertTrue(sw.getRemoteAddress().getAddress().isLoopbackAddress());

            fx.expectNoMoreEvents(Kind.ADDED, DPID, 1, Duration.ofMillis(200));
            assertEquals(0, fx.count(Kind.REMOVED, DPID));
        }
    }

    @Test
    void withoutDeletePreExistingFlowsNoFlowModIsSent() throws Exception {
        try (var fx = ControllerFixture.start("controller.preExistingFlows=KEEP")) {
            var fake = fx.connect(DPID, FakeSwitch.port(1, "eth1"));
            var sw = fx.handshake(fake);
            // A barrier round trip proves that everything the controller sent before has reached the switch.
            sw.barrier(WAIT).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

            var types = fake.types();
            assertEquals(List.of(OFType.HELLO, OFType.FEATURES_REQUEST, OFType.STATS_REQUEST, OFType.SET_CONFIG),
                    types.subList(0, 4), types.toString());
            assertFalse(types.contains(OFType.FLOW_MOD), types.toString());
            assertEquals(FakeSwitch.DESCRIPTION, sw.getDescription());
            assertSame(sw, fx.controller.getSwitches().get(DPID));
        }
    }

    /** An OpenFlow 1.3.1+ HELLO element: type 1 (VERSIONBITMAP), length 8, one bitmap word. */
    private static byte[] versionBitmap(int bitmap) {
        return ByteBuffer.allocate(8).putShort((short) 1).putShort((short) 8).putInt(bitmap).array();
    }

    @Test
    void aPeerThatOnlySpeaksOpenFlow13GetsHelloFailedAndIsClosed() {
        try (var fx = ControllerFixture.start()) {
            var fake = fx.connect(DPID);
            fake.hello(4, versionBitmap(1 << 4));
            OFError error = fake.expect(OFType.ERROR, WAIT);
            assertEquals(OFErrorType.HELLO_FAILED.value(), error.errorType());
            assertTrue(error.toString().contains("1.0"), error.toString());
            fake.awaitClosed(WAIT);
            assertFalse(fake.types().contains(OFType.FEATURES_REQUEST), fake.types().toString());
            assertEquals(0, fx.count(Kind.ADDED, DPID));
        }
    }

    @Test
    void aHelloOfVersionZeroGetsHelloFailedAndIsClosed() {
        try (var fx = ControllerFixture.start()) {
            var fake = fx.connect(DPID);
            fake.hello(0, new byte[0]);
            OFError error = fake.expect(OFType.ERROR, WAIT);
            assertEquals(OFErrorType.HELLO_FAILED.value(), error.errorType());
            fake.awaitClosed(WAIT);
            assertEquals(0, fx.count(Kind.ADDED, DPID));
        }
    }

    @ParameterizedTest(name = "bitmap {0}")
    @ValueSource(ints = {(1 << 1) | (1 << 4), (1 << 1), (1 << 1) | (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5)})
    void aHigherVersionPeerWhoseBitmapIncludesOpenFlow10Proceeds(int bitmap) {
        try (var fx = ControllerFixture.start()) {
            var fake = fx.connect(DPID, FakeSwitch.port(1, "eth1"));
            fake.hello(4, versionBitmap(bitmap));
            var sw = fx.awaitEvent(Kind.ADDED, DPID).sw();
            assertEquals(0, fake.count(OFType.ERROR));
            assertTrue(sw.isConnected());
        }
    }

    @Test
    void aHigherVersionPeerWithoutBitmapProceedsAtOpenFlow10() {
        try (var fx = ControllerFixture.start()) {
            var fake = fx.connect(DPID, FakeSwitch.port(1, "eth1"));
            fake.hello(4, new byte[0]);
            fx.awaitEvent(Kind.ADDED, DPID);
            assertEquals(0, fake.count(OFType.ERROR));
        }
    }

    /**
     * PACKET_INs that arrive before the handshake completes (in the same segment as HELLO, and while the barrier reply
     * is held back) reach listeners after {@code addedSwitch}, in order and before one that follows the barrier reply
     * in the same segment, with their frames intact even though the read buffer has been reused since.
     */
    @Test
    void packetInsSentDuringTheHandshakeReachListenersAfterAddedSwitch() {
        try (var fx = ControllerFixture.start()) {
            var log = new ArrayList<String>();
            fx.controller.addOFSwitchListener(new IOFSwitchListener() {
                @Override
                public String getName() {
                    return "log";
                }

                @Override
                public void addedSwitch(IOFSwitch sw) {
                    synchronized (log) {
                        log.add("added " + Long.toHexString(sw.getId()));
                    }
                }

                @Override
                public void removedSwitch(IOFSwitch sw) {
                    synchronized (log) {
                        log.add("removed");
                    }
                }
            });
            var listener = new RecordingListener("pi") {
                @Override
                public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
                    synchronized (log) {
                        log.add("packet-in " + ((OFPacketIn) msg).inPort());
                    }
                    return super.receive(sw, msg, ctx);
                }
            };
            fx.controller.addOFMessageListener(OFType.PACKET_IN, listener);

            var fake = fx.connect(DPID, FakeSwitch.port(1, "eth1"), FakeSwitch.port(2, "eth2"));
            byte[] f1 = FakeSwitch.frame(1400, 1);
            byte[] f2 = FakeSwitch.frame(60, 2);
            byte[] f3 = FakeSwitch.frame(700, 3);
            var frames = List.of(f1, f2, f3);
            // Hold the barrier reply back so the handshake stays open while the second PACKET_IN arrives.
            var barrierXid = new CompletableFuture<Integer>();
            fake.answer(OFType.BARRIER_REQUEST, m -> {
                barrierXid.complete(m.xid());
                return null;
            });
            fake.send(new OFHello(fake.nextXid()), fake.packetIn(1, f1));
            fake.expect(OFType.BARRIER_REQUEST, WAIT);
            fake.send(fake.packetIn(2, f2));
            listener.expectNone(Duration.ofMillis(100));
            fake.send(new OFBarrierReply(barrierXid.join()), fake.packetIn(3, f3));

            for (int i = 0; i < 3; i++) {
                var call = listener.await(WAIT);
                var pi = (OFPacketIn) call.msg();
                assertEquals(i + 1, pi.inPort());
                assertArrayEquals(frames.get(i), pi.frameBytes(), "frame of packet-in " + (i + 1));
                assertEquals(frames.get(i).length, pi.totalLength());
                assertTrue(call.thread().startsWith("beacon-io-"), call.thread());
            }
            synchronized (log) {
                assertEquals(List.of("added abcdef", "packet-in 1", "packet-in 2", "packet-in 3"), log);
            }
        }
    }

    /** What the controller keeps for later while a handshake is open: 1 MiB. */
    private static final int EARLY_BOUND = 1 << 20;

    /**
     * A switch that floods PACKET_INs before its handshake completes (cbench does) is not cut off: what fits in the
     * bound of messages kept for later is delivered after {@code addedSwitch}, in order, the rest is dropped, and
     * the handshake replies behind the flood still get through.
     */
    @Test
    void packetInsBeyondTheEarlyBoundAreDroppedButTheHandshakeCompletes() {
        try (var fx = ControllerFixture.start()) {
            var listener = new RecordingListener("pi");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, listener);
            var fake = fx.connect(DPID, FakeSwitch.port(1, "eth1"));
            var barrierXid = new CompletableFuture<Integer>();
            fake.answer(OFType.BARRIER_REQUEST, m -> {
                barrierXid.complete(m.xid());
                return null;
            });
            fake.hello();
            fake.expect(OFType.BARRIER_REQUEST, WAIT);
            // Twice the bound in PACKET_INs of 1018 bytes, numbered by in_port.
            int sent = 0;
            var batch = new OFMessage[64];
            while (sent * 1018 < 2 * EARLY_BOUND) {
                for (int i = 0; i < batch.length; i++) {
                    batch[i] = fake.packetIn(1 + sent++, FakeSwitch.frame(1000, i));
                }
                fake.send(batch);
            }
            int marker = 0xfff0;
            fake.send(new OFBarrierReply(barrierXid.join()), fake.packetIn(marker, FakeSwitch.frame(64, 0)));
            fx.awaitEvent(Kind.ADDED, DPID);

            int delivered = 0;
            while (true) {
                var pi = (OFPacketIn) listener.await(WAIT).msg();
                if (pi.inPort() == marker) {
                    break;
                }
                assertEquals(++delivered, pi.inPort(), "the kept PACKET_INs are the first ones, in order");
                assertArrayEquals(FakeSwitch.frame(1000, (delivered - 1) % batch.length), pi.frameBytes());
            }
            assertTrue(delivered > 0 && delivered < sent, delivered + " of " + sent + " delivered");
            assertTrue((long) delivered * 1018 <= EARLY_BOUND, delivered * 1018 + " bytes kept");
            assertFalse(fake.isClosed());
        }
    }

    /** Anything but PACKET_INs in such numbers before the handshake completes is a broken peer: it is closed. */
    @Test
    void otherMessagesBeyondTheEarlyBoundCloseTheConnection() {
        try (var fx = ControllerFixture.start()) {
            var fake = fx.connect(DPID, FakeSwitch.port(1, "eth1")).answer(OFType.BARRIER_REQUEST, null);
            fake.hello();
            fake.expect(OFType.BARRIER_REQUEST, WAIT);
            var batch = new OFMessage[64];
            try {
                for (int sent = 0; sent < 2 * EARLY_BOUND && !fake.isClosed(); sent += batch.length * 1012) {
                    for (int i = 0; i < batch.length; i++) {
                        batch[i] = new OFVendor(fake.nextXid(), 0xabcdef, OFData.of(FakeSwitch.frame(1000, i)));
                    }
                    fake.send(batch);
                }
            } catch (UncheckedIOException closed) {
                // the controller closed the connection while we were still sending: that is the point
            }
            fake.awaitClosed(WAIT);
            assertEquals(0, fx.count(Kind.ADDED, DPID));
        }
    }

    /** A PORT_STATUS that arrives during the handshake updates the ports at once and reaches listeners afterwards. */
    @Test
    void aPortStatusDuringTheHandshakeIsAppliedAndReplayedAfterAddedSwitch() {
        try (var fx = ControllerFixture.start()) {
            var listener = new RecordingListener("ports");
            fx.controller.addOFMessageListener(OFType.PORT_STATUS, listener);
            var fake = fx.connect(DPID, FakeSwitch.port(1, "eth1"));
            var barrierXid = new CompletableFuture<Integer>();
            fake.answer(OFType.BARRIER_REQUEST, m -> {
                barrierXid.complete(m.xid());
                return null;
            });
            fake.hello();
            fake.expect(OFType.BARRIER_REQUEST, WAIT);
            var added = FakeSwitch.port(5, "eth5");
            fake.send(new OFPortStatus(3, OFPortStatus.Reason.ADD, added));
            listener.expectNone(Duration.ofMillis(100));
            fake.send(new OFBarrierReply(barrierXid.join()));
            var sw = fx.awaitEvent(Kind.ADDED, DPID).sw();
            var call = listener.await(WAIT);
            assertSame(sw, call.sw());
            assertEquals(added, ((OFPortStatus) call.msg()).desc());
            assertEquals(added, sw.getPort(5));
            assertEquals(2, sw.getPorts().size());
        }
    }

    /** A message listener that sees every message type, to show which messages reach applications. */
    @Test
    void handshakeRepliesAreNotDispatchedToListeners() {
        try (var fx = ControllerFixture.start()) {
            var seen = new ArrayList<OFType>();
            for (var type : OFType.values()) {
                fx.controller.addOFMessageListener(type, new IOFMessageListener() {
                    @Override
                    public String getName() {
                        return "all";
                    }

                    @Override
                    public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
                        synchronized (seen) {
                            seen.add(msg.type());
                        }
                        return Command.CONTINUE;
                    }
                });
            }
            var c = fx.connectActive(DPID);
            var pi = new RecordingListener("sync");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, pi);
            c.fake().send(c.fake().packetIn(1, FakeSwitch.frame(64, 9)));
            pi.await(WAIT);
            synchronized (seen) {
                assertEquals(List.of(OFType.PACKET_IN), seen);
            }
        }
    }
}
