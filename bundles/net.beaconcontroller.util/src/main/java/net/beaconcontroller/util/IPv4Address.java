package net.beaconcontroller.util;

/** IPv4 addresses as {@code int} (network order value), with the dotted-quad text form. */
public final class IPv4Address {
    private IPv4Address() {
    }

    public static String toString(int ip) {
        return (ip >>> 24) + "." + ((ip >>> 16) & 0xff) + "." + ((ip >>> 8) & 0xff) + "." + (ip & 0xff);
    }

    public static int fromBytes(byte[] b, int offset) {
        return ((b[offset] & 0xff) << 24) | ((b[offset + 1] & 0xff) << 16) | ((b[offset + 2] & 0xff) << 8)
                | (b[offset + 3] & 0xff);
    }

    public static byte[] toBytes(int ip) {
        return new byte[] {(byte) (ip >>> 24), (byte) (ip >>> 16), (byte) (ip >>> 8), (byte) ip};
    }

    /**
     * Parses a dotted quad.
     *
     * @throws IllegalArgumentException naming the text when it is not an IPv4 address
     */
    public static int parse(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("not an IPv4 address: '" + text + "'");
        }
        int ip = 0;
        for (String p : parts) {
            int v;
            try {
                v = p.isEmpty() || p.length() > 3 ? -1 : Integer.parseInt(p);
            } catch (NumberFormatException e) {
                v = -1;
            }
            if (v < 0 || v > 255) {
                throw new IllegalArgumentException("not an IPv4 address: '" + text + "'");
            }
            ip = (ip << 8) | v;
        }
        return ip;
    }
}
