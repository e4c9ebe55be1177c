package net.beaconcontroller.openflow.action;

import java.nio.ByteBuffer;

import net.beaconcontroller.openflow.OFPort;

/**
 * {@code OFPAT_OUTPUT}: send the packet out a port (a physical port or one of the reserved {@link OFPort}s).
 *
 * @param port   the output port, {@code 0..0xffff}
 * @param maxLen for {@link OFPort#CONTROLLER}: how many bytes of the packet to send to the controller (65535 for
 *               all of it); ignored by switches for other ports
 */
public record OFActionOutput(int port, int maxLen) implements OFAction {
    /** {@code OFPAT_OUTPUT}. */
    public static final int TYPE = 0;
    /** {@code sizeof(ofp_action_output)}. */
    public static final int LENGTH = 8;

    /** @throws IllegalArgumentException naming the field when a value is out of its range */
    public OFActionOutput {
        ActionValues.check(port, 0xffff, "port");
        ActionValues.check(maxLen, 0xffff, "maxLen");
    }

    /** Output to {@code port}, {@code maxLen} 0. */
    public static OFActionOutput to(int port) {
        return new OFActionOutput(port, 0);
    }

    /** Output to the controller with the first {@code maxLen} bytes of the packet. */
    public static OFActionOutput toController(int maxLen) {
        return new OFActionOutput(OFPort.CONTROLLER, maxLen);
    }

    @Override
    public int type() {
        return TYPE;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        buf.putShort((short) TYPE).putShort((short) LENGTH).putShort((short) port).putShort((short) maxLen);
    }

    /**
     * {@code output:N}, the keywords {@code in_port}, {@code flood}, {@code all}, {@code local}, {@code normal},
     * {@code controller:MAXLEN}; a non-zero {@code maxLen} to any other port as
     * {@code output(port=N,max_len=M)}.
     */
    @Override
    public String toString() {
        if (port == OFPort.CONTROLLER) {
            return "controller:" + maxLen;
        }
        if (maxLen != 0) {
            return "output(port=" + OFPort.toString(port) + ",max_len=" + maxLen + ")";
        }
        return switch (port) {
            case OFPort.IN_PORT -> "in_port";
            case OFPort.FLOOD -> "flood";
            case OFPort.ALL -> "all";
            case OFPort.LOCAL -> "local";
            case OFPort.NORMAL -> "normal";
            default -> "output:" + OFPort.toString(port);
        };
    }
}
