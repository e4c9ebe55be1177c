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

class IcmpTest {
    /** What iputils ping puts in 56 data bytes: a timestamp, then 0x10, 0x11, ... */
    private static final Data PING_DATA = Data.of(hex("5f2a1c6500000000101112131415161718191a1b1c1d1e1f2021222324252627"
            + "28292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"));

    @Test
    void echoRequest() throws Exception {
        byte[] frame = hex(Vectors.PING_REQUEST);
        Ethernet e = Ethernet.parse(frame);
        var icmp = assertInstanceOf(Icmp.class, ((Ipv4) e.payload()).payload());
        assertEquals(Icmp.ECHO_REQUEST, icmp.type());
        assertEquals(0, icmp.code());
        assertEquals(0xc37c, icmp.checksum());
        assertEquals(0x0d2f, icmp.identifier());
        assertEquals(1, icmp.sequenceNumber());
        assertTrue(icmp.isEcho());
        assertEquals(PING_DATA, icmp.payload());
        assertTrue(icmp.checksumValid());
        assertEquals(icmp, Icmp.echoRequest(0x0d2f, 1, PING_DATA));
        assertArrayEquals(Arrays.copyOfRange(frame, 34, frame.length), icmp.serialize());
        assertArrayEquals(frame, e.serialize());
        assertEquals("ICMP[echo request, code 0, id 3375, seq 1, checksum 0xc37c, 56 bytes data]", icmp.toString());
    }

    @Test
    void echoReplyBuiltFromScratch() throws Exception {
        byte[] frame = hex(Vectors.PING_REPLY);
        Ethernet e = Ethernet.parse(frame);
        var icmp = (Icmp) ((Ipv4) e.payload()).payload();
        assertEquals(Icmp.ECHO_REPLY, icmp.type());
        assertEquals(0xcb7c, icmp.checksum());
        var built = Ethernet.of(e.destination(), e.source(),
                Ipv4.builder().identification(0x9b10).source(IPv4Address.parse("10.0.0.2"))
                        .destination(IPv4Address.parse("10.0.0.1")).payload(Icmp.echoReply(0x0d2f, 1, PING_DATA))
                        .build());
        assertEquals(e, built);
        assertArrayEquals(frame, built.serialize());
    }

    @Test
    void badChecksumIsReportedAndFixedOnSerialize() throws Exception {
        byte[] frame = hex(Vectors.PING_REQUEST);
        frame[frame.length - 1] = 0;
        var icmp = (Icmp) ((Ipv4) Ethernet.parse(frame).payload()).payload();
        assertFalse(icmp.checksumValid());
        assertTrue(icmp.toString().contains("checksum 0xc37c (bad)"), icmp.toString());
        assertTrue(Icmp.parse(icmp.serialize()).checksumValid());
    }

    @Test
    void otherTypesKeepTheRestOfTheHeader() throws Exception {
        // port unreachable: rest of header unused, then the offending IP header + 8 bytes
        var unreachable = Icmp.of(Icmp.DESTINATION_UNREACHABLE, 3, 0, Data.of(hex(
                "4500001c000100004011f9c20a0000020a000001" + "d0ad00350008e3a6")));
        var parsed = Icmp.parse(unreachable.serialize());
        assertEquals(unreachable, parsed);
        assertTrue(parsed.checksumValid());
        assertFalse(parsed.isEcho());
        var redirect = Icmp.of(Icmp.REDIRECT, 1, 0x0a0000feL, Data.EMPTY);
        assertEquals(String.format("ICMP[redirect, code 1, rest 0x0a0000fe, checksum 0x%04x, 0 bytes data]",
                redirect.checksum()), redirect.toString());
    }

    @Test
    void truncated() {
        var e = assertThrows(PacketParseException.class, () -> Icmp.parse(hex("0800c37c0d2f00")));
        assertEquals("ICMP header needs 8 bytes, only 7 present", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Icmp.echoRequest(65536, 0, Data.EMPTY));
    }
}
