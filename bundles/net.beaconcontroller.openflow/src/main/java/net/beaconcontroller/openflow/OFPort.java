package net.beaconcontroller.openflow;

/**
 * OpenFlow 1.0 port numbers ({@code ofp_port}): physical ports are {@code 1..}{@link #MAX}, the values above are
 * reserved ports with a special meaning. Port numbers are unsigned 16-bit values held in an {@code int}.
 */
public final class OFPort {
    /** Highest number a physical port may have. */
    public static final int MAX = 0xff00;
    /** Send the packet out the port it came in on (an output port must otherwise differ from the input port). */
    public static final int IN_PORT = 0xfff8;
    /** Run the packet through the flow table; PACKET_OUT only. */
    public static final int TABLE = 0xfff9;
    /** The switch's own, non-OpenFlow forwarding (L2/L3). */
    public static final int NORMAL = 0xfffa;
    /** Every physical port except the input port and ports with flooding disabled. */
    public static final int FLOOD = 0xfffb;
    /** Every physical port except the input port. */
    public static final int ALL = 0xfffc;
    /** The controller, as a PACKET_IN. */
    public static final int CONTROLLER = 0xfffd;
    /** The switch's local networking stack. */
    public static final int LOCAL = 0xfffe;
    /** No port: "any port" in FLOW_MOD delete and statistics requests. */
    public static final int NONE = 0xffff;

    private static final String[] RESERVED_NAMES = {"IN_PORT", "TABLE", "NORMAL", "FLOOD", "ALL", "CONTROLLER",
        "LOCAL", "NONE"};

    private OFPort() {
    }

    /** True for the numbers a physical port may have, {@code 1..MAX}. */
    public static boolean isPhysical(int port) {
        return port >= 1 && port <= MAX;
    }

    /**
     * The number in decimal, or the reserved port's name as ovs-ofctl writes it ({@code IN_PORT}, {@code TABLE},
     * {@code NORMAL}, {@code FLOOD}, {@code ALL}, {@code CONTROLLER}, {@code LOCAL}, {@code NONE}).
     */
    public static String toString(int port) {
        return port >= IN_PORT && port <= NONE ? RESERVED_NAMES[port - IN_PORT] : Integer.toString(port);
    }

    /**
     * Parses what {@link #toString(int)} writes: a reserved port's name (any case), a decimal number or a
     * {@code 0x} hexadecimal number, up to {@code 0xffff}.
     *
     * @throws IllegalArgumentException naming the text when it is none of these
     */
    public static int parse(String text) {
        for (int i = 0; i < RESERVED_NAMES.length; i++) {
            if (RESERVED_NAMES[i].equalsIgnoreCase(text)) {
                return IN_PORT + i;
            }
        }
        long port = OFMatchText.parseUnsigned(text, 0xffff);
        if (port < 0) {
            throw new IllegalArgumentException("not a port: '" + text + "' (a number 0..65535 or one of IN_PORT, "
                    + "TABLE, NORMAL, FLOOD, ALL, CONTROLLER, LOCAL, NONE)");
        }
        return (int) port;
    }
}
