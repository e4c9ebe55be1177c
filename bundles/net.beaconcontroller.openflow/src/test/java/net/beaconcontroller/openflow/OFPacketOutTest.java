package net.beaconcontroller.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;

/** {@link OFPacketOut#of}: a PACKET_IN's packet goes out by buffer id, or with its frame when it was not buffered. */
class OFPacketOutTest {
    private static final List<OFAction> FLOOD = List.of(new OFActionOutput(OFPort.FLOOD, 0));
    private static final ByteBuffer FRAME = ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 8, 0});

    @Test
    void aBufferedPacketIsReleasedByItsId() {
        var pi = new OFPacketIn(7, 42, 14, 3, OFPacketIn.Reason.NO_MATCH, FRAME);
        assertEquals(OFPacketOut.buffered(0, 42, 3, FLOOD), OFPacketOut.of(pi, FLOOD));
    }

    @Test
    void anUnbufferedPacketTravelsWithItsFrame() {
        var pi = new OFPacketIn(7, OFMessage.NO_BUFFER, 14, 3, OFPacketIn.Reason.NO_MATCH, FRAME);
        var out = OFPacketOut.of(pi, FLOOD);
        assertEquals(OFMessage.NO_BUFFER, out.bufferId());
        assertEquals(3, out.inPort());
        assertEquals(FLOOD, out.actions());
        assertEquals(FRAME.duplicate().rewind(), out.data());
    }
}
