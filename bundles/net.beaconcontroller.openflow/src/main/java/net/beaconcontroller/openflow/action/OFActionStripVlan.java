package net.beaconcontroller.openflow.action;

import java.nio.ByteBuffer;

/** {@code OFPAT_STRIP_VLAN}: remove the 802.1Q tag, if any. */
public record OFActionStripVlan() implements OFAction {
    /** {@code OFPAT_STRIP_VLAN}. */
    public static final int TYPE = 3;
    /** {@code sizeof(ofp_action_header)}. */
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
        buf.putShort((short) TYPE).putShort((short) LENGTH).putInt(0);
    }

    /** {@code strip_vlan}. */
    @Override
    public String toString() {
        return "strip_vlan";
    }
}
