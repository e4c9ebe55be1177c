package net.beaconcontroller.util;

/** Datapath ids as Open vSwitch and Floodlight print them: 16 hex digits in pairs, {@code 00:00:00:00:00:00:00:01}. */
public final class Dpids {
    private Dpids() {
    }

    public static String toString(long dpid) {
        var sb = new StringBuilder(23);
        for (int shift = 56; shift >= 0; shift -= 8) {
            int b = (int) (dpid >>> shift) & 0xff;
            sb.append(Character.forDigit(b >>> 4, 16)).append(Character.forDigit(b & 0xf, 16));
            if (shift > 0) {
                sb.append(':');
            }
        }
        return sb.toString();
    }

    /**
     * Parses {@code 00:00:00:00:00:00:00:01}, or plain hex ({@code 1}, {@code 0x1}).
     *
     * @throws IllegalArgumentException naming the text when it is neither
     */
    public static long parse(String text) {
        String s = text.strip();
        String hex = s.indexOf(':') >= 0 ? s.replace(":", "") : s.startsWith("0x") || s.startsWith("0X") ? s.substring(2) : s;
        if (hex.isEmpty() || hex.length() > 16 || (s.indexOf(':') >= 0 && !s.matches("([0-9A-Fa-f]{2}:){7}[0-9A-Fa-f]{2}"))) {
            throw new IllegalArgumentException("not a datapath id: '" + text + "'");
        }
        try {
            return Long.parseUnsignedLong(hex, 16);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a datapath id: '" + text + "'");
        }
    }
}
