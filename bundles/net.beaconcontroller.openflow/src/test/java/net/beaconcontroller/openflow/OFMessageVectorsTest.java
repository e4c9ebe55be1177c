package net.beaconcontroller.openflow;

import static net.beaconcontroller.openflow.CodecTestSupport.ascii;
import static net.beaconcontroller.openflow.CodecTestSupport.hex;
import static net.beaconcontroller.openflow.CodecTestSupport.match;
import static net.beaconcontroller.openflow.CodecTestSupport.roundTrip;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.openflow.queue.OFPacketQueue;
import net.beaconcontroller.openflow.queue.OFQueuePropertyMinRate;
import net.beaconcontroller.openflow.queue.OFQueuePropertyNone;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * Byte-exact vectors written by hand from the OpenFlow 1.0.0 specification, one or more per message type: parse,
 * compare every field, write back, compare the bytes. Stats bodies are in {@link OFStatsVectorsTest}.
 */
class OFMessageVectorsTest {
    /** in_port=1, dl_type=0x0800, nw_proto=17, nw_src=10.0.0.1, nw_dst=10.0.0.2; the rest wildcarded. */
    static final String M1 = "003000ce | 0001 | 000000000000 | 000000000000 | 0000 | 00 | 00 | 0800 | 00 | 11 | 0000"
            + " | 0a000001 | 0a000002 | 0000 | 0000";
    /** output:2. */
    static final String OUT2 = "0000 0008 0002 0000";
    static final String PORT1 = "0001 | 0a0000000001 | " + ascii("eth1", 16)
            + " | 00000000 | 00000000 | 000002a0 | 000002a0 | 000002bf | 00000000";
    static final String PORT2 = "fffe | 0a0000000002 | " + ascii("br0", 16)
            + " | 00000001 | 00000001 | 00000000 | 00000000 | 00000000 | 00000000";
    static final OFPhysicalPort PORT1_VALUE = new OFPhysicalPort(1, 0x0a00_0000_0001L, "eth1", 0, 0, 0x2a0, 0x2a0,
            0x2bf, 0);
    static final OFPhysicalPort PORT2_VALUE = new OFPhysicalPort(OFPort.LOCAL, 0x0a00_0000_0002L, "br0",
            OFPhysicalPort.CONFIG_PORT_DOWN, OFPhysicalPort.STATE_LINK_DOWN, 0, 0, 0, 0);
    /** 16 bytes: Ethernet broadcast from 00:00:00:00:00:01, ARP, and two bytes of the ARP header. */
    static final String FRAME = "ffffffffffff 000000000001 0806 0001";

    @Test
    void hello() throws Exception {
        assertEquals(new OFHello(1), roundTrip("01 00 0008 00000001"));
    }

    @Test
    void helloOfAnotherVersionKeepsVersionAndElements() throws Exception {
        // OpenFlow 1.3 HELLO with a version bitmap element (type 1, length 8, versions 1 and 4).
        var m = (OFHello) roundTrip("04 00 0010 00000002 | 0001 0008 00000012");
        assertEquals(new OFHello(2, 4, OFData.of(hex("0001 0008 00000012"))), m);
        assertEquals(4, m.version());
    }

    @Test
    void errorWithKnownCode() throws Exception {
        var m = (OFError) roundTrip("01 01 0014 00000003 | 0001 0006 | 01 0e 0048 00000009");
        assertEquals(new OFError(3, OFErrorCode.BadRequest.BAD_LEN, OFData.of(hex("010e004800000009"))), m);
        assertEquals(Optional.of(OFErrorType.BAD_REQUEST), m.knownType());
        assertEquals(Optional.of(OFErrorCode.BadRequest.BAD_LEN), m.knownCode());
    }

    @Test
    void helloFailedCarriesText() throws Exception {
        var m = (OFError) roundTrip("01 01 0017 00000000 | 0000 0000 | " + ascii("bad vers", 8) + " 00 00 00");
        assertEquals(OFErrorCode.HelloFailed.INCOMPATIBLE, m.knownCode().orElseThrow());
        assertEquals("bad vers\0\0\0", m.data().toAsciiString());
        assertArrayEquals(OFError.helloFailed(0, "bad vers\0\0\0").toByteArray(), m.toByteArray());
    }

    @Test
    void errorOfUnknownTypeAndCodeIsKeptAsNumbers() throws Exception {
        // Open vSwitch's vendor error type 0xb0b0.
        var m = (OFError) roundTrip("01 01 000e 00000004 | b0b0 0102 | abcd");
        assertEquals(new OFError(4, 0xb0b0, 0x102, OFData.of(hex("abcd"))), m);
        assertEquals(Optional.empty(), m.knownType());
        assertEquals(Optional.empty(), m.knownCode());
        // A known type with a code beyond the defined ones.
        var m2 = (OFError) roundTrip("01 01 000c 00000004 | 0003 0063");
        assertEquals(Optional.of(OFErrorType.FLOW_MOD_FAILED), m2.knownType());
        assertEquals(Optional.empty(), m2.knownCode());
        assertEquals(99, m2.errorCode());
    }

    @Test
    void everyErrorCodeMapsBack() {
        for (var c : List.<OFErrorCode[]>of(OFErrorCode.HelloFailed.values(), OFErrorCode.BadRequest.values(),
                OFErrorCode.BadAction.values(), OFErrorCode.FlowModFailed.values(), OFErrorCode.PortModFailed.values(),
                OFErrorCode.QueueOpFailed.values())) {
            for (OFErrorCode code : c) {
                assertEquals(code, OFErrorCode.fromValues(code.type().value(), code.value()));
            }
        }
        assertEquals(8, OFErrorCode.BadRequest.BUFFER_UNKNOWN.value());
        assertEquals(8, OFErrorCode.BadAction.BAD_QUEUE.value());
        assertEquals(5, OFErrorCode.FlowModFailed.UNSUPPORTED.value());
        assertEquals(2, OFErrorCode.QueueOpFailed.EPERM.value());
    }

    @Test
    void echoRequestAndReply() throws Exception {
        assertEquals(new OFEchoRequest(4, OFData.of(hex("deadbeef"))), roundTrip("01 02 000c 00000004 | deadbeef"));
        assertEquals(new OFEchoReply(4), roundTrip("01 03 0008 00000004"));
    }

    @Test
    void genericVendor() throws Exception {
        assertEquals(new OFVendor(5, 0x005c16c7L, OFData.of(hex("00000001 00000000"))),
                roundTrip("01 04 0014 00000005 | 005c16c7 | 00000001 00000000"));
        // Nicira, but not a role message: stays generic.
        assertEquals(new OFVendor(5, 0x2320, OFData.of(hex("00000012 00000000"))),
                roundTrip("01 04 0014 00000005 | 00002320 | 00000012 00000000"));
    }

    @Test
    void niciraRoleRequestAndReply() throws Exception {
        assertEquals(new NiciraRoleRequest(6, NiciraRole.MASTER),
                roundTrip("01 04 0014 00000006 | 00002320 | 0000000a | 00000001"));
        assertEquals(new NiciraRoleReply(6, NiciraRole.SLAVE),
                roundTrip("01 04 0014 00000006 | 00002320 | 0000000b | 00000002"));
        assertEquals(new NiciraRoleReply(7, NiciraRole.OTHER),
                roundTrip("01 04 0014 00000007 | 00002320 | 0000000b | 00000000"));
    }

    @Test
    void featuresRequestAndReply() throws Exception {
        assertEquals(new OFFeaturesRequest(7), roundTrip("01 05 0008 00000007"));
        var m = roundTrip("01 06 0080 00000007 | 0000000000000001 | 00000100 | fe | 000000 | 000000c7 | 00000fff | "
                + PORT1 + " | " + PORT2);
        assertEquals(new OFFeaturesReply(7, 1, 256, 254, 0xc7, 0xfff, List.of(PORT1_VALUE, PORT2_VALUE)), m);
        assertFalse(PORT1_VALUE.isDown());
        assertTrue(PORT2_VALUE.isDown());
        assertEquals(new OFFeaturesReply(8, 0xffff_ffff_ffff_ffffL, 0xffff_ffffL, 255, 0, 0, List.of()),
                roundTrip("01 06 0020 00000008 | ffffffffffffffff | ffffffff | ff | 000000 | 00000000 | 00000000"));
    }

    @Test
    void config() throws Exception {
        assertEquals(new OFGetConfigRequest(8), roundTrip("01 07 0008 00000008"));
        assertEquals(new OFGetConfigReply(8, OFSetConfig.FRAG_NORMAL, 128),
                roundTrip("01 08 000c 00000008 | 0000 0080"));
        assertEquals(new OFSetConfig(9, OFSetConfig.FRAG_REASM, 0xffff), roundTrip("01 09 000c 00000009 | 0002 ffff"));
    }

    @Test
    void packetInBuffered() throws Exception {
        var m = (OFPacketIn) roundTrip("01 0a 0022 0000000a | 00000100 | 003c | 0001 | 00 | 00 | " + FRAME);
        assertEquals(new OFPacketIn(10, 0x100, 60, 1, OFPacketIn.Reason.NO_MATCH, ByteBuffer.wrap(hex(FRAME))), m);
        assertTrue(m.isBuffered());
        assertEquals(16, m.frameLength());
        assertArrayEquals(hex(FRAME), m.frameBytes());
    }

    @Test
    void packetInUnbufferedByAction() throws Exception {
        var m = (OFPacketIn) roundTrip("01 0a 0022 0000000b | ffffffff | 0010 | fffe | 01 | 00 | " + FRAME);
        assertEquals(new OFPacketIn(11, OFMessage.NO_BUFFER, 16, OFPort.LOCAL, OFPacketIn.Reason.ACTION,
                ByteBuffer.wrap(hex(FRAME))), m);
        assertFalse(m.isBuffered());
        // Without a frame at all.
        var empty = (OFPacketIn) roundTrip("01 0a 0012 0000000b | ffffffff | 0000 | 0001 | 00 | 00");
        assertEquals(0, empty.frameLength());
    }

    @Test
    void packetInFrameIsAReadOnlyViewOfTheInputBuffer() throws Exception {
        var buf = ByteBuffer.wrap(hex("01 0a 0022 0000000a | 00000100 | 003c | 0001 | 00 | 00 | " + FRAME));
        var m = (OFPacketIn) OFMessageReader.read(buf);
        ByteBuffer frame = m.frame();
        assertTrue(frame.isReadOnly());
        assertEquals(0, frame.position());
        assertEquals(16, frame.limit());
        assertEquals((byte) 0xff, frame.get(0));
        // Not copied: the view sees the input buffer change (this is why it is only valid during handling).
        buf.put(18, (byte) 0x42);
        assertEquals((byte) 0x42, m.frame().get(0));
        // A copy does not.
        byte[] kept = m.frameBytes();
        buf.put(18, (byte) 0x43);
        assertEquals((byte) 0x42, kept[0]);
        // Each call gives an independent view: reading one relatively does not move the next.
        frame.getInt();
        assertNotSame(frame, m.frame());
        assertEquals(0, m.frame().position());
    }

    @Test
    void flowRemoved() throws Exception {
        var m = roundTrip("01 0b 0058 0000000b | " + M1 + " | 0000000000000abc | 8000 | 00 | 00 | 0000000a | 00000100"
                + " | 0005 | 0000 | 0000000000000010 | 0000000000000640");
        assertEquals(new OFFlowRemoved(11, match(M1), 0xabc, 0x8000, OFFlowRemoved.Reason.IDLE_TIMEOUT, 10, 256, 5,
                16, 1600), m);
        var deleted = (OFFlowRemoved) roundTrip("01 0b 0058 0000000c | " + M1 + " | ffffffffffffffff | 0001 | 02 | 00"
                + " | ffffffff | 3b9ac9ff | ffff | 0000 | ffffffffffffffff | 8000000000000000");
        assertEquals(OFFlowRemoved.Reason.DELETE, deleted.reason());
        assertEquals(-1L, deleted.cookie());
        assertEquals(0xffff_ffffL, deleted.durationSec());
        assertEquals(999_999_999L, deleted.durationNsec());
        assertEquals(0xffff, deleted.idleTimeout());
        assertEquals(Long.MIN_VALUE, deleted.byteCount());
        assertTrue(deleted.toString().contains("bytes=9223372036854775808"), deleted.toString());
    }

    @Test
    void portStatus() throws Exception {
        assertEquals(new OFPortStatus(12, OFPortStatus.Reason.MODIFY, PORT1_VALUE),
                roundTrip("01 0c 0040 0000000c | 02 | 00000000000000 | " + PORT1));
        assertEquals(new OFPortStatus(12, OFPortStatus.Reason.ADD, PORT2_VALUE),
                roundTrip("01 0c 0040 0000000c | 00 | 00000000000000 | " + PORT2));
    }

    @Test
    void packetOutBuffered() throws Exception {
        var m = (OFPacketOut) roundTrip("01 0d 0018 0000000d | 00000100 | 0001 | 0008 | " + OUT2);
        assertEquals(OFPacketOut.buffered(13, 0x100, 1, List.of(new OFActionOutput(2, 0))), m);
        assertEquals(0, m.dataLength());
    }

    @Test
    void packetOutWithFrame() throws Exception {
        var m = (OFPacketOut) roundTrip("01 0d 0028 0000000e | ffffffff | 0001 | 0008 | 0000 0008 fffb 0000 | "
                + FRAME);
        assertEquals(OFPacketOut.unbuffered(14, 1, List.of(new OFActionOutput(OFPort.FLOOD, 0)),
                ByteBuffer.wrap(hex(FRAME))), m);
        assertTrue(m.data().isReadOnly());
        assertEquals(16, m.dataLength());
        // No actions: drop.
        assertEquals(List.of(), ((OFPacketOut) roundTrip("01 0d 0010 0000000f | ffffffff | ffff | 0000")).actions());
    }

    @Test
    void packetOutFromAPacketInFrameWritesTheFrame() throws Exception {
        var pi = (OFPacketIn) OFMessageReader.read(
                ByteBuffer.wrap(hex("01 0a 0022 0000000a | ffffffff | 0010 | 0003 | 00 | 00 | " + FRAME)));
        var po = OFPacketOut.unbuffered(pi.xid(), pi.inPort(), List.of(new OFActionOutput(OFPort.FLOOD, 0)),
                pi.frame());
        assertArrayEquals(hex("01 0d 0028 0000000a | ffffffff | 0003 | 0008 | 0000 0008 fffb 0000 | " + FRAME),
                po.toByteArray());
    }

    @Test
    void flowModAdd() throws Exception {
        var m = roundTrip("01 0e 0050 0000000e | " + M1 + " | 0000000000000000 | 0000 | 0005 | 0000 | 8000 | 00000100"
                + " | ffff | 0001 | " + OUT2);
        var expected = OFFlowMod.builder().xid(14).match(match(M1)).idleTimeout(5).bufferId(0x100)
                .flags(OFFlowMod.FLAG_SEND_FLOW_REM).actions(List.of(new OFActionOutput(2, 0))).build();
        assertEquals(expected, m);
        assertEquals(new OFFlowMod(14, match(M1), 0, OFFlowMod.Command.ADD, 5, 0, OFFlowMod.DEFAULT_PRIORITY, 0x100,
                OFPort.NONE, 1, List.of(new OFActionOutput(2, 0))), m);
        assertEquals(m, ((OFFlowMod) m).toBuilder().build());
    }

    @Test
    void flowModEveryCommand() throws Exception {
        for (OFFlowMod.Command c : OFFlowMod.Command.values()) {
            var m = (OFFlowMod) roundTrip("01 0e 0048 0000000f | " + M1 + " | 0123456789abcdef | 000" + c.value()
                    + " | 0000 | 003c | 0001 | ffffffff | 0002 | 0006");
            assertEquals(OFFlowMod.builder().xid(15).match(match(M1)).cookie(0x0123456789abcdefL).command(c)
                    .hardTimeout(60).priority(1).outPort(2)
                    .flags(OFFlowMod.FLAG_CHECK_OVERLAP | OFFlowMod.FLAG_EMERG).build(), m);
        }
    }

    @Test
    void portMod() throws Exception {
        assertEquals(new OFPortMod(15, 2, 0x0a00_0000_0002L, OFPhysicalPort.CONFIG_PORT_DOWN,
                OFPhysicalPort.CONFIG_PORT_DOWN, 0),
                roundTrip("01 0f 0020 0000000f | 0002 | 0a0000000002 | 00000001 | 00000001 | 00000000 | 00000000"));
        assertEquals(new OFPortMod(16, 3, 0xffff_ffff_ffffL, 0, OFPhysicalPort.CONFIG_NO_FLOOD,
                OFPhysicalPort.FEATURE_1GB_FD),
                roundTrip("01 0f 0020 00000010 | 0003 | ffffffffffff | 00000000 | 00000010 | 00000020 | 00000000"));
    }

    @Test
    void barrier() throws Exception {
        assertEquals(new OFBarrierRequest(18), roundTrip("01 12 0008 00000012"));
        assertEquals(new OFBarrierReply(18), roundTrip("01 13 0008 00000012"));
    }

    @Test
    void queueGetConfig() throws Exception {
        assertEquals(new OFQueueGetConfigRequest(20, 1), roundTrip("01 14 000c 00000014 | 0001 | 0000"));
        var m = roundTrip("01 15 0038 00000015 | 0001 | 000000000000"
                + " | 00000001 0018 0000 | 0001 0010 00000000 | 01f4 000000000000"
                + " | 00000002 0010 0000 | 0000 0008 00000000");
        assertEquals(new OFQueueGetConfigReply(21, 1, List.of(
                new OFPacketQueue(1, List.of(new OFQueuePropertyMinRate(500))),
                new OFPacketQueue(2, List.of(OFQueuePropertyNone.INSTANCE)))), m);
        assertTrue(new OFQueuePropertyMinRate(1000).isEnabled());
        assertFalse(new OFQueuePropertyMinRate(1001).isEnabled());
        assertEquals(new OFQueueGetConfigReply(22, 2, List.of(new OFPacketQueue(0xffff_ffffL, List.of()))),
                roundTrip("01 15 0018 00000016 | 0002 | 000000000000 | ffffffff 0008 0000"));
    }

    @Test
    void everyTypeValueMapsBack() {
        for (OFType t : OFType.values()) {
            assertEquals(t, OFType.fromValue(t.value()));
        }
        assertEquals(21, OFType.QUEUE_GET_CONFIG_REPLY.value());
        assertEquals(null, OFType.fromValue(22));
        assertEquals(null, OFType.fromValue(-1));
    }

    @Test
    void longFramesPrintShortened() throws Exception {
        var pi = new OFPacketIn(1, OFMessage.NO_BUFFER, 1500, 1, OFPacketIn.Reason.NO_MATCH,
                ByteBuffer.allocate(1500));
        assertTrue(pi.toString().contains("...(1500 bytes)"), pi.toString());
        assertTrue(pi.toString().length() < 300);
    }
}
