package net.beaconcontroller.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The Internet checksum arithmetic behind every checksum in the library. */
class ChecksumTest {
    @Test
    void rfc1071Example() {
        // RFC 1071 section 3: 0001 f203 f4f5 f6f7 sums to 2ddf0, folded ddf2; the checksum is its complement.
        byte[] b = Vectors.hex("0001f203f4f5f6f7");
        long sum = Wire.sum(b, 0, b.length, 0);
        assertEquals(0x2ddf0, sum);
        assertEquals(0xddf2, Wire.fold(sum));
        assertEquals(0x220d, Wire.checksum(sum));
        assertTrue(Wire.verifies(sum, 0x220d));
        assertFalse(Wire.verifies(sum, 0x220c));
    }

    @Test
    void oddLengthPadsWithZero() {
        byte[] b = {0x12, 0x34, 0x56};
        assertEquals(0x1234 + 0x5600, Wire.sum(b, 0, 3, 0));
    }

    @Test
    void pseudoHeaderIsAddressesProtocolAndLength() {
        // 10.0.0.1 > 10.0.0.2, UDP, 37 bytes
        assertEquals(0x0a00 + 0x0001 + 0x0a00 + 0x0002 + 17 + 37,
                Wire.pseudoHeaderSum(0x0a000001, 0x0a000002, 17, 37));
        // high addresses must not sign-extend
        assertEquals(0xffff * 4 + 6 + 20, Wire.pseudoHeaderSum(-1, -1, 6, 20));
    }
}
