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

class UdpTest {
    private static final int IP1 = IPv4Address.parse("10.0.0.1");
    private static final int IP2 = IPv4Address.parse("10.0.0.2");
    private static final int DNS = IPv4Address.parse("10.0.0.53");
    /** A DNS query for example.com, type A. */
    private static final String QUERY = "beef01000001000000000000076578616d706c6503636f6d0000010001";

    @Test
    void dnsQuery() throws Exception {
        byte[] frame = hex(Vectors.UDP_DNS);
        Ethernet e = Ethernet.parse(frame);
        var ip = (Ipv4) e.payload();
        var udp = assertInstanceOf(Udp.class, ip.payload());
        assertEquals(53421, udp.sourcePort());
        assertEquals(53, udp.destinationPort());
        assertEquals(37, udp.length());
        assertEquals(0x8c2e, udp.checksum());
        assertTrue(udp.hasChecksum());
        assertTrue(udp.checksumValid(IP1, DNS));
        assertEquals(0x8c2e, udp.computeChecksum(IP1, DNS));
        assertEquals(Data.of(hex(QUERY)), udp.payload());
        assertArrayEquals(frame, e.serialize());
        assertArrayEquals(Arrays.copyOfRange(frame, 34, frame.length), udp.serialize(IP1, DNS));
        assertEquals(udp, Udp.parse(udp.serialize(IP1, DNS)));

        var built = Ethernet.of(e.destination(), e.source(), Ipv4.builder().identification(0x2f3e).source(IP1)
                .destination(DNS).payload(Udp.of(53421, 53, Data.of(hex(QUERY)))).build());
        assertEquals(e, built);
    }

    @Test
    void zeroChecksumMeansNoneAndStaysNone() throws Exception {
        byte[] frame = hex(Vectors.UDP_NOCSUM);
        var ip = (Ipv4) Ethernet.parse(frame).payload();
        var udp = (Udp) ip.payload();
        assertFalse(udp.hasChecksum());
        assertTrue(udp.checksumValid(IP1, IP2));
        assertTrue(ip.checksumsValid());
        assertEquals("UDP[5000 > 6000, checksum none, Data[5 bytes: 68656c6c6f]]", udp.toString());
        assertArrayEquals(frame, Ethernet.parse(frame).serialize());
        assertEquals(udp, Udp.withoutChecksum(5000, 6000, Data.of("hello".getBytes())));
        var built = Ipv4.builder().identification(7).source(IP1).destination(IP2).payload(udp).build();
        assertEquals(ip, built);
    }

    @Test
    void aComputedZeroIsSentAsAllOnes() throws Exception {
        // Choose the last data word so that the one's complement sum becomes 0xffff: the checksum would be 0,
        // which UDP cannot send because 0 means "none".
        var probe = Udp.of(1000, 2000, Data.of(new byte[] {1, 2, 3, 4, 0, 0}));
        int c = probe.computeChecksum(IP1, IP2);
        var udp = Udp.of(1000, 2000, Data.of(new byte[] {1, 2, 3, 4, (byte) (c >>> 8), (byte) c}));
        assertEquals(0xffff, udp.computeChecksum(IP1, IP2));
        byte[] wire = udp.serialize(IP1, IP2);
        assertEquals((byte) 0xff, wire[6]);
        assertEquals((byte) 0xff, wire[7]);
        assertTrue(Udp.parse(wire).checksumValid(IP1, IP2));
    }

    @Test
    void badChecksumIsReported() throws Exception {
        byte[] frame = hex(Vectors.UDP_DNS);
        frame[frame.length - 1] ^= 0x40;
        var ip = (Ipv4) Ethernet.parse(frame).payload();
        assertTrue(ip.checksumValid());
        assertFalse(((Udp) ip.payload()).checksumValid(IP1, DNS));
        assertFalse(ip.checksumsValid());
    }

    @Test
    void lengthFieldMustMatchTheIpPayload() {
        assertError("UDP header needs 8 bytes, only 7 present", "d0ad0035000d8c");
        assertError("UDP length 7 is shorter than the 8-byte header", "d0ad003500078c2e");
        assertError("UDP length 13 disagrees with the 8 bytes the IP packet carries", "d0ad0035000d8c2e");
        assertError("UDP length 8 disagrees with the 9 bytes the IP packet carries", "d0ad003500088c2e00");
    }

    private static void assertError(String message, String hex) {
        var e = assertThrows(PacketParseException.class, () -> Udp.parse(hex(hex)));
        assertEquals(message, e.getMessage());
    }

    @Test
    void portsAndLengthAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> Udp.of(65536, 1, Data.EMPTY));
        assertThrows(IllegalArgumentException.class, () -> Udp.of(1, 1, new Data(Bytes.zeros(65528))));
    }
}
