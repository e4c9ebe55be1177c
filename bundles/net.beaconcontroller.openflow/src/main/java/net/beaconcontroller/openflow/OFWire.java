package net.beaconcontroller.openflow;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Wire-format helpers shared by the codec's packages (messages, statistics, queues, vendor extensions). Applications
 * do not need them; they are public because Java has no package-group visibility.
 */
public final class OFWire {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private OFWire() {
    }

    /**
     * Writes the 8-byte OpenFlow header at the buffer's position after checking that the whole message fits, so a
     * too-small buffer fails before anything is written.
     *
     * @throws BufferOverflowException when fewer than {@code length} bytes remain
     */
    public static void writeHeader(ByteBuffer buf, int version, OFType type, int length, int xid) {
        if (buf.remaining() < length) {
            throw new BufferOverflowException();
        }
        // One 8-byte store instead of four: this runs for every message written.
        buf.putLong(((long) version << 56) | ((long) type.value() << 48) | ((long) length << 32)
                | (xid & 0xffff_ffffL));
    }

    /** Writes {@code n} zero bytes (padding). */
    public static void writeZeros(ByteBuffer buf, int n) {
        for (int i = 0; i < n; i++) {
            buf.put((byte) 0);
        }
    }

    /** @throws IllegalArgumentException naming {@code field} when {@code v} is not an unsigned 8-bit value */
    public static int u8(int v, String field) {
        if ((v & ~0xff) != 0) {
            throw new IllegalArgumentException(field + " must be 0..255, not " + v);
        }
        return v;
    }

    /** @throws IllegalArgumentException naming {@code field} when {@code v} is not an unsigned 16-bit value */
    public static int u16(int v, String field) {
        if ((v & ~0xffff) != 0) {
            throw new IllegalArgumentException(field + " must be 0..65535, not " + v);
        }
        return v;
    }

    /** @throws IllegalArgumentException naming {@code field} when {@code v} is not an unsigned 32-bit value */
    public static long u32(long v, String field) {
        if ((v & ~0xffff_ffffL) != 0) {
            throw new IllegalArgumentException(field + " must be 0..0xffffffff, not " + v);
        }
        return v;
    }

    /** @throws IllegalArgumentException naming {@code what} when a message or structure exceeds the u16 length */
    public static int checkLength(int length, String what) {
        if (length > 0xffff) {
            throw new IllegalArgumentException(what + " would be " + length
                    + " bytes, more than the 65535 OpenFlow allows");
        }
        return length;
    }

    /**
     * Reads a fixed-width, NUL-padded string ({@code char name[width]}) at an absolute index without moving the
     * position. Bytes map one to one to chars (ISO-8859-1) so any string read writes back to the same bytes.
     */
    public static String readString(ByteBuffer buf, int index, int width) {
        int n = 0;
        while (n < width && buf.get(index + n) != 0) {
            n++;
        }
        var b = new byte[n];
        buf.get(index, b);
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    /** Writes {@code s} NUL-padded to {@code width} bytes; {@code s} must have passed {@link #checkString}. */
    public static void writeString(ByteBuffer buf, String s, int width) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            buf.put((byte) s.charAt(i));
        }
        writeZeros(buf, width - n);
    }

    /**
     * Checks that {@code s} fits a {@code char[width]} field and survives a round trip: at most {@code width}
     * characters, none of them NUL, all in ISO-8859-1.
     *
     * @throws IllegalArgumentException naming {@code field} otherwise
     */
    public static String checkString(String s, int width, String field) {
        if (s.length() > width) {
            throw new IllegalArgumentException(field + " has " + s.length() + " characters, at most " + width + " fit");
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == 0 || c > 0xff) {
                throw new IllegalArgumentException(field + " has a character that cannot be sent: U+"
                        + Integer.toHexString(c));
            }
        }
        return s;
    }

    /** {@code 0x} followed by the lower-case hex digits of {@code v}, for {@code toString} output. */
    public static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    /**
     * Lower-case hex of {@code length} bytes at an absolute index, cut after {@code max} bytes with a note of the
     * full size: {@code toString} of a 64 KB payload should stay readable.
     */
    public static String hex(ByteBuffer buf, int index, int length, int max) {
        int n = Math.min(length, max);
        var sb = new StringBuilder(n * 2 + 24);
        for (int i = 0; i < n; i++) {
            int v = buf.get(index + i) & 0xff;
            sb.append(HEX[v >>> 4]).append(HEX[v & 0xf]);
        }
        if (n < length) {
            sb.append("...(").append(length).append(" bytes)");
        }
        return sb.toString();
    }
}
