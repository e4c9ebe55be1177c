package net.beaconcontroller.openflow.action;

import java.nio.ByteBuffer;

/**
 * {@code OFPAT_SET_TP_SRC}: set the TCP/UDP source port.
 *
 * @param port the port, {@code 0..65535}
 */
public record OFActionSetTpSrc(int port) implements OFAction {
    /** {@code OFPAT_SET_TP_SRC}. */
    public static final int TYPE = 9;
    /** {@code sizeof(ofp_action_tp_port)}. */
    public static final int LENGTH = 8;

    /** @throws IllegalArgumentException naming the field when a value is out of its range */
    public OFActionSetTpSrc {
        ActionValues.check(port, 0xffff, "port");
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
        buf.putShort((short) TYPE).putShort((short) LENGTH).putShort((short) port).putShort((short) 0);
    }

    /** {@code mod_tp_src:N}. */
    @Override
    public String toString() {
        return "mod_tp_src:" + port;
    }
}
