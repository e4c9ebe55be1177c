package net.beaconcontroller.packet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class BytesTest {
    @Test
    void valueSemanticsAndDefensiveCopies() {
        byte[] raw = {1, 2, 3};
        Bytes b = Bytes.of(raw);
        raw[0] = 9;
        assertEquals(1, b.get(0));
        b.toArray()[1] = 9;
        assertEquals(2, b.get(1));
        assertEquals(Bytes.fromHex("010203"), b);
        assertEquals(Bytes.fromHex("01 02:03"), b);
        assertEquals(b.hashCode(), Bytes.fromHex("010203").hashCode());
        assertNotEquals(Bytes.fromHex("0102"), b);
        assertSame(Bytes.EMPTY, Bytes.of());
        assertEquals(0xff, Bytes.fromHex("ff").get(0));
    }

    @Test
    void hexAndText() {
        assertEquals("00ff10", Bytes.fromHex("00FF10").toHex());
        assertEquals("héllo", Bytes.utf8("héllo").utf8());
        assertThrows(IllegalArgumentException.class, () -> Bytes.fromHex("abc"));
        assertThrows(IllegalArgumentException.class, () -> Bytes.fromHex("zz"));
        assertEquals("00".repeat(32) + "...(33 bytes)", Bytes.zeros(33).toString());
        assertEquals("Data[0 bytes]", Data.EMPTY.toString());
        var dst = new byte[5];
        Bytes.fromHex("0a0b").copyTo(dst, 2);
        assertArrayEquals(new byte[] {0, 0, 10, 11, 0}, dst);
    }
}
