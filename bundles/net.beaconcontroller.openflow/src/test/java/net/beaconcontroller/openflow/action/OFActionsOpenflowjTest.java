package net.beaconcontroller.openflow.action;

import static net.beaconcontroller.openflow.action.ActionFixtures.bytes;
import static net.beaconcontroller.openflow.action.ActionFixtures.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.exceptions.OFParseError;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TransportPort;
import org.projectfloodlight.openflow.types.VlanPcp;
import org.projectfloodlight.openflow.types.VlanVid;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * A second opinion on every action's wire format from openflowj. openflowj reads actions only inside messages, so
 * ours are wrapped in a FLOW_MOD (header, match-all, fixed fields, then the actions) for it to parse.
 */
class OFActionsOpenflowjTest {
    private static final OFFactory OF10 = OFFactories.getFactory(OFVersion.OF_10);

    /** openflowj refuses port numbers between OFPP_MAX and the first reserved port. */
    private static boolean openflowjPort(int port) {
        return port <= net.beaconcontroller.openflow.OFPort.MAX || port >= net.beaconcontroller.openflow.OFPort.IN_PORT;
    }

    @Provide
    Arbitrary<OFAction> standardActions() {
        return ActionFixtures.actions().filter(a -> !(a instanceof OFActionVendor)
                && !(a instanceof OFActionOutput o && !openflowjPort(o.port()))
                && !(a instanceof OFActionEnqueue q && !openflowjPort(q.port())));
    }

    /** openflowj builds the same action from the same values and writes the same bytes. */
    @Property(tries = 1000)
    void openflowjWritesTheSameBytes(@ForAll("standardActions") OFAction ours) {
        assertEquals(hex(bytes(ours)), hex(write(List.of(openflowj(ours)))));
    }

    /** openflowj reads our bytes back to the same values and writes them unchanged; we read its bytes likewise. */
    @Property(tries = 300)
    void eachReadsTheOthersLists(@ForAll("standardLists") List<OFAction> ours) throws Exception {
        byte[] wire = bytes(ours);
        List<org.projectfloodlight.openflow.protocol.action.OFAction> theirs = readWithOpenflowj(wire);
        assertEquals(ours.size(), theirs.size());
        for (int i = 0; i < ours.size(); i++) {
            assertEquals(openflowj(ours.get(i)), theirs.get(i));
        }
        assertEquals(hex(wire), hex(write(theirs)));
        assertEquals(ours, OFActions.readList(ByteBuffer.wrap(write(theirs)), wire.length));
    }

    @Provide
    Arbitrary<List<OFAction>> standardLists() {
        return standardActions().list().ofMaxSize(8);
    }

    @Test
    void aNiciraVendorActionIsTheOneOpenflowjKnows() throws Exception {
        byte[] decTtl = write(List.of(OF10.actions().niciraDecTtl()));
        assertEquals("ffff0010000023200012000000000000", hex(decTtl));
        OFAction ours = OFAction.readFrom(ByteBuffer.wrap(decTtl));
        assertEquals(new OFActionVendor(0x2320, hex("0012000000000000")), ours);
        assertEquals(List.of(OF10.actions().niciraDecTtl()), readWithOpenflowj(bytes(ours)));
    }

    @Test
    void controllerOutputWithItsMaxLength() throws Exception {
        var theirs = OF10.actions().output(OFPort.CONTROLLER, 0xffff);
        assertEquals(OFActionOutput.toController(0xffff),
                OFAction.readFrom(ByteBuffer.wrap(write(List.of(theirs)))));
    }

    private static org.projectfloodlight.openflow.protocol.action.OFAction openflowj(OFAction a) {
        var f = OF10.actions();
        if (a instanceof OFActionOutput o) {
            return f.output(OFPort.ofShort((short) o.port()), o.maxLen());
        } else if (a instanceof OFActionEnqueue q) {
            return f.enqueue(OFPort.ofShort((short) q.port()), q.queueId());
        } else if (a instanceof OFActionSetVlanVid v) {
            return f.setVlanVid(VlanVid.ofVlan(v.vlanVid()));
        } else if (a instanceof OFActionSetVlanPcp p) {
            return f.setVlanPcp(VlanPcp.of((byte) p.vlanPcp()));
        } else if (a instanceof OFActionStripVlan) {
            return f.stripVlan();
        } else if (a instanceof OFActionSetDlSrc s) {
            return f.setDlSrc(MacAddress.of(s.mac()));
        } else if (a instanceof OFActionSetDlDst d) {
            return f.setDlDst(MacAddress.of(d.mac()));
        } else if (a instanceof OFActionSetNwSrc s) {
            return f.setNwSrc(IPv4Address.of(s.ip()));
        } else if (a instanceof OFActionSetNwDst d) {
            return f.setNwDst(IPv4Address.of(d.ip()));
        } else if (a instanceof OFActionSetNwTos t) {
            return f.setNwTos((short) t.tos());
        } else if (a instanceof OFActionSetTpSrc s) {
            return f.setTpSrc(TransportPort.of(s.port()));
        } else if (a instanceof OFActionSetTpDst d) {
            return f.setTpDst(TransportPort.of(d.port()));
        }
        throw new AssertionError("no openflowj counterpart for " + a);
    }

    private static byte[] write(List<? extends org.projectfloodlight.openflow.protocol.action.OFAction> actions) {
        ByteBuf out = Unpooled.buffer();
        for (var a : actions) {
            a.writeTo(out);
        }
        var b = new byte[out.readableBytes()];
        out.readBytes(b);
        return b;
    }

    /** Wraps the actions in a FLOW_MOD ADD (72 bytes before the actions) and lets openflowj parse it. */
    private static List<org.projectfloodlight.openflow.protocol.action.OFAction> readWithOpenflowj(byte[] actions)
            throws OFParseError {
        var msg = ByteBuffer.allocate(72 + actions.length);
        msg.put((byte) 1).put((byte) 14).putShort((short) (72 + actions.length)).putInt(1);
        net.beaconcontroller.openflow.OFMatch.ALL.writeTo(msg);
        msg.putLong(0).putShort((short) 0).putShort((short) 0).putShort((short) 0).putShort((short) 0x8000)
                .putInt(-1).putShort((short) 0xffff).putShort((short) 0).put(actions);
        var flowMod = (OFFlowAdd) OF10.getReader().readFrom(Unpooled.wrappedBuffer(msg.array()));
        return flowMod.getActions();
    }
}
