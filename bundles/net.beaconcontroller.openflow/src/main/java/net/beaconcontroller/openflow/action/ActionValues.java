package net.beaconcontroller.openflow.action;

/** Range checks and number parsing shared by the action records and their text form. */
final class ActionValues {
    private ActionValues() {
    }

    /** @throws IllegalArgumentException naming {@code field} when {@code v} is not in {@code 0..max} */
    static int check(int v, int max, String field) {
        if (v < 0 || v > max) {
            throw new IllegalArgumentException(field + " must be 0.." + max + ", not " + v);
        }
        return v;
    }

    /** @throws IllegalArgumentException naming {@code field} when {@code mac} does not fit 48 bits */
    static long checkMac(long mac, String field) {
        if ((mac & ~0xffff_ffff_ffffL) != 0) {
            throw new IllegalArgumentException(field + " must be a 48-bit MAC address, not 0x" + Long.toHexString(mac));
        }
        return mac;
    }

    /**
     * A decimal or {@code 0x} hexadecimal number {@code 0..max}.
     *
     * @throws IllegalArgumentException when the text is not one
     */
    static long number(String text, long max) {
        boolean hex = text.length() > 2 && text.charAt(0) == '0' && (text.charAt(1) == 'x' || text.charAt(1) == 'X');
        int start = hex ? 2 : 0;
        int radix = hex ? 16 : 10;
        long v = 0;
        boolean ok = text.length() > start;
        for (int i = start; ok && i < text.length(); i++) {
            char c = text.charAt(i);
            int d = c < 0x80 ? Character.digit(c, radix) : -1;
            v = v * radix + d;
            ok = d >= 0 && v <= max;
        }
        if (!ok) {
            throw new IllegalArgumentException("'" + text + "' is not a number 0.." + max);
        }
        return v;
    }
}
