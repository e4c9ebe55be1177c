package net.beaconcontroller.packet;

import static net.beaconcontroller.packet.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;
import org.junit.jupiter.api.Test;

class EthernetTest {
    private static final long HOST1 = MacAddress.parse("52:54:00:12:34:56");
    private static final long HOST2 = MacAddress.parse("52:54:00:ab:cd:ef");

    @Test
    void arpRequestKeepsTheZeroPaddingAsTrailer() throws Exception {
        byte[] frame = hex(Vectors.ARP_REQUEST);
        Ethernet e = Ethernet.parse(frame);
        assertEquals(MacAddress.BROADCAST, e.destination());
        assertEquals(HOST1, e.source());
        assertNull(e.vlan());
        assertEquals(Ethernet.TYPE_ARP, e.etherType());
        assertInstanceOf(Arp.class, e.payload());
        assertEquals(Bytes.zeros(18), e.trailer());
        assertEquals(60, e.length());
        assertArrayEquals(frame, e.serialize());

        var built = Ethernet.of(MacAddress.BROADCAST, HOST1,
                Arp.request(HOST1, IPv4Address.parse("10.0.0.1"), IPv4Address.parse("10.0.0.2")));
        assertEquals(42, built.length());
        assertEquals(e, built.padded());
        assertArrayEquals(frame, built.padded().serialize());
    }

    @Test
    void paddedLeavesLongFramesAlone() throws Exception {
        Ethernet e = Ethernet.parse(hex(Vectors.PING_REQUEST));
        assertSame(e, e.padded());
    }

    @Test
    void vlanTaggedFrame() throws Exception {
        byte[] frame = hex(Vectors.VLAN_PING);
        Ethernet e = Ethernet.parse(frame);
        assertEquals(new VlanTag(5, false, 100), e.vlan());
        assertEquals(0xa064, e.vlan().tci());
        assertEquals(Ethernet.TYPE_IPV4, e.etherType());
        assertEquals(18, e.headerLength());
        var ip = assertInstanceOf(Ipv4.class, e.payload());
        var icmp = assertInstanceOf(Icmp.class, ip.payload());
        assertEquals(Data.of("abcdefgh".getBytes()), icmp.payload());
        assertTrue(ip.checksumsValid());
        assertArrayEquals(frame, e.serialize());

        var built = Ethernet.builder().destination(HOST2).source(HOST1).vlan(new VlanTag(5, false, 100))
                .payload(Ipv4.builder().identification(1).source(IPv4Address.parse("10.0.0.1"))
                        .destination(IPv4Address.parse("10.0.0.2"))
                        .payload(Icmp.echoRequest(1, 2, Data.of("abcdefgh".getBytes()))).build())
                .build();
        assertEquals(e, built);
        assertArrayEquals(frame, built.serialize());
    }

    @Test
    void vlanTagFields() {
        var tag = VlanTag.fromTci(0xf123);
        assertEquals(7, tag.priority());
        assertTrue(tag.cfi());
        assertEquals(0x123, tag.vlanId());
        assertEquals(0xf123, tag.tci());
        assertEquals("vlan 291 pcp 7 cfi", tag.toString());
        assertThrows(IllegalArgumentException.class, () -> VlanTag.of(4096));
        assertThrows(IllegalArgumentException.class, () -> new VlanTag(8, false, 1));
    }

    @Test
    void ieee8023FrameIsRecognisedByItsLengthField() throws Exception {
        byte[] frame = hex(Vectors.STP_BPDU);
        Ethernet e = Ethernet.parse(frame);
        assertTrue(e.isLengthFrame());
        assertEquals(0x26, e.etherType());
        var llc = assertInstanceOf(Data.class, e.payload());
        assertEquals(38, llc.length());
        assertEquals(0x42, llc.bytes().get(0));
        assertTrue(e.trailer().isEmpty());
        assertArrayEquals(frame, e.serialize());
        assertEquals(e, Ethernet.ieee8023(e.destination(), e.source(), llc));
        assertTrue(e.toString().contains("802.3 length 38"), e.toString());
    }

    @Test
    void ieee8023PaddingBeyondTheLengthIsTrailer() throws Exception {
        var frame = hex("0180c2000000" + "525400123456" + "0003" + "424203" + "00".repeat(43));
        Ethernet e = Ethernet.parse(frame);
        assertEquals(Data.of((byte) 0x42, (byte) 0x42, (byte) 3), e.payload());
        assertEquals(43, e.trailer().length());
        assertArrayEquals(frame, e.serialize());
    }

    @Test
    void unknownEtherTypeStaysRaw() throws Exception {
        var frame = hex("ffffffffffff" + "525400123456" + "86dd" + "6000000000003afffe80");
        Ethernet e = Ethernet.parse(frame);
        assertEquals(Ethernet.TYPE_IPV6, e.etherType());
        assertEquals(Data.of(hex("6000000000003afffe80")), e.payload());
        assertArrayEquals(frame, e.serialize());
    }

    @Test
    void malformedFramesGiveClearErrors() {
        assertError("Ethernet header needs 14 bytes, only 13 present", "ffffffffffff525400123456" + "08");
        assertError("802.1Q tagged Ethernet header needs 18 bytes, only 16 present",
                "ffffffffffff525400123456" + "81000064");
        assertError("802.3 length field 100 exceeds the 2 bytes after the header",
                "ffffffffffff525400123456" + "0064" + "4242");
        assertError("ARP header needs 8 bytes, only 4 present", "ffffffffffff525400123456" + "0806" + "00010800");
    }

    private static void assertError(String message, String hex) {
        var e = assertThrows(PacketParseException.class, () -> Ethernet.parse(hex(hex)));
        assertEquals(message, e.getMessage());
    }

    @Test
    void parsesAFrameInsideALargerBuffer() throws Exception {
        byte[] frame = hex(Vectors.ARP_REPLY);
        var buf = new byte[frame.length + 10];
        System.arraycopy(frame, 0, buf, 7, frame.length);
        assertEquals(Ethernet.parse(frame), Ethernet.parse(buf, 7, frame.length));
        assertThrows(IndexOutOfBoundsException.class, () -> Ethernet.parse(buf, 7, buf.length));
    }

    @Test
    void builderDerivesTheEtherTypeAndInsistsOnItForData() {
        assertThrows(IllegalStateException.class,
                () -> Ethernet.builder().destination(HOST2).source(HOST1).payload(Data.of((byte) 1)).build());
        var e = Ethernet.builder().destination(HOST2).source(HOST1).etherType(0x88b5).payload(Data.of((byte) 1))
                .build();
        assertEquals(0x88b5, e.etherType());
        assertEquals(e, e.toBuilder().build());
    }

    @Test
    void constructorRejectsContradictions() {
        var arp = Arp.request(HOST1, 1, 2);
        assertThrows(IllegalArgumentException.class,
                () -> new Ethernet(HOST2, HOST1, null, Ethernet.TYPE_IPV4, arp, Bytes.EMPTY));
        assertThrows(IllegalArgumentException.class,
                () -> new Ethernet(HOST2, HOST1, null, Ethernet.TYPE_VLAN, Data.EMPTY, Bytes.EMPTY));
        assertThrows(IllegalArgumentException.class,
                () -> new Ethernet(HOST2, HOST1, null, 10, Data.of((byte) 1), Bytes.EMPTY));
        assertThrows(IllegalArgumentException.class,
                () -> new Ethernet(1L << 48, HOST1, null, Ethernet.TYPE_ARP, arp, Bytes.EMPTY));
    }

    @Test
    void toStringIsReadable() throws Exception {
        String s = Ethernet.parse(hex(Vectors.ARP_REQUEST)).toString();
        assertEquals("Ethernet[52:54:00:12:34:56 > ff:ff:ff:ff:ff:ff, type 0x0806, "
                + "ARP[request who-has 10.0.0.2 tell 10.0.0.1 (52:54:00:12:34:56)], trailer 18 bytes]", s);
        assertTrue(Ethernet.parse(hex(Vectors.VLAN_PING)).toString().contains(", vlan 100 pcp 5, type 0x0800, IPv4["));
    }
}
