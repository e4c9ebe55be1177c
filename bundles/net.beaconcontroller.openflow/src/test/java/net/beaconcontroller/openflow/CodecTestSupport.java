package net.beaconcontroller.openflow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** Hex vectors and the parse → write round trip shared by the message codec tests. */
final class CodecTestSupport {
    private CodecTestSupport() {
    }

    /** Bytes of a hex string; whitespace and {@code |} (used to mark field boundaries) are ignored. */
    static byte[] hex(String text) {
        return HexFormat.of().parseHex(text.replaceAll("[\\s|]", ""));
    }

    /** Hex of {@code n} zero bytes, for the padding of fixed-width strings. */
    static String zeros(int n) {
        return "00".repeat(n);
    }

    /** Hex of an ASCII string NUL-padded to {@code width} bytes. */
    static String ascii(String s, int width) {
        return HexFormat.of().formatHex(s.getBytes(StandardCharsets.US_ASCII)) + zeros(width - s.length());
    }

    static OFMatch match(String hex40) throws OFParseException {
        return OFMatch.readFrom(ByteBuffer.wrap(hex(hex40)));
    }

    /**
     * Parses the vector from the middle of a larger buffer (junk before and after, so absolute offsets must be
     * relative to the message start), checks that exactly the message was consumed, writes it back and checks the
     * bytes are identical.
     */
    static OFMessage roundTrip(String vectorHex) throws OFParseException {
        byte[] vector = hex(vectorHex);
        assertEquals(vector.length, ((vector[2] & 0xff) << 8) | (vector[3] & 0xff), "the vector's length field");
        var buf = ByteBuffer.allocate(vector.length + 10);
        buf.put(new byte[] {(byte) 0xaa, (byte) 0xbb, (byte) 0xcc}).put(vector).put(hex("01 02 00 08 00"));
        buf.flip().position(3);
        OFMessage m = OFMessageReader.read(buf);
        assertNotNull(m);
        assertEquals(3 + vector.length, buf.position(), "position after the message");
        assertEquals(3 + vector.length + 5, buf.limit(), "limit restored");
        assertEquals(vector.length, m.length(), "length()");
        assertEquals(vector[0] & 0xff, m.version());
        assertEquals(vector[1] & 0xff, m.type().value());
        assertEquals(ByteBuffer.wrap(vector).getInt(4), m.xid());

        var out = ByteBuffer.allocate(vector.length + 4);
        out.position(2);
        m.writeTo(out);
        assertEquals(2 + vector.length, out.position(), "writeTo advances by length()");
        var written = new byte[vector.length];
        out.get(2, written);
        assertArrayEquals(vector, written, () -> "written back: " + HexFormat.of().formatHex(written));
        assertArrayEquals(vector, m.toByteArray());
        assertFalse(m.toString().isEmpty());
        return m;
    }
}
