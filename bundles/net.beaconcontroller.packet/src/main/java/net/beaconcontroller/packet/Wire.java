package net.beaconcontroller.packet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Big-endian field access, Internet checksums and bounds checks shared by the codecs. Parsers read from a
 * {@link ByteBuffer} by absolute index (so one implementation serves arrays and buffer views); serializers write
 * arrays.
 */
final class Wire {
    private Wire() {
    }

    /**
     * The buffer itself, or a big-endian view of it when its order is another: the readers below use the multi-byte
     * accessors, which follow the buffer's order. Positions and indexes are the same in the view.
     */
    static ByteBuffer bigEndian(ByteBuffer b) {
        return b.order() == ByteOrder.BIG_ENDIAN ? b : b.duplicate();
    }

    static int u8(ByteBuffer b, int i) {
        return b.get(i) & 0xff;
    }

    static int u16(ByteBuffer b, int i) {
        return b.getShort(i) & 0xffff;
    }

    static int i32(ByteBuffer b, int i) {
        return b.getInt(i);
    }

    static long u32(ByteBuffer b, int i) {
        return b.getInt(i) & 0xffff_ffffL;
    }

    static void put16(byte[] b, int i, int v) {
        b[i] = (byte) (v >>> 8);
        b[i + 1] = (byte) v;
    }

    static void put32(byte[] b, int i, long v) {
        b[i] = (byte) (v >>> 24);
        b[i + 1] = (byte) (v >>> 16);
        b[i + 2] = (byte) (v >>> 8);
        b[i + 3] = (byte) v;
    }

    /** Adds the 16-bit big-endian words of a range to {@code acc}; an odd last byte is padded with zero. */
    static long sum(byte[] b, int off, int len, long acc) {
        int end = off + len;
        int i = off;
        for (; i + 1 < end; i += 2) {
            acc += ((b[i] & 0xff) << 8) | (b[i + 1] & 0xff);
        }
        if (i < end) {
            acc += (b[i] & 0xff) << 8;
        }
        return acc;
    }

    /** The sum of the IPv4 pseudo-header that TCP and UDP checksums cover. */
    static long pseudoHeaderSum(int src, int dst, int protocol, int length) {
        return (src >>> 16) + (src & 0xffff) + (dst >>> 16) + (dst & 0xffff) + protocol + length;
    }

    /** Folds carries back in: the 16-bit one's complement sum. */
    static int fold(long sum) {
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        return (int) sum;
    }

    /** The checksum to write for data whose sum (with the checksum field zero) is {@code sum}. */
    static int checksum(long sum) {
        return ~fold(sum) & 0xffff;
    }

    /** True when data whose sum (with the checksum field zero) is {@code sum} carries {@code stored} correctly. */
    static boolean verifies(long sum, int stored) {
        return fold(sum + stored) == 0xffff;
    }

    static void need(int available, int needed, String what) throws PacketParseException {
        if (available < needed) {
            throw new PacketParseException(what + " needs " + needed + " bytes, only " + available + " present");
        }
    }

    static String hex16(int v) {
        return String.format("0x%04x", v);
    }
}
