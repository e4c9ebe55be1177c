package net.beaconcontroller.learningswitch.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.ContextKey;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.SwitchLocal;
import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPhysicalPort;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFPortStatus;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.packet.Frame;

/** The learning switch's forwarding decisions, against a recording switch. */
class LearningSwitchTest {
    private static final long H1 = 0x0000_0000_0001L;
    private static final long H2 = 0x0000_0000_0002L;
    private static final long BUFFER = 42;

    private final List<OFMessage> written = new ArrayList<>();
    private final Map<SwitchLocal<?>, Object> locals = new HashMap<>();
    private final Frame frame = new Frame();
    private IOFSwitch sw;
    private LearningSwitch app;

    @BeforeEach
    void setUp() {
        sw = proxy(IOFSwitch.class, (name, args) -> switch (name) {
            case "write" -> written.add((OFMessage) args[0]);
            case "getLocal" -> locals.computeIfAbsent((SwitchLocal<?>) args[0], SwitchLocal::initialValue);
            case "setLocal" -> locals.put((SwitchLocal<?>) args[0], args[1]);
            case "execute" -> {
                ((Runnable) args[0]).run();
                yield null;
            }
            case "getStringId" -> "00:00:00:00:00:00:00:01";
            default -> throw new UnsupportedOperationException(name);
        });
        IBeaconProvider beacon = proxy(IBeaconProvider.class, (name, args) -> switch (name) {
            case "clearLocal" -> locals.remove(args[0]);
            default -> throw new UnsupportedOperationException(name);
        });
        app = new LearningSwitch(beacon, Configs.of(LearningSwitch.Config.class, "learningswitch.tableSize=1024"));
    }

    /** Hands the app a message as the controller does: with a context whose frame is the PACKET_IN's. */
    private void receive(OFMessage msg) {
        frame.wrap(msg instanceof OFPacketIn pi ? pi.frame() : ByteBuffer.allocate(0));
        app.receive(sw, msg, new MessageContext() {
            @Override
            public Frame frame() {
                return frame;
            }

            @Override
            public <T> T get(ContextKey<T> key) {
                return null;
            }

            @Override
            public <T> void put(ContextKey<T> key, T value) {
            }
        });
    }

    @Test
    void dropsItsMacTablesWhenDeactivated() {
        receive(packetIn(1, H1, H2, BUFFER));
        assertEquals(1, locals.size());
        app.deactivate();
        assertTrue(locals.isEmpty(), "the MAC table is dropped with the app");
    }

    @Test
    void aChangedIdleTimeoutAppliesToTheNextFlow() {
        receive(packetIn(2, H2, H1, BUFFER));
        app.modified(Configs.of(LearningSwitch.Config.class, "learningswitch.idleTimeout=7"));
        written.clear();
        receive(packetIn(1, H1, H2, BUFFER));
        assertEquals(7, assertInstanceOf(OFFlowMod.class, single()).idleTimeout());
    }

    @Test
    void unknownDestinationFloodsTheBufferedPacketWithOneMessage() {
        receive(packetIn(1, H1, H2, BUFFER));
        var out = assertInstanceOf(OFPacketOut.class, single());
        assertEquals(BUFFER, out.bufferId());
        assertEquals(1, out.inPort());
        assertEquals(List.of(new OFActionOutput(OFPort.FLOOD, 0)), out.actions());
        assertEquals(0, out.dataLength());
    }

    @Test
    void knownDestinationInstallsOneExactFlowCarryingTheBufferId() {
        receive(packetIn(2, H2, H1, BUFFER + 1));
        written.clear();
        var pi = packetIn(1, H1, H2, BUFFER);
        receive(pi);
        var fm = assertInstanceOf(OFFlowMod.class, single());
        assertEquals(OFFlowMod.Command.ADD, fm.command());
        assertEquals(BUFFER, fm.bufferId());
        assertEquals(5, fm.idleTimeout());
        assertEquals(0, fm.hardTimeout());
        assertEquals(OFMatch.fromPacket(pi.frame(), 1), fm.match());
        assertEquals(List.of(new OFActionOutput(2, 0)), fm.actions());
    }

    @Test
    void unbufferedPacketGetsTheFlowAndThePacketBack() {
        receive(packetIn(2, H2, H1, OFMessage.NO_BUFFER));
        written.clear();
        var pi = packetIn(1, H1, H2, OFMessage.NO_BUFFER);
        receive(pi);
        assertEquals(2, written.size());
        var fm = assertInstanceOf(OFFlowMod.class, written.get(0));
        assertEquals(OFMessage.NO_BUFFER, fm.bufferId());
        var out = assertInstanceOf(OFPacketOut.class, written.get(1));
        assertEquals(OFMessage.NO_BUFFER, out.bufferId());
        assertEquals(List.of(new OFActionOutput(2, 0)), out.actions());
        assertEquals(pi.frame(), out.data(), "the frame travels back unchanged");
    }

    @Test
    void unbufferedFloodCarriesTheFrame() {
        var pi = packetIn(3, H1, H2, OFMessage.NO_BUFFER);
        receive(pi);
        var out = assertInstanceOf(OFPacketOut.class, single());
        assertEquals(pi.frame(), out.data());
    }

    @Test
    void broadcastAndMulticastSourcesAreNeverLearned() {
        long multicast = 0x0100_5e00_0001L;
        receive(packetIn(3, multicast, H2, BUFFER));
        receive(packetIn(4, 0xffff_ffff_ffffL, H2, BUFFER));
        written.clear();
        receive(packetIn(1, H1, multicast, BUFFER));
        assertInstanceOf(OFPacketOut.class, single(), "a multicast destination is flooded, never learned");
    }

    @Test
    void destinationBehindTheInputPortIsDropped() {
        receive(packetIn(1, H2, H1, BUFFER));
        written.clear();
        receive(packetIn(1, H1, H2, BUFFER));
        var fm = assertInstanceOf(OFFlowMod.class, single());
        assertTrue(fm.actions().isEmpty(), "no frame goes back out of the port it came in on");
    }

    @Test
    void portDownForgetsTheMacsBehindIt() {
        receive(packetIn(2, H2, H1, BUFFER));
        var down = new OFPhysicalPort(2, 0x0a0000000002L, "s1-eth2", 0, OFPhysicalPort.STATE_LINK_DOWN, 0, 0, 0, 0);
        receive(new OFPortStatus(0, OFPortStatus.Reason.MODIFY, down));
        written.clear();
        receive(packetIn(1, H1, H2, BUFFER));
        assertInstanceOf(OFPacketOut.class, single(), "H2 was forgotten, so the packet is flooded");
    }

    @Test
    void runtFramesAreIgnored() {
        receive(new OFPacketIn(0, BUFFER, 10, 1, OFPacketIn.Reason.NO_MATCH, ByteBuffer.wrap(new byte[10])));
        assertTrue(written.isEmpty());
    }

    private OFMessage single() {
        assertEquals(1, written.size(), () -> "exactly one response, got " + written);
        return written.get(0);
    }

    /** An Ethernet/IPv4/UDP frame like cbench's. */
    private static OFPacketIn packetIn(int inPort, long src, long dst, long bufferId) {
        var frame = ByteBuffer.allocate(60);
        frame.putShort((short) (dst >>> 32)).putInt((int) dst).putShort((short) (src >>> 32)).putInt((int) src);
        frame.putShort((short) 0x0800);
        frame.put((byte) 0x45).put((byte) 0).putShort((short) 46).putInt(0).put((byte) 64).put((byte) 17).putShort((short) 0);
        frame.putInt(0x0a000001).putInt(0x0a000002).putShort((short) 1000).putShort((short) 2000).putShort((short) 26);
        frame.clear();
        return new OFPacketIn(0, bufferId, 60, inPort, OFPacketIn.Reason.NO_MATCH, frame);
    }

    private interface Handler {
        Object handle(String method, Object[] args);
    }

    private static <T> T proxy(Class<T> type, Handler handler) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (p, m, args) -> switch (m.getName()) {
                    case "equals" -> p == args[0];
                    case "hashCode" -> System.identityHashCode(p);
                    case "toString" -> type.getSimpleName();
                    default -> handler.handle(m.getName(), args);
                }));
    }
}
