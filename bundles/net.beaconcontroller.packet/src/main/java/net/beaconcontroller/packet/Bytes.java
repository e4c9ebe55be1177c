package net.beaconcontroller.packet;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An immutable byte string: raw payloads, option and TLV values. Unlike {@code byte[]} it has value equality, so the
 * records that hold it compare by content.
 */
public final class Bytes {
    public static final Bytes EMPTY = new Bytes(new byte[0]);
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    /** How many bytes {@link #toString()} shows before it abbreviates. */
    private static final int SHOWN = 32;

    private final byte[] bytes;

    private Bytes(byte[] bytes) {
        this.bytes = bytes;
    }

    /** A copy of {@code bytes}. */
    public static Bytes of(byte... bytes) {
        return bytes.length == 0 ? EMPTY : new Bytes(bytes.clone());
    }

    /** A copy of {@code length} bytes of {@code src} from {@code offset}. */
    public static Bytes copyOf(byte[] src, int offset, int length) {
        return length == 0 ? EMPTY : new Bytes(Arrays.copyOfRange(src, offset, offset + length));
    }

    /** A copy of {@code length} bytes of {@code src} from {@code index}; the buffer's position is not used. */
    static Bytes copyOf(ByteBuffer src, int index, int length) {
        if (length == 0) {
            return EMPTY;
        }
        var b = new byte[length];
        src.get(index, b);
        return new Bytes(b);
    }

    /** The UTF-8 encoding of {@code text}. */
    public static Bytes utf8(String text) {
        return of(text.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code length} zero bytes. */
    public static Bytes zeros(int length) {
        return length == 0 ? EMPTY : new Bytes(new byte[length]);
    }

    /**
     * Parses hex digits; spaces, colons, dashes and line breaks between bytes are ignored.
     *
     * @throws IllegalArgumentException when the text holds anything else or an odd number of digits
     */
    public static Bytes fromHex(String hex) {
        String digits = hex.replaceAll("[\\s:\\-]", "");
        if (digits.length() % 2 != 0) {
            throw new IllegalArgumentException("odd number of hex digits: " + digits.length());
        }
        var b = new byte[digits.length() / 2];
        for (int i = 0; i < b.length; i++) {
            int hi = Character.digit(digits.charAt(2 * i), 16);
            int lo = Character.digit(digits.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException("not a hex byte: '" + digits.substring(2 * i, 2 * i + 2) + "'");
            }
            b[i] = (byte) ((hi << 4) | lo);
        }
        return b.length == 0 ? EMPTY : new Bytes(b);
    }

    /** Number of bytes. */
    public int length() {
        return bytes.length;
    }

    /** Whether there are no bytes. */
    public boolean isEmpty() {
        return bytes.length == 0;
    }

    /** The byte at {@code index}, unsigned. */
    public int get(int index) {
        return bytes[index] & 0xff;
    }

    /** A copy of the bytes. */
    public byte[] toArray() {
        return bytes.clone();
    }

    /** Copies all bytes into {@code dst} at {@code offset}. */
    public void copyTo(byte[] dst, int offset) {
        System.arraycopy(bytes, 0, dst, offset, bytes.length);
    }

    /** Decodes the bytes as UTF-8 (malformed sequences become U+FFFD). */
    public String utf8() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Lower-case hex, no separators. */
    public String toHex() {
        return hex(bytes.length);
    }

    private String hex(int count) {
        var c = new char[count * 2];
        for (int i = 0; i < count; i++) {
            c[2 * i] = HEX[(bytes[i] >>> 4) & 0xf];
            c[2 * i + 1] = HEX[bytes[i] & 0xf];
        }
        return new String(c);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Bytes other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** Hex, abbreviated after 32 bytes with the total length, so a large payload does not flood a log line. */
    @Override
    public String toString() {
        return bytes.length <= SHOWN ? hex(bytes.length) : hex(SHOWN) + "...(" + bytes.length + " bytes)";
    }
}
