package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An immutable byte string: the opaque payload of HELLO, ERROR, ECHO and VENDOR messages. Unlike a {@code byte[]} it
 * can be shared between messages (an ECHO_REPLY reuses its request's data) and compares by content, so the records
 * holding it get correct {@code equals}.
 */
public final class OFData {
    /** No bytes. */
    public static final OFData EMPTY = new OFData(new byte[0]);

    private final byte[] bytes;

    private OFData(byte[] bytes) {
        this.bytes = bytes;
    }

    /** A copy of {@code bytes}. */
    public static OFData of(byte... bytes) {
        return bytes.length == 0 ? EMPTY : new OFData(bytes.clone());
    }

    /** The bytes of {@code text} in US-ASCII (unmappable characters become {@code ?}), as HELLO_FAILED expects. */
    public static OFData ofAscii(String text) {
        return of(text.getBytes(StandardCharsets.US_ASCII));
    }

    /** A copy of {@code length} bytes at absolute {@code index}; the buffer's position does not move. */
    public static OFData copyOf(ByteBuffer buf, int index, int length) {
        if (length == 0) {
            return EMPTY;
        }
        var b = new byte[length];
        buf.get(index, b);
        return new OFData(b);
    }

    public int length() {
        return bytes.length;
    }

    public byte get(int index) {
        return bytes[index];
    }

    /** A fresh copy of the bytes. */
    public byte[] toByteArray() {
        return bytes.clone();
    }

    /** The bytes decoded as US-ASCII text, for the human-readable data of HELLO_FAILED errors. */
    public String toAsciiString() {
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /** Writes the bytes at the buffer's position and advances it. */
    public void writeTo(ByteBuffer buf) {
        buf.put(bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OFData d && Arrays.equals(bytes, d.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** Hex, cut after 64 bytes. */
    @Override
    public String toString() {
        return OFWire.hex(ByteBuffer.wrap(bytes), 0, bytes.length, 64);
    }
}
