package net.beaconcontroller.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class AddressTextTest {
    @Test
    void macTextAndBytes() {
        long mac = MacAddress.parse("00:1B:21:aa:bb:0c");
        assertEquals(0x001b21aabb0cL, mac);
        assertEquals("00:1b:21:aa:bb:0c", MacAddress.toString(mac));
        assertArrayEquals(new byte[] {0, 0x1b, 0x21, (byte) 0xaa, (byte) 0xbb, 0x0c}, MacAddress.toBytes(mac));
        assertEquals(mac, MacAddress.parse("00-1b-21-aa-bb-0c"));
    }

    @Test
    void multicastBit() {
        assertTrue(MacAddress.isMulticast(MacAddress.BROADCAST));
        assertTrue(MacAddress.isMulticast(MacAddress.parse("01:80:c2:00:00:0e")));
        assertFalse(MacAddress.isMulticast(MacAddress.parse("00:80:c2:00:00:0e")));
    }

    @Test
    void badMacTextIsNamed() {
        for (String bad : new String[] {"", "00:11:22:33:44", "00:11:22:33:44:55:66", "00:11:22:33:44:zz", "0:1:2:3:4:100"}) {
            var e = assertThrows(IllegalArgumentException.class, () -> MacAddress.parse(bad));
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }

    @Property
    void macRoundTrips(@ForAll @LongRange(min = 0, max = 0xffff_ffff_ffffL) long mac) {
        assertEquals(mac, MacAddress.parse(MacAddress.toString(mac)));
        assertEquals(mac, MacAddress.fromBytes(MacAddress.toBytes(mac)));
    }

    @Test
    void macFromABufferReadsSixBytesAtTheIndexAsUnsigned() {
        var buf = ByteBuffer.wrap(new byte[] {1, (byte) 0xf0, (byte) 0xe1, (byte) 0xd2, (byte) 0xc3, (byte) 0xb4,
            (byte) 0xa5, 2});
        buf.position(5);
        assertEquals(0xf0e1d2c3b4a5L, MacAddress.read(buf, 1));
        assertEquals(5, buf.position(), "the position is not moved");
        assertThrows(IndexOutOfBoundsException.class, () -> MacAddress.read(buf.limit(6), 1));
    }

    @Test
    void macIntoABufferAdvancesThePositionAndWritesNothingWhenItDoesNotFit() {
        var buf = ByteBuffer.allocate(9).put((byte) 7);
        assertSame(buf, MacAddress.write(buf, 0xf0e1d2c3b4a5L).put((byte) 8));
        assertArrayEquals(new byte[] {7, (byte) 0xf0, (byte) 0xe1, (byte) 0xd2, (byte) 0xc3, (byte) 0xb4, (byte) 0xa5,
            8, 0}, buf.array());
        var small = ByteBuffer.allocate(5);
        assertThrows(BufferOverflowException.class, () -> MacAddress.write(small, MacAddress.BROADCAST));
        assertEquals(0, small.position());
        assertArrayEquals(new byte[5], small.array());
    }

    @Property
    void macRoundTripsThroughABuffer(@ForAll @LongRange(min = 0, max = 0xffff_ffff_ffffL) long mac) {
        var buf = MacAddress.write(ByteBuffer.allocate(8).putShort((short) -1), mac);
        assertEquals(mac, MacAddress.read(buf, 2));
        assertEquals(mac, MacAddress.fromBytes(buf.array(), 2));
    }

    @Test
    void ipv4TextAndBytes() {
        int ip = IPv4Address.parse("10.0.255.1");
        assertEquals(0x0a00ff01, ip);
        assertEquals("10.0.255.1", IPv4Address.toString(ip));
        assertEquals("255.255.255.255", IPv4Address.toString(-1));
        assertEquals(ip, IPv4Address.fromBytes(IPv4Address.toBytes(ip), 0));
        for (String bad : new String[] {"", "1.2.3", "1.2.3.256", "1.2.3.-1", "a.b.c.d", "1..2.3"}) {
            assertThrows(IllegalArgumentException.class, () -> IPv4Address.parse(bad), bad);
        }
    }

    @Property
    void ipv4RoundTrips(@ForAll int ip) {
        assertEquals(ip, IPv4Address.parse(IPv4Address.toString(ip)));
    }
}
