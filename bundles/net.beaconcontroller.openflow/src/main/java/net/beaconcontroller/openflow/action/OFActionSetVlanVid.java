package net.beaconcontroller.openflow.action;

import java.nio.ByteBuffer;

/**
 * {@code OFPAT_SET_VLAN_VID}: set the 802.1Q VLAN id, adding a tag (priority 0) when the packet has none.
 *
 * @param vlanVid the VLAN id, {@code 0..4095}
 */
public record OFActionSetVlanVid(int vlanVid) implements OFAction {
    /** {@code OFPAT_SET_VLAN_VID}. */
    public static final int TYPE = 1;
    /** {@code sizeof(ofp_action_vlan_vid)}. */
    public static final int LENGTH = 8;

    /** @throws IllegalArgumentException naming the field when a value is out of its range */
    public OFActionSetVlanVid {
        ActionValues.check(vlanVid, 0xfff, "vlanVid");
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
        buf.putShort((short) TYPE).putShort((short) LENGTH).putShort((short) vlanVid).putShort((short) 0);
    }

    /** {@code mod_vlan_vid:N}. */
    @Override
    public String toString() {
        return "mod_vlan_vid:" + vlanVid;
    }
}
