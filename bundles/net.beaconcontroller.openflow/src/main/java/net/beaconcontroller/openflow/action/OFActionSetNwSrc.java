package net.beaconcontroller.openflow.action;

import java.nio.ByteBuffer;

import net.beaconcontroller.util.IPv4Address;

/**
 * {@code OFPAT_SET_NW_SRC}: set the IPv4 source address.
 *
 * @param ip the address (network order value, as {@link IPv4Address} uses)
 */
public record OFActionSetNwSrc(int ip) implements OFAction {
    /** {@code OFPAT_SET_NW_SRC}. */
    public static final int TYPE = 6;
    /** {@code sizeof(ofp_action_nw_addr)}. */
    public static final int LENGTH = 8;

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
        buf.putShort((short) TYPE).putShort((short) LENGTH).putInt(ip);
    }

    /** {@code mod_nw_src:IP}. */
    @Override
    public String toString() {
        return "mod_nw_src:" + IPv4Address.toString(ip);
    }
}
