package net.beaconcontroller.openflow;

import static net.beaconcontroller.openflow.CodecTestSupport.hex;
import static net.beaconcontroller.openflow.CodecTestSupport.zeros;
import static net.beaconcontroller.openflow.OFMessageVectorsTest.FRAME;
import static net.beaconcontroller.openflow.OFMessageVectorsTest.M1;
import static net.beaconcontroller.openflow.OFMessageVectorsTest.OUT2;
import static net.beaconcontroller.openflow.OFMessageVectorsTest.PORT1;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.openflow.action.OFActionOutput;

/** Stream behaviour of {@link OFMessageReader} and its errors for bad input. */
class OFMessageReaderTest {

    /** Asserts that reading fails with a message containing every fragment, leaving position and limit alone. */
    private static void rejects(String vectorHex, String... fragments) {
        var buf = ByteBuffer.wrap(hex(vectorHex));
        var e = assertThrows(OFParseException.class, () -> OFMessageReader.read(buf));
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), () -> "'" + e.getMessage() + "' lacks '" + f + "'");
        }
        assertTrue(!e.getMessage().contains("malformed ("), () -> "a check is missing: " + e.getMessage());
        assertEquals(0, buf.position());
        assertEquals(buf.capacity(), buf.limit());
    }

    @Test
    void fewerThanAHeaderNeedsMoreBytes() throws Exception {
        byte[] hello = hex("01 00 0008 00000001");
        for (int n = 0; n < 8; n++) {
            var buf = ByteBuffer.wrap(hello, 0, n);
            assertNull(OFMessageReader.read(buf));
            assertEquals(0, buf.position());
            assertEquals(-1, OFMessageReader.peekLength(buf));
        }
        assertEquals(8, OFMessageReader.peekLength(ByteBuffer.wrap(hello)));
    }

    @Test
    void everyPrefixOfAMessageNeedsMoreBytes() throws Exception {
        for (OFMessage m : SampleMessages.all()) {
            byte[] b = m.toByteArray();
            for (int n = 0; n < b.length; n++) {
                var buf = ByteBuffer.wrap(b, 0, n);
                assertNull(OFMessageReader.read(buf), m + " cut to " + n);
                assertEquals(0, buf.position());
                assertEquals(n, buf.limit());
            }
        }
    }

    @Test
    void readsConsecutiveMessagesThenAsksForMore() throws Exception {
        List<OFMessage> sent = SampleMessages.all();
        var buf = ByteBuffer.allocate(16384);
        for (OFMessage m : sent) {
            m.writeTo(buf);
        }
        buf.put(hex("01 0e 00")).flip();
        var got = new ArrayList<OFMessage>();
        for (OFMessage m; (m = OFMessageReader.read(buf)) != null;) {
            got.add(m);
        }
        assertEquals(sent, got);
        assertEquals(3, buf.remaining());
    }

    @Test
    void lengthBelowTheHeader() {
        rejects("01 00 0000 00000001", "HELLO", "length 0", "at least 8");
        rejects("01 02 0007 00000001", "ECHO_REQUEST", "length 7");
        // Rejected from the header alone: no need to wait for a body that is never coming.
        rejects("01 0e 0010 00000001", "FLOW_MOD", "length 16", "at least 72");
    }

    @Test
    void lengthBelowOrBeyondTheFixedSize() {
        rejects("01 0a 0011 00000001 | 00000100 0000 0001 00", "PACKET_IN", "at least 18");
        rejects("01 0d 000f 00000001 | 00000100 0001 00", "PACKET_OUT", "at least 16");
        rejects("01 12 0009 00000001 | 00", "BARRIER_REQUEST", "must be 8");
        rejects("01 09 000d 00000001 | 0000 0080 00", "SET_CONFIG", "must be 12");
        rejects("01 0b 0059 00000001 | " + zeros(81), "FLOW_REMOVED", "must be 88");
        rejects("01 06 001f 00000001 | " + zeros(23), "FEATURES_REPLY", "at least 32");
        rejects("01 11 000b 00000001 | 000000", "STATS_REPLY", "at least 12");
    }

    @Test
    void unknownTypes() {
        rejects("01 16 0008 00000001", "unknown message type 22");
        rejects("01 ff 0008 00000001", "unknown message type 255");
    }

    @Test
    void onlyHelloMayHaveAnotherVersion() throws Exception {
        rejects("04 05 0008 00000001", "FEATURES_REQUEST", "version 4");
        rejects("00 02 0008 00000001", "ECHO_REQUEST", "version 0");
        var hello = (OFHello) OFMessageReader.read(ByteBuffer.wrap(hex("06 00 0008 00000001")));
        assertEquals(6, hello.version());
    }

    @Test
    void bodiesThatDoNotAddUp() {
        rejects("01 06 0054 00000001 | 0000000000000001 00000100 fe 000000 000000c7 00000fff | " + PORT1 + " 00000000",
                "FEATURES_REPLY", "not a multiple of 48");
        rejects("01 0d 0018 00000001 | 00000100 0001 0010 | " + OUT2, "PACKET_OUT", "actions_len 16");
        rejects("01 0a 0022 00000001 | 00000100 003c 0001 07 00 | " + FRAME, "PACKET_IN", "reason 7");
        rejects("01 0e 0048 00000001 | " + M1 + " | 0000000000000000 0005 0005 0000 8000 ffffffff ffff 0000",
                "FLOW_MOD", "command 5");
        rejects("01 0b 0058 00000001 | " + M1 + " | 0000000000000abc 8000 03 00 0000000a 00000100 0005 0000"
                + " 0000000000000010 0000000000000640", "FLOW_REMOVED", "reason 3");
        rejects("01 0c 0040 00000001 | 03 00000000000000 | " + PORT1, "PORT_STATUS", "reason 3");
        rejects("01 04 0014 00000001 | 00002320 0000000a 00000003", "VENDOR", "role 3");
        rejects("01 04 0018 00000001 | 00002320 0000000b 00000001 00000000", "VENDOR", "must be 20");
        rejects("01 10 000c 00000001 | 0006 0000", "STATS_REQUEST", "unknown stats type 6");
        rejects("01 11 000c 00000001 | fffe 0000", "STATS_REPLY", "unknown stats type 65534");
        rejects("01 10 0010 00000001 | 0000 0000 | 00000000", "STATS_REQUEST", "DESC", "must be 0");
        rejects("01 11 002c 00000001 | 0000 0000 | " + zeros(32), "STATS_REPLY", "DESC", "must be 1056");
        rejects("01 10 0014 00000001 | 0001 0000 | " + zeros(8), "STATS_REQUEST", "FLOW", "must be 44");
        rejects("01 11 0020 00000001 | 0002 0000 | " + zeros(20), "STATS_REPLY", "AGGREGATE", "must be 24");
        rejects("01 11 0050 00000001 | 0003 0000 | " + zeros(68), "STATS_REPLY", "TABLE", "multiple of the 64");
        rejects("01 11 0070 00000001 | 0004 0000 | " + zeros(100), "STATS_REPLY", "PORT", "multiple of the 104");
        rejects("01 11 002d 00000001 | 0005 0000 | " + zeros(33), "STATS_REPLY", "QUEUE", "multiple of the 32");
        rejects("01 11 000f 00000001 | ffff 0000 | 000023", "STATS_REPLY", "vendor id");
        rejects("01 15 0018 00000001 | 0001 000000000000 | 00000001 0009 0000", "QUEUE_GET_CONFIG_REPLY",
                "queue length 9");
        rejects("01 15 0014 00000001 | 0001 000000000000 | 00000001", "QUEUE_GET_CONFIG_REPLY", "queue needs 8");
        rejects("01 15 0028 00000001 | 0001 000000000000 | 00000001 0018 0000 | 0002 0010 00000000 01f4 000000000000",
                "QUEUE_GET_CONFIG_REPLY", "unknown queue property type 2");
        rejects("01 15 0028 00000001 | 0001 000000000000 | 00000001 0018 0000 | 0001 0008 00000000 0000 000000000000",
                "QUEUE_GET_CONFIG_REPLY", "length 8, must be 16");
    }

    @Test
    void zeroLengthsInsideBodiesEndInAnError() {
        // Flow stats entry of length 0: a naive loop would never advance.
        rejects("01 11 0064 00000001 | 0001 0000 | 0000 00 00 " + zeros(84), "STATS_REPLY",
                "flow stats entry length 0");
        // An entry claiming more than is left.
        rejects("01 11 0064 00000001 | 0001 0000 | 0060 00 00 " + zeros(84), "STATS_REPLY", "not within 88..88");
        // Fewer bytes left than an entry.
        rejects("01 11 0014 00000001 | 0001 0000 | 0008 00 00 00000000", "STATS_REPLY", "needs 88");
        // Queue of length 0, property of length 0.
        rejects("01 15 0018 00000001 | 0001 000000000000 | 00000001 0000 0000", "QUEUE_GET_CONFIG_REPLY",
                "queue length 0");
        rejects("01 15 0020 00000001 | 0001 000000000000 | 00000001 0010 0000 | 0001 0000 00000000",
                "QUEUE_GET_CONFIG_REPLY", "length 0");
    }

    @Test
    void actionListsThatDoNotAddUpAreRejected() {
        // FLOW_MOD whose action claims 16 bytes where 8 remain, and one whose action has length 0.
        rejects("01 0e 0050 00000001 | " + M1 + " | 0000000000000000 0000 0005 0000 8000 ffffffff ffff 0000"
                + " | 0000 0010 0002 0000", "FLOW_MOD");
        rejects("01 0e 0050 00000001 | " + M1 + " | 0000000000000000 0000 0005 0000 8000 ffffffff ffff 0000"
                + " | 0000 0000 0002 0000", "FLOW_MOD");
        // Flow stats entry whose actions do not fill it.
        rejects("01 11 0068 00000001 | 0001 0000 | 005c 00 00 | " + M1 + " | " + zeros(44) + " | 0000 0008",
                "STATS_REPLY");
    }

    @Test
    void anErrorDoesNotMoveThePositionOfALaterMessage() throws Exception {
        var buf = ByteBuffer.wrap(hex("01 12 0008 00000001 | 01 16 0008 00000002"));
        assertInstanceOf(OFBarrierRequest.class, OFMessageReader.read(buf));
        assertEquals(8, buf.position());
        assertThrows(OFParseException.class, () -> OFMessageReader.read(buf));
        assertEquals(8, buf.position());
    }

    @Test
    void readsFromDirectBuffers() throws Exception {
        byte[] b = hex("01 0a 0022 0000000a | 00000100 | 003c | 0001 | 00 | 00 | " + FRAME);
        var direct = ByteBuffer.allocateDirect(64).put(b).flip();
        var pi = (OFPacketIn) OFMessageReader.read(direct);
        assertArrayEquals(hex(FRAME), pi.frameBytes());
        assertArrayEquals(b, pi.toByteArray());
    }

    @Test
    void readOnlyInputBuffersWork() throws Exception {
        byte[] b = hex("01 0a 0022 0000000a | 00000100 | 003c | 0001 | 00 | 00 | " + FRAME);
        var pi = (OFPacketIn) OFMessageReader.read(ByteBuffer.wrap(b).asReadOnlyBuffer());
        assertArrayEquals(b, pi.toByteArray());
    }

    @Test
    void littleEndianBuffersAreAProgrammingError() {
        var buf = ByteBuffer.wrap(hex("01 00 0008 00000001")).order(ByteOrder.LITTLE_ENDIAN);
        assertThrows(IllegalArgumentException.class, () -> OFMessageReader.read(buf));
    }

    @Test
    void writingIntoATooSmallBufferWritesNothing() {
        var fm = OFFlowMod.builder().actions(List.of(new OFActionOutput(1, 0))).build();
        var buf = ByteBuffer.allocate(79);
        buf.position(1);
        assertThrows(BufferOverflowException.class, () -> fm.writeTo(buf));
        assertEquals(1, buf.position());
        assertArrayEquals(new byte[79], buf.array());
    }

    @Test
    void constructorsRejectValuesThatDoNotFitTheirField() {
        assertThrows(IllegalArgumentException.class, () -> new OFSetConfig(1, 0x10000, 0));
        assertThrows(IllegalArgumentException.class, () -> new OFSetConfig(1, 0, -1));
        assertThrows(IllegalArgumentException.class, () -> OFFlowMod.builder().idleTimeout(70000).build());
        assertThrows(IllegalArgumentException.class, () -> OFFlowMod.builder().bufferId(0x1_0000_0000L).build());
        assertThrows(IllegalArgumentException.class, () -> OFFlowMod.builder().bufferId(-1).build());
        assertThrows(IllegalArgumentException.class, () -> new OFHello(1, 256, OFData.EMPTY));
        assertThrows(IllegalArgumentException.class,
                () -> new OFPhysicalPort(1, 1L << 48, "eth0", 0, 0, 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class,
                () -> new OFPhysicalPort(1, 1, "a-name-of-17-char", 0, 0, 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new OFPhysicalPort(1, 1, "eth\0", 0, 0, 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new OFPhysicalPort(1, 1, "\u20ac", 0, 0, 0, 0, 0, 0));
        var justFits = new OFEchoRequest(1, OFData.of(new byte[0xffff - 8]));
        assertEquals(0xffff, justFits.length());
        var e = assertThrows(IllegalArgumentException.class,
                () -> new OFEchoRequest(1, OFData.of(new byte[0xffff - 7])));
        assertTrue(e.getMessage().contains("65536"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> OFPacketOut.unbuffered(1, 1, List.of(),
                ByteBuffer.allocate(0xffff - 15)));
    }

    @Test
    void ports16CharactersLongAndLatin1NamesRoundTrip() throws Exception {
        var p = new OFPhysicalPort(1, 1, "sixteen-chars-xy", 0, 0, 0, 0, 0, 0);
        var m = new OFPortStatus(1, OFPortStatus.Reason.ADD, p);
        assertEquals(m, OFMessageReader.read(ByteBuffer.wrap(m.toByteArray())));
        var latin = new OFPortStatus(1, OFPortStatus.Reason.ADD, new OFPhysicalPort(1, 1, "p\u00e9", 0, 0, 0, 0, 0, 0));
        assertEquals(latin, OFMessageReader.read(ByteBuffer.wrap(latin.toByteArray())));
    }
}
