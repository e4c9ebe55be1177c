package net.beaconcontroller.openflow.action;

import java.nio.ByteBuffer;

/**
 * {@code OFPAT_SET_NW_TOS}: set the DSCP bits of the IPv4 ToS byte.
 *
 * @param tos the ToS byte with its two ECN bits clear (DSCP &lt;&lt; 2), {@code 0..252}; switches reject other
 *            values
 */
public record OFActionSetNwTos(int tos) implements OFAction {
    /** {@code OFPAT_SET_NW_TOS}. */
    public static final int TYPE = 8;
    /** {@code sizeof(ofp_action_nw_tos)}. */
    public static final int LENGTH = 8;

    /** @throws IllegalArgumentException naming the field when a value is out of its range */
    public OFActionSetNwTos {
        if ((tos & ~0xfc) != 0) {
            throw new IllegalArgumentException("tos must be a ToS byte 0..252 with the two ECN bits clear "
                    + "(DSCP << 2), not " + tos);
        }
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
        buf.putShort((short) TYPE).putShort((short) LENGTH).put((byte) tos).put((byte) 0).putShort((short) 0);
    }

    /** {@code mod_nw_tos:N}. */
    @Override
    public String toString() {
        return "mod_nw_tos:" + tos;
    }
}
