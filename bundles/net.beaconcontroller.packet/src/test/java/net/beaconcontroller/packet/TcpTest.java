package net.beaconcontroller.packet;

import static net.beaconcontroller.packet.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;
import org.junit.jupiter.api.Test;

class TcpTest {
    private static final int IP1 = IPv4Address.parse("10.0.0.1");
    private static final int IP2 = IPv4Address.parse("10.0.0.2");
    /** Linux's SYN options: MSS 1460, SACK permitted, timestamps, NOP, window scale 7. */
    private static final Bytes SYN_OPTIONS = Bytes.fromHex("020405b4 0402 080aac43c8c000000000 01 030307");

    @Test
    void synWithOptions() throws Exception {
        byte[] frame = hex(Vectors.TCP_SYN);
        Ethernet e = Ethernet.parse(frame);
        var ip = (Ipv4) e.payload();
        var tcp = assertInstanceOf(Tcp.class, ip.payload());
        assertEquals(43512, tcp.sourcePort());
        assertEquals(80, tcp.destinationPort());
        assertEquals(0xd3c1a2b4L, tcp.sequence());
        assertEquals(0, tcp.acknowledgment());
        assertEquals(Tcp.SYN, tcp.flags());
        assertTrue(tcp.has(Tcp.SYN));
        assertFalse(tcp.has(Tcp.SYN | Tcp.ACK));
        assertEquals(64240, tcp.window());
        assertEquals(0xa349, tcp.checksum());
        assertEquals(SYN_OPTIONS, tcp.options());
        assertEquals(10, tcp.dataOffset());
        assertEquals(0, tcp.payload().length());
        assertTrue(tcp.checksumValid(IP1, IP2));
        assertFalse(tcp.checksumValid(IP1, IPv4Address.parse("10.0.0.3")));
        assertEquals(0xa349, tcp.computeChecksum(IP1, IP2));
        assertArrayEquals(frame, e.serialize());
        assertArrayEquals(Arrays.copyOfRange(frame, 34, 74), tcp.serialize(IP1, IP2));
        assertEquals(tcp, Tcp.parse(tcp.serialize(IP1, IP2)));

        var built = Ethernet.of(e.destination(), e.source(),
                Ipv4.builder().tos(0x10).identification(0x4a1b).flags(Ipv4.FLAG_DF).source(IP1).destination(IP2)
                        .payload(Tcp.builder().sourcePort(43512).destinationPort(80).sequence(0xd3c1a2b4L)
                                .flags(Tcp.SYN).window(64240).options(SYN_OPTIONS).build())
                        .build());
        assertEquals(e, built);
        assertArrayEquals(frame, built.serialize());
    }

    @Test
    void segmentWithData() throws Exception {
        byte[] frame = hex(Vectors.TCP_SYNACK_DATA);
        var ip = (Ipv4) Ethernet.parse(frame).payload();
        var tcp = (Tcp) ip.payload();
        assertEquals(Tcp.PSH | Tcp.ACK, tcp.flags());
        assertEquals(0xd3c1a2b5L, tcp.acknowledgment());
        assertEquals(509, tcp.window());
        assertEquals(0xbca5, tcp.checksum());
        assertEquals("HTTP/1.0 200 OK\r\n\r\n", tcp.payload().bytes().utf8());
        assertTrue(ip.checksumsValid());
        assertArrayEquals(frame, Ethernet.parse(frame).serialize());
        assertEquals("TCP[80 > 43512 [PSH,ACK], seq 287454020, ack 3552682677, win 509, options 0101080a00000001ac43"
                + "c8c0, checksum 0xbca5, 19 bytes data]", tcp.toString());
    }

    @Test
    void offloadedChecksumIsReportedAndFixedOnSerialize() throws Exception {
        byte[] frame = hex(Vectors.TCP_SYN);
        // what a sender with TX checksum offload hands to a switch: only the pseudo-header sum is filled in
        frame[50] = 0x12;
        frame[51] = 0x34;
        var ip = (Ipv4) Ethernet.parse(frame).payload();
        var tcp = (Tcp) ip.payload();
        assertEquals(0x1234, tcp.checksum());
        assertTrue(ip.checksumValid());
        assertFalse(tcp.checksumValid(IP1, IP2));
        assertFalse(ip.checksumsValid());
        assertArrayEquals(hex(Vectors.TCP_SYN), Ethernet.parse(frame).serialize());
    }

    @Test
    void reservedBitsAndNsSurvive() throws Exception {
        var tcp = Tcp.builder().sourcePort(1).destinationPort(2).flags(0xe00 | Tcp.NS | Tcp.CWR | Tcp.ECE | Tcp.FIN)
                .build();
        var parsed = Tcp.parse(tcp.serialize(IP1, IP2));
        assertEquals(0xfc1, parsed.flags());
        assertTrue(parsed.toString().contains("[FIN,ECE,CWR,NS,reserved 7]"), parsed.toString());
    }

    @Test
    void malformedHeadersGiveClearErrors() {
        String good = "a9f80050d3c1a2b400000000a002faf0a3490000";
        assertError("TCP header needs 20 bytes, only 19 present", good.substring(0, 38));
        assertError("TCP data offset 4 is below the minimum 5", good.substring(0, 24) + "4002" + good.substring(28));
        assertError("TCP data offset 10 (40 bytes) exceeds the 20-byte segment", good);
    }

    private static void assertError(String message, String hex) {
        var e = assertThrows(PacketParseException.class, () -> Tcp.parse(hex(hex)));
        assertEquals(message, e.getMessage());
    }

    @Test
    void aMalformedTcpHeaderFailsTheWholeFrame() {
        byte[] frame = hex(Vectors.TCP_SYN);
        frame[46] = (byte) 0xf0; // data offset 15 = 60 bytes, the segment has 40
        var e = assertThrows(PacketParseException.class, () -> Ethernet.parse(frame));
        assertEquals("TCP data offset 15 (60 bytes) exceeds the 40-byte segment", e.getMessage());
    }

    @Test
    void optionsMustBeWholeWords() {
        assertThrows(IllegalArgumentException.class, () -> Tcp.builder().options(Bytes.zeros(3)).build());
        assertThrows(IllegalArgumentException.class, () -> Tcp.builder().sequence(1L << 32).build());
    }

    @Test
    void builtSegmentRoundTripsThroughAFrame() throws Exception {
        var data = new Data(Bytes.of("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
        var frame = Ethernet.of(MacAddress.parse("00:00:00:00:00:02"), MacAddress.parse("00:00:00:00:00:01"),
                Ipv4.builder().source(IP1).destination(IP2).payload(Tcp.builder().sourcePort(40000)
                        .destinationPort(80).sequence(5).acknowledgment(7).flags(Tcp.ACK | Tcp.PSH).payload(data)
                        .build()).build());
        var parsed = Ethernet.parse(frame.serialize());
        assertEquals(frame, parsed);
        assertTrue(((Ipv4) parsed.payload()).checksumsValid());
        assertEquals(frame.toString(), parsed.toString());
    }
}
