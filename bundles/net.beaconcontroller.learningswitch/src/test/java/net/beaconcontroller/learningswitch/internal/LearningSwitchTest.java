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

import net.beaconcontroller.core.BeaconSettings;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPhysicalPort;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFPortStatus;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFActionOutput;

/** The learning switch's forwarding decisions, against a recording switch. */
class LearningSwitchTest {
    private static final long H1 = 0x0000_0000_0001L;
    private static final long H2 = 0x0000_0000_0002L;
    private static final long BUFFER = 42;

    private final List<OFMessage> written = new ArrayList<>();
    private final Map<Object, Object> local = new HashMap<>();
    private final Map<OFType, List<IOFMessageListener>> listeners = new HashMap<>();
    private IOFSwitch sw;
    private LearningSwitch app;

    @BeforeEach
    void setUp() {
        sw = proxy(IOFSwitch.class, (name, args) -> switch (name) {
            case "write" -> written.add((OFMessage) args[0]);
            case "getLocal" -> local;
            case "execute" -> {
                ((Runnable) args[0]).run();
                yield null;
            }
            case "getStringId" -> "00:00:00:00:00:00:00:01";
            default -> throw new UnsupportedOperationException(name);
        });
        BeaconSettings settings = proxy(BeaconSettings.class, (name, args) -> switch ((String) args[0]) {
            case "learningswitch.idleTimeout" -> 5;
            case "learningswitch.hardTimeout" -> 0;
            case "learningswitch.tableSize" -> 1024;
            case "learningswitch.macAge" -> 300;
            default -> throw new IllegalArgumentException((String) args[0]);
        });
        IBeaconProvider beacon = proxy(IBeaconProvider.class, (name, args) -> switch (name) {
            case "getSettings" -> settings;
            case "addOFMessageListener" -> listeners.computeIfAbsent((OFType) args[0], t -> new ArrayList<>())
                    .add((IOFMessageListener) args[1]);
            case "removeOFMessageListener" -> listeners.get((OFType) args[0]).remove(args[1]);
            case "getSwitches" -> Map.of(1L, sw);
            default -> throw new UnsupportedOperationException(name);
        });
        app = new LearningSwitch(beacon);
    }

    @Test
    void subscribesToPacketInAndPortStatusAndLeavesOnDeactivate() {
        assertEquals(List.of(app), listeners.get(OFType.PACKET_IN));
        assertEquals(List.of(app), listeners.get(OFType.PORT_STATUS));
        app.receive(sw, packetIn(1, H1, H2, BUFFER));
        app.deactivate();
        assertTrue(listeners.get(OFType.PACKET_IN).isEmpty());
        assertTrue(local.isEmpty(), "the MAC table is dropped with the app");
    }

    @Test
    void unknownDestinationFloodsTheBufferedPacketWithOneMessage() {
        app.receive(sw, packetIn(1, H1, H2, BUFFER));
        var out = assertInstanceOf(OFPacketOut.class, single());
        assertEquals(BUFFER, out.bufferId());
        assertEquals(1, out.inPort());
        assertEquals(List.of(new OFActionOutput(OFPort.FLOOD, 0)), out.actions());
        assertEquals(0, out.dataLength());
    }

    @Test
    void knownDestinationInstallsOneExactFlowCarryingTheBufferId() {
        app.receive(sw, packetIn(2, H2, H1, BUFFER + 1));
        written.clear();
        var pi = packetIn(1, H1, H2, BUFFER);
        app.receive(sw, pi);
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
        app.receive(sw, packetIn(2, H2, H1, OFMessage.NO_BUFFER));
        written.clear();
        var pi = packetIn(1, H1, H2, OFMessage.NO_BUFFER);
        app.receive(sw, pi);
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
        app.receive(sw, pi);
        var out = assertInstanceOf(OFPacketOut.class, single());
        assertEquals(pi.frame(), out.data());
    }

    @Test
    void broadcastAndMulticastSourcesAreNeverLearned() {
        long multicast = 0x0100_5e00_0001L;
        app.receive(sw, packetIn(3, multicast, H2, BUFFER));
        app.receive(sw, packetIn(4, 0xffff_ffff_ffffL, H2, BUFFER));
        written.clear();
        app.receive(sw, packetIn(1, H1, multicast, BUFFER));
        assertInstanceOf(OFPacketOut.class, single(), "a multicast destination is flooded, never learned");
    }

    @Test
    void destinationBehindTheInputPortIsDropped() {
        app.receive(sw, packetIn(1, H2, H1, BUFFER));
        written.clear();
        app.receive(sw, packetIn(1, H1, H2, BUFFER));
        var fm = assertInstanceOf(OFFlowMod.class, single());
        assertTrue(fm.actions().isEmpty(), "no frame goes back out of the port it came in on");
    }

    @Test
    void portDownForgetsTheMacsBehindIt() {
        app.receive(sw, packetIn(2, H2, H1, BUFFER));
        var down = new OFPhysicalPort(2, 0x0a0000000002L, "s1-eth2", 0, OFPhysicalPort.STATE_LINK_DOWN, 0, 0, 0, 0);
        app.receive(sw, new OFPortStatus(0, OFPortStatus.Reason.MODIFY, down));
        written.clear();
        app.receive(sw, packetIn(1, H1, H2, BUFFER));
        assertInstanceOf(OFPacketOut.class, single(), "H2 was forgotten, so the packet is flooded");
    }

    @Test
    void runtFramesAreIgnored() {
        app.receive(sw, new OFPacketIn(0, BUFFER, 10, 1, OFPacketIn.Reason.NO_MATCH, ByteBuffer.wrap(new byte[10])));
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
