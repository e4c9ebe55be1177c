package net.beaconcontroller.util;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;

/**
 * 48-bit Ethernet addresses. Beacon keeps MAC addresses as the low 48 bits of a {@code long} on every hot path
 * (hash keys, matches, packet fields); these helpers convert to and from bytes and the usual text form.
 *
 * <p>{@link #read} and {@link #write} are the one place where a MAC meets a {@link ByteBuffer}: the OpenFlow codecs
 * and the packet library use them. They use the buffer's multi-byte accessors, so the buffer must be in
 * {@link java.nio.ByteOrder#BIG_ENDIAN} order (the default).
 */
public final class MacAddress {
    public static final long BROADCAST = 0xffff_ffff_ffffL;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private MacAddress() {
    }

    /**
     * Reads the six bytes at {@code index} as an unsigned 48-bit value; the buffer's position is not used or moved.
     *
     * @throws IndexOutOfBoundsException when fewer than six bytes lie between {@code index} and the limit
     */
    public static long read(ByteBuffer buf, int index) {
        // Two loads instead of six: this runs for both addresses of every PACKET_IN.
        return ((buf.getShort(index) & 0xffffL) << 32) | (buf.getInt(index + 2) & 0xffff_ffffL);
    }

    /**
     * Writes the six bytes of {@code mac} at the buffer's position and moves the position past them.
     *
     * @return {@code buf}, to go on chaining puts
     * @throws BufferOverflowException when fewer than six bytes remain (nothing is written then)
     */
    public static ByteBuffer write(ByteBuffer buf, long mac) {
        if (buf.remaining() < 6) {
            throw new BufferOverflowException();
        }
        return buf.putShort((short) (mac >>> 32)).putInt((int) mac);
    }

    /** Reads six bytes at {@code offset} as an unsigned 48-bit value. */
    public static long fromBytes(byte[] b, int offset) {
        return read(ByteBuffer.wrap(b), offset);
    }

    public static long fromBytes(byte[] b) {
        if (b.length != 6) {
            throw new IllegalArgumentException("a MAC address has 6 bytes, not " + b.length);
        }
        return fromBytes(b, 0);
    }

    public static void toBytes(long mac, byte[] dst, int offset) {
        write(ByteBuffer.wrap(dst, offset, 6), mac);
    }

    public static byte[] toBytes(long mac) {
        var b = new byte[6];
        toBytes(mac, b, 0);
        return b;
    }

    /** Group bit set: multicast or broadcast; such addresses are never learned as sources. */
    public static boolean isMulticast(long mac) {
        return (mac & 0x0100_0000_0000L) != 0;
    }

    /** {@code 00:11:22:aa:bb:cc} (lower case, as ovs-ofctl prints). */
    public static String toString(long mac) {
        var c = new char[17];
        for (int i = 0; i < 6; i++) {
            int v = (int) (mac >>> (40 - 8 * i)) & 0xff;
            c[i * 3] = HEX[v >>> 4];
            c[i * 3 + 1] = HEX[v & 0xf];
            if (i < 5) {
                c[i * 3 + 2] = ':';
            }
        }
        return new String(c);
    }

    /**
     * Parses six colon- or dash-separated hex octets.
     *
     * @throws IllegalArgumentException naming the text when it is not a MAC address
     */
    public static long parse(String text) {
        String[] parts = text.split("[:-]", -1);
        if (parts.length != 6) {
            throw new IllegalArgumentException("not a MAC address: '" + text + "'");
        }
        long mac = 0;
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 2) {
                throw new IllegalArgumentException("not a MAC address: '" + text + "'");
            }
            int v;
            try {
                v = Integer.parseInt(p, 16);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a MAC address: '" + text + "'");
            }
            mac = (mac << 8) | v;
        }
        return mac;
    }
}
