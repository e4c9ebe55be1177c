package net.beaconcontroller.cbench;

import static net.beaconcontroller.cbench.Openflowj.OF10;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

class RoleMessagesTest {
    @Test
    void aNumberedPacketInCarriesItsNumberThreeTimes() throws Exception {
        byte[] pi = RoleMessages.numberedPacketIn(3);
        RoleMessages.number(pi, 123_456);
        var parsed = assertInstanceOf(OFPacketIn.class, Openflowj.parse(pi));
        assertEquals(123_456, parsed.getXid());
        assertEquals(OFBufferId.of(123_456), parsed.getBufferId());
        byte[] frame = parsed.getData();
        assertEquals(123_456, java.nio.ByteBuffer.wrap(frame).getInt(RoleMessages.FRAME_NUMBER_OFFSET));
    }

    @Test
    void answersAreMatchedByBufferIdOrByTheFrameOfAnUnbufferedPacketOut() {
        byte[] pi = RoleMessages.numberedPacketIn(3);
        RoleMessages.number(pi, 77);
        byte[] frame = Arrays.copyOfRange(pi, OpenFlow10.PACKET_IN_DATA_OFFSET, pi.length);
        List<OFAction> flood = List.of(OF10.actions().output(OFPort.FLOOD, 0));
        assertEquals(77, RoleMessages.answered(Openflowj.bytes(OF10.buildPacketOut().setBufferId(OFBufferId.of(77))
                .setActions(flood).build())));
        assertEquals(77, RoleMessages.answered(Openflowj.bytes(OF10.buildFlowAdd().setBufferId(OFBufferId.of(77))
                .build())));
        assertEquals(77, RoleMessages.answered(Openflowj.bytes(OF10.buildPacketOut().setBufferId(OFBufferId.NO_BUFFER)
                .setActions(flood).setData(frame).build())));
        byte[] lldp = frame.clone();
        lldp[12] = (byte) 0x88;
        lldp[13] = (byte) 0xcc;
        assertEquals(-1, RoleMessages.answered(Openflowj.bytes(OF10.buildPacketOut().setBufferId(OFBufferId.NO_BUFFER)
                .setActions(flood).setData(lldp).build())), "a controller's own frame answers nothing");
        assertEquals(-1, RoleMessages.answered(Openflowj.bytes(OF10.buildFlowAdd().build())));
    }
}
