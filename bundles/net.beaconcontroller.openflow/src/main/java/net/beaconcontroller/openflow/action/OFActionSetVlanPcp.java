package net.beaconcontroller.openflow.action;

import java.nio.ByteBuffer;

/**
 * {@code OFPAT_SET_VLAN_PCP}: set the 802.1Q priority, adding a tag (VLAN id 0) when the packet has none.
 *
 * @param vlanPcp the priority, {@code 0..7}
 */
public record OFActionSetVlanPcp(int vlanPcp) implements OFAction {
    /** {@code OFPAT_SET_VLAN_PCP}. */
    public static final int TYPE = 2;
    /** {@code sizeof(ofp_action_vlan_pcp)}. */
    public static final int LENGTH = 8;

    /** @throws IllegalArgumentException naming the field when a value is out of its range */
    public OFActionSetVlanPcp {
        ActionValues.check(vlanPcp, 7, "vlanPcp");
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
        buf.putShort((short) TYPE).putShort((short) LENGTH).put((byte) vlanPcp).put((byte) 0).putShort((short) 0);
    }

    /** {@code mod_vlan_pcp:N}. */
    @Override
    public String toString() {
        return "mod_vlan_pcp:" + vlanPcp;
    }
}
