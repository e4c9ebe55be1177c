package net.beaconcontroller.util;

/**
 * 48-bit Ethernet addresses. Beacon keeps MAC addresses as the low 48 bits of a {@code long} on every hot path
 * (hash keys, matches, packet fields); these helpers convert to and from bytes and the usual text form.
 */
public final class MacAddress {
    public static final long BROADCAST = 0xffff_ffff_ffffL;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private MacAddress() {
    }

    /** Reads six bytes at {@code offset} as an unsigned 48-bit value. */
    public static long fromBytes(byte[] b, int offset) {
        return ((b[offset] & 0xffL) << 40) | ((b[offset + 1] & 0xffL) << 32) | ((b[offset + 2] & 0xffL) << 24)
                | ((b[offset + 3] & 0xffL) << 16) | ((b[offset + 4] & 0xffL) << 8) | (b[offset + 5] & 0xffL);
    }

    public static long fromBytes(byte[] b) {
        if (b.length != 6) {
            throw new IllegalArgumentException("a MAC address has 6 bytes, not " + b.length);
        }
        return fromBytes(b, 0);
    }

    public static void toBytes(long mac, byte[] dst, int offset) {
        for (int i = 5; i >= 0; i--) {
            dst[offset + i] = (byte) mac;
            mac >>>= 8;
        }
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
