package net.beaconcontroller.openflow.action;

import static net.beaconcontroller.openflow.action.ActionFixtures.bytes;
import static net.beaconcontroller.openflow.action.ActionFixtures.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.OFPort;

/** The wire form of every action, byte for byte from the OpenFlow 1.0.0 structures, and malformed input. */
class OFActionsTest {
    /** Hand-written from the specification's structs: type, len, fields, padding. */
    static Stream<Arguments> vectors() {
        return Stream.of(
                Arguments.of("0000 0008 0002 0000", new OFActionOutput(2, 0)),
                Arguments.of("0000 0008 fffd ffff", OFActionOutput.toController(0xffff)),
                Arguments.of("0000 0008 fff8 0080", new OFActionOutput(OFPort.IN_PORT, 128)),
                Arguments.of("0001 0008 0fff 0000", new OFActionSetVlanVid(4095)),
                Arguments.of("0002 0008 07 000000", new OFActionSetVlanPcp(7)),
                Arguments.of("0003 0008 00000000", new OFActionStripVlan()),
                Arguments.of("0004 0010 fedcba987654 000000000000", new OFActionSetDlSrc(0xfedcba987654L)),
                Arguments.of("0005 0010 000000000001 000000000000", new OFActionSetDlDst(1L)),
                Arguments.of("0006 0008 c0a80001", new OFActionSetNwSrc(0xc0a80001)),
                Arguments.of("0007 0008 ffffffff", new OFActionSetNwDst(0xffffffff)),
                Arguments.of("0008 0008 fc 000000", new OFActionSetNwTos(0xfc)),
                Arguments.of("0009 0008 ffff 0000", new OFActionSetTpSrc(65535)),
                Arguments.of("000a 0008 01bb 0000", new OFActionSetTpDst(443)),
                Arguments.of("000b 0010 0003 000000000000 fffffffe", new OFActionEnqueue(3, 0xfffffffeL)),
                Arguments.of("ffff 0008 00002320", new OFActionVendor(0x2320, new byte[0])),
                Arguments.of("ffff 0010 00002320 0012000000000000",
                        new OFActionVendor(0x2320, hex("0012000000000000"))),
                Arguments.of("ffff 0018 ff5c16c7 0102030405060708 f1f2f3f4f5f6f7f8",
                        new OFActionVendor(0xff5c16c7, hex("0102030405060708f1f2f3f4f5f6f7f8"))));
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void readsWritesAndMeasuresEveryAction(String vector, OFAction expected) throws Exception {
        byte[] wire = hex(vector);
        var buf = ByteBuffer.wrap(wire);
        OFAction read = OFAction.readFrom(buf);
        assertEquals(expected, read);
        assertEquals(wire.length, buf.position());
        assertEquals(wire.length, read.length());
        assertEquals(ByteBuffer.wrap(wire).getShort(0) & 0xffff, read.type());
        assertArrayEquals(wire, bytes(read));
        assertArrayEquals(wire, bytes(expected));
    }

    @Test
    void aListReadsWritesAndMeasuresInOrder() throws Exception {
        var all = new ArrayList<OFAction>();
        var wire = new StringBuilder();
        vectors().forEach(a -> {
            wire.append(a.get()[0]);
            all.add((OFAction) a.get()[1]);
        });
        byte[] bytes = hex(wire.toString());
        assertEquals(bytes.length, OFActions.totalLength(all));
        var buf = ByteBuffer.allocate(bytes.length + 10);
        buf.position(5);
        buf.put(bytes).position(5);
        assertEquals(all, OFActions.readList(buf, bytes.length));
        assertEquals(5 + bytes.length, buf.position());
        assertArrayEquals(bytes, bytes(all));
    }

    @Test
    void anEmptyListIsZeroBytes() throws Exception {
        var buf = ByteBuffer.allocate(4);
        assertEquals(List.of(), OFActions.readList(buf, 0));
        assertEquals(0, buf.position());
        assertEquals(0, OFActions.totalLength(List.of()));
        OFActions.writeList(buf, List.of());
        assertEquals(0, buf.position());
    }

    @Test
    void readListGivesAnImmutableList() throws Exception {
        List<OFAction> list = OFActions.readList(ByteBuffer.wrap(hex("0000 0008 0002 0000")), 8);
        assertThrows(UnsupportedOperationException.class, () -> list.add(new OFActionStripVlan()));
    }

    @Test
    void writeListWritesNothingWhenTheActionsDoNotFit() {
        var buf = ByteBuffer.allocate(15);
        assertThrows(BufferOverflowException.class, () -> OFActions.writeList(buf,
                List.of(OFActionOutput.to(1), new OFActionStripVlan())));
        assertEquals(0, buf.position());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "zero length, which must not loop          | 0000 0000 0002 0000              | 8  | length 0",
        "length below 8                             | 0000 0004 0002 0000              | 8  | length 4",
        "length not a multiple of 8                 | ffff 000c 00002320 00000000      | 12 | length 12",
        "length past the list                       | 0000 0010 0002 0000 0000 0008 0001 0000 | 8 | only 8 bytes",
        "truncated header                           | 0000 0008                        | 4  | 4 bytes left",
        "trailing bytes after the last action       | 0003 0008 00000000 0003 0008     | 12 | 4 bytes left",
        "unknown type                               | 000c 0008 00000000               | 8  | unknown action type 12",
        "unknown high type                          | fffe 0008 00000000               | 8  | unknown action type 65534",
        "output of 16 bytes                         | 0000 0010 0002 0000 00000000 00000000 | 16 | not 8",
        "set_dl_src with the length of an output    | 0004 0008 000000000001           | 8  | not 16",
        "enqueue of 24 bytes | 000b 0018 0003 000000000000 00000001 0000000000000000 | 24 | not 16",
        "vlan id above 4095                         | 0001 0008 1000 0000              | 8  | vlanVid",
        "pcp above 7                                | 0002 0008 08 000000              | 8  | vlanPcp",
        "tos with ECN bits                          | 0008 0008 01 000000              | 8  | tos",
    })
    void malformedActionsAreParseErrorsAndMoveNothing(String what, String vector, int listLength, String message) {
        byte[] wire = hex(vector);
        var buf = ByteBuffer.wrap(wire);
        var e = assertThrows(OFParseException.class, () -> OFActions.readList(buf, listLength), what);
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertEquals(0, buf.position());
    }

    @Test
    void aListLengthBeyondTheBufferOrNegativeIsAParseError() {
        var buf = ByteBuffer.wrap(hex("0000 0008 0002 0000"));
        assertThrows(OFParseException.class, () -> OFActions.readList(buf, 16));
        assertThrows(OFParseException.class, () -> OFActions.readList(buf, -8));
        buf.limit(4);
        assertThrows(OFParseException.class, () -> OFActions.readList(buf, 8));
        assertEquals(0, buf.position());
    }

    @Test
    void readFromIsBoundedByTheLimit() {
        var buf = ByteBuffer.wrap(hex("0004 0010 000000000001 000000000000"));
        buf.limit(8);
        assertThrows(OFParseException.class, () -> OFAction.readFrom(buf));
        assertEquals(0, buf.position());
    }

    @Test
    void aHugeDeclaredLengthAllocatesNothing() {
        var buf = ByteBuffer.wrap(hex("ffff fff8 00002320"));
        var e = assertThrows(OFParseException.class, () -> OFActions.readList(buf, 8));
        assertTrue(e.getMessage().contains("65528"), e.getMessage());
    }

    @Test
    void randomAndMutatedListsEndInBoundedTime() {
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            var r = new Random(42);
            byte[] valid = hex(vectors().map(a -> (String) a.get()[0]).reduce("", String::concat));
            for (int i = 0; i < 200_000; i++) {
                byte[] b;
                if (r.nextBoolean()) {
                    b = new byte[r.nextInt(64)];
                    r.nextBytes(b);
                } else {
                    b = valid.clone();
                    for (int k = r.nextInt(4); k >= 0; k--) {
                        b[r.nextInt(b.length)] = (byte) r.nextInt();
                    }
                }
                var buf = ByteBuffer.wrap(b);
                int length = r.nextInt(b.length + 1);
                try {
                    List<OFAction> actions = OFActions.readList(buf, length);
                    assertEquals(length, buf.position());
                    assertEquals(length, OFActions.totalLength(actions));
                } catch (OFParseException e) {
                    assertEquals(0, buf.position());
                }
            }
        });
    }

    @Test
    void constructorsRangeCheckNamingTheField() {
        assertField("port", () -> new OFActionOutput(0x10000, 0));
        assertField("port", () -> new OFActionOutput(-1, 0));
        assertField("maxLen", () -> new OFActionOutput(1, 0x10000));
        assertField("port", () -> new OFActionEnqueue(0x10000, 0));
        assertField("queueId", () -> new OFActionEnqueue(1, 0x1_0000_0000L));
        assertField("queueId", () -> new OFActionEnqueue(1, -1));
        assertField("vlanVid", () -> new OFActionSetVlanVid(4096));
        assertField("vlanVid", () -> new OFActionSetVlanVid(-1));
        assertField("vlanPcp", () -> new OFActionSetVlanPcp(8));
        assertField("mac", () -> new OFActionSetDlSrc(1L << 48));
        assertField("mac", () -> new OFActionSetDlDst(-1));
        assertField("tos", () -> new OFActionSetNwTos(2));
        assertField("tos", () -> new OFActionSetNwTos(0x100));
        assertField("port", () -> new OFActionSetTpSrc(65536));
        assertField("port", () -> new OFActionSetTpDst(-1));
        assertField("body", () -> new OFActionVendor(1, new byte[7]));
        assertField("body", () -> new OFActionVendor(1, new byte[OFActionVendor.MAX_BODY_LENGTH + 8]));
    }

    @Test
    void theLargestVendorActionFitsTheLengthField() throws Exception {
        var big = new OFActionVendor(7, new byte[OFActionVendor.MAX_BODY_LENGTH]);
        assertEquals(0xfff8, big.length());
        assertEquals(big, OFAction.readFrom(ByteBuffer.wrap(bytes(big))));
    }

    @Test
    void vendorBodiesAreCopiedAndComparedByContent() {
        byte[] body = hex("0102030405060708");
        var v = new OFActionVendor(0x2320, body);
        body[0] = 9;
        assertEquals(1, v.body()[0]);
        v.body()[1] = 9;
        assertEquals(2, v.body()[1]);
        assertEquals(v, new OFActionVendor(0x2320, hex("0102030405060708")));
        assertEquals(v.hashCode(), new OFActionVendor(0x2320, hex("0102030405060708")).hashCode());
        assertNotEquals(v, new OFActionVendor(0x2320, hex("0102030405060709")));
        assertNotEquals(v, new OFActionVendor(0x2321, hex("0102030405060708")));
    }

    private static void assertField(String field, Executable construction) {
        var e = assertThrows(IllegalArgumentException.class, construction);
        assertTrue(e.getMessage().startsWith(field + " "), e.getMessage());
    }
}
