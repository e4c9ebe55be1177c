package net.beaconcontroller.cbench;

import static net.beaconcontroller.cbench.Openflowj.OF10;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

class ResponseRuleTest {
    private static final byte[] IPV4_FRAME = frame(0x0800);
    private static final byte[] LLDP_FRAME = frame(0x88cc);

    @Test
    void flowModAddAndModifyStrictCount() {
        assertTrue(counts(OF10.buildFlowAdd().setBufferId(OFBufferId.of(7)).build()));
        assertTrue(counts(OF10.buildFlowModifyStrict().build()));
    }

    @Test
    void otherFlowModCommandsDoNotCount() {
        assertFalse(counts(OF10.buildFlowModify().build()));
        assertFalse(counts(OF10.buildFlowDelete().build()));
        assertFalse(counts(OF10.buildFlowDeleteStrict().build()));
    }

    @Test
    void packetOutCountsUnlessItCarriesLldp() {
        List<OFAction> output = List.of(OF10.actions().output(OFPort.FLOOD, 0xffff));
        assertTrue(counts(OF10.buildPacketOut().setInPort(OFPort.of(1)).setActions(output).setData(IPV4_FRAME)
                .build()));
        assertFalse(counts(OF10.buildPacketOut().setInPort(OFPort.of(1)).setActions(output).setData(LLDP_FRAME)
                .build()));
        assertFalse(counts(OF10.buildPacketOut().setInPort(OFPort.of(1)).setActions(List.of()).setData(LLDP_FRAME)
                .build()));
    }

    @Test
    void vlanTaggedLldpDoesNotCount() {
        byte[] tagged = new byte[64];
        System.arraycopy(LLDP_FRAME, 0, tagged, 0, 12);
        ByteBuffer.wrap(tagged).putShort(12, (short) 0x8100).putShort(14, (short) 5).putShort(16, (short) 0x88cc);
        assertFalse(counts(OF10.buildPacketOut().setInPort(OFPort.of(1)).setData(tagged).build()));
        ByteBuffer.wrap(tagged).putShort(16, (short) 0x0800);
        assertTrue(counts(OF10.buildPacketOut().setInPort(OFPort.of(1)).setData(tagged).build()));
    }

    @Test
    void bufferedPacketOutWithoutFrameCounts() {
        assertTrue(counts(OF10.buildPacketOut().setBufferId(OFBufferId.of(3)).setInPort(OFPort.of(1))
                .setActions(List.<OFAction>of(OF10.actions().output(OFPort.of(2), 0))).build()));
    }

    @Test
    void otherMessagesAndTruncatedOnesDoNotCount() {
        assertFalse(counts(OF10.buildEchoRequest().build()));
        assertFalse(counts(OF10.buildBarrierRequest().build()));
        byte[] truncatedFlowMod = OpenFlow10.headerOnly(OpenFlow10.FLOW_MOD, 1);
        assertFalse(ResponseRule.countsAsResponse(ByteBuffer.wrap(truncatedFlowMod), 0, truncatedFlowMod.length));
    }

    @Test
    void readsTheMessageAtItsOffset() {
        byte[] add = Openflowj.bytes(OF10.buildFlowAdd().build());
        ByteBuffer buffer = ByteBuffer.allocate(add.length + 13);
        buffer.put(13, add);
        assertTrue(ResponseRule.countsAsResponse(buffer, 13, add.length));
    }

    /** Whatever the bytes, the rule never reads outside the message its header declares. */
    @Property(tries = 500)
    void neverReadsPastTheDeclaredLength(@ForAll @Size(max = 200) byte[] body,
            @ForAll @IntRange(min = 13, max = 14) int type, @ForAll @IntRange(min = 0, max = 7) int prefix) {
        int length = 8 + body.length;
        ByteBuffer buffer = ByteBuffer.allocate(prefix + length); // any read past the message throws
        buffer.put(prefix, OpenFlow10.headerOnly(type, 0)).putShort(prefix + 2, (short) length);
        buffer.put(prefix + 8, body);
        assertDoesNotThrow(() -> ResponseRule.countsAsResponse(buffer, prefix, length));
    }

    private static boolean counts(OFMessage message) {
        byte[] bytes = Openflowj.bytes(message);
        return ResponseRule.countsAsResponse(ByteBuffer.wrap(bytes), 0, bytes.length);
    }

    private static byte[] frame(int ethType) {
        byte[] frame = new byte[64];
        ByteBuffer.wrap(frame).put(new byte[] {1, (byte) 0x80, (byte) 0xc2, 0, 0, 0x0e}).putShort(12, (short) ethType);
        return frame;
    }
}
