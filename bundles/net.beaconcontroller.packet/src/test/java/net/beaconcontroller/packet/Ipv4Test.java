package net.beaconcontroller.packet;

import static net.beaconcontroller.packet.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import net.beaconcontroller.util.IPv4Address;
import org.junit.jupiter.api.Test;

class Ipv4Test {
    private static final int IP1 = IPv4Address.parse("10.0.0.1");
    private static final int IP2 = IPv4Address.parse("10.0.0.2");

    @Test
    void pingRequestHeader() throws Exception {
        byte[] frame = hex(Vectors.PING_REQUEST);
        var ip = assertInstanceOf(Ipv4.class, Ethernet.parse(frame).payload());
        assertEquals(0, ip.tos());
        assertEquals(84, ip.totalLength());
        assertEquals(20, ip.headerLength());
        assertEquals(0x1c46, ip.identification());
        assertTrue(ip.dontFragment());
        assertFalse(ip.moreFragments());
        assertFalse(ip.isFragment());
        assertEquals(64, ip.ttl());
        assertEquals(Ipv4.PROTOCOL_ICMP, ip.protocol());
        assertEquals(0x0a61, ip.headerChecksum());
        assertEquals(IP1, ip.source());
        assertEquals(IP2, ip.destination());
        assertTrue(ip.checksumValid());
        assertEquals(0x0a61, ip.computeHeaderChecksum());
        assertArrayEquals(Arrays.copyOfRange(frame, 14, frame.length), ip.serialize());
        assertEquals(ip, Ipv4.parse(ip.serialize()));
    }

    @Test
    void headerChecksumMatchesAHandComputedExample() {
        // 4500 0073 0000 4000 4011 [b861] c0a8 0001 c0a8 00c7: words sum to 0x2479c, folded 0x479e, complement b861.
        var ip = new Ipv4(0, 0, Ipv4.FLAG_DF, 0, 64, Ipv4.PROTOCOL_UDP, 0, IPv4Address.parse("192.168.0.1"),
                IPv4Address.parse("192.168.0.199"), Bytes.EMPTY, new Data(Bytes.zeros(0x73 - 20)));
        assertEquals(0xb861, ip.computeHeaderChecksum());
        assertArrayEquals(hex("4500007300004000" + "4011b861c0a80001c0a800c7"),
                Arrays.copyOf(ip.serialize(), 20));
    }

    @Test
    void optionsAndUnknownProtocol() throws Exception {
        byte[] frame = hex(Vectors.IGMP_RA);
        var ip = assertInstanceOf(Ipv4.class, Ethernet.parse(frame).payload());
        assertEquals(24, ip.headerLength());
        assertEquals(Bytes.fromHex("94040000"), ip.options());
        assertEquals(0xc0, ip.tos());
        assertEquals(48, ip.dscp());
        assertEquals(0, ip.ecn());
        assertEquals(1, ip.ttl());
        assertEquals(2, ip.protocol());
        assertEquals(Data.of(hex("160900fae00000fb")), ip.payload());
        assertTrue(ip.checksumsValid());
        assertArrayEquals(frame, Ethernet.parse(frame).serialize());

        var built = Ipv4.builder().tos(0xc0).flags(Ipv4.FLAG_DF).ttl(1).protocol(2).source(IP1)
                .destination(IPv4Address.parse("224.0.0.251")).options(Bytes.fromHex("94040000"))
                .payload(Data.of(hex("160900fae00000fb"))).build();
        assertEquals(ip, built);
    }

    @Test
    void bytesAfterTheTotalLengthBecomeTheFrameTrailer() throws Exception {
        byte[] frame = hex(Vectors.IGMP_RA + "00".repeat(14));
        Ethernet e = Ethernet.parse(frame);
        assertEquals(32, e.payload().length());
        assertEquals(Bytes.zeros(14), e.trailer());
        assertArrayEquals(frame, e.serialize());
    }

    @Test
    void fragmentsKeepTheirPayloadRaw() throws Exception {
        var first = (Ipv4) Ethernet.parse(hex(Vectors.FRAG0)).payload();
        var middle = (Ipv4) Ethernet.parse(hex(Vectors.FRAG1)).payload();
        var last = (Ipv4) Ethernet.parse(hex(Vectors.FRAG2)).payload();
        assertTrue(first.moreFragments());
        assertEquals(0, first.fragmentOffset());
        assertTrue(first.isFragment());
        // the first fragment holds the UDP header (1111 > 2222, length 68) but not the whole datagram
        assertEquals(Data.of(hex("045708ae0044c040" + "78".repeat(24))), first.payload());
        assertEquals(4, middle.fragmentOffset());
        assertTrue(middle.moreFragments());
        assertEquals(8, last.fragmentOffset());
        assertFalse(last.moreFragments());
        assertTrue(last.isFragment());
        assertEquals(4, last.payload().length());
        for (String v : new String[] {Vectors.FRAG0, Vectors.FRAG1, Vectors.FRAG2}) {
            assertArrayEquals(hex(v), Ethernet.parse(hex(v)).serialize());
            assertTrue(((Ipv4) Ethernet.parse(hex(v)).payload()).checksumsValid());
        }
    }

    @Test
    void aBadHeaderChecksumIsReportedNotRejected() throws Exception {
        byte[] frame = hex(Vectors.PING_REQUEST);
        frame[24] ^= 0x01;
        var ip = (Ipv4) Ethernet.parse(frame).payload();
        assertEquals(0x0b61, ip.headerChecksum());
        assertFalse(ip.checksumValid());
        assertFalse(ip.checksumsValid());
        assertTrue(ip.toString().contains("checksum 0x0b61 (bad)"), ip.toString());
        // serializing writes the right checksum again
        assertArrayEquals(hex(Vectors.PING_REQUEST), Ethernet.parse(frame).serialize());
    }

    @Test
    void malformedHeadersGiveClearErrors() {
        String good = "450000541c46400040010a610a0000010a000002";
        assertError("IPv4 header needs 20 bytes, only 19 present", good.substring(0, 38));
        assertError("IPv4 version field is 6, expected 4", "65" + good.substring(2));
        assertError("IPv4 header length (IHL) 4 is below the minimum 5", "44" + good.substring(2));
        assertError("IPv4 header with options (IHL 15) needs 60 bytes, only 20 present", "4f" + good.substring(2));
        assertError("IPv4 total length 84 exceeds the 20 bytes present", good);
        assertError("IPv4 total length 19 is shorter than its 20-byte header", "45000013" + good.substring(8));
    }

    private static void assertError(String message, String hex) {
        var e = assertThrows(PacketParseException.class, () -> Ipv4.parse(hex(hex)));
        assertEquals(message, e.getMessage());
    }

    @Test
    void builderAndConstructorChecks() {
        assertThrows(IllegalStateException.class, () -> Ipv4.builder().payload(Data.of((byte) 1)).build());
        var tcp = Tcp.builder().build();
        assertThrows(IllegalArgumentException.class, () -> Ipv4.builder().protocol(17).payload(tcp).build());
        assertThrows(IllegalArgumentException.class, () -> Ipv4.builder().protocol(99).options(Bytes.zeros(3)).build());
        assertThrows(IllegalArgumentException.class,
                () -> Ipv4.builder().protocol(99).options(Bytes.zeros(44)).build());
        assertThrows(IllegalArgumentException.class,
                () -> Ipv4.builder().protocol(99).payload(new Data(Bytes.zeros(65516))).build());
        assertThrows(IllegalArgumentException.class, () -> Ipv4.builder().ttl(256).protocol(1).build());
    }

    @Test
    void toBuilderReproducesAParsedPacket() throws Exception {
        var ip = (Ipv4) Ethernet.parse(hex(Vectors.TCP_SYN)).payload();
        assertEquals(ip, ip.toBuilder().build());
    }
}
