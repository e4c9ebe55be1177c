package net.beaconcontroller.openflow.action;

import java.nio.ByteBuffer;

import net.beaconcontroller.util.MacAddress;

/**
 * {@code OFPAT_SET_DL_DST}: set the Ethernet destination address.
 *
 * @param mac the address, 48 bits
 */
public record OFActionSetDlDst(long mac) implements OFAction {
    /** {@code OFPAT_SET_DL_DST}. */
    public static final int TYPE = 5;
    /** {@code sizeof(ofp_action_dl_addr)}. */
    public static final int LENGTH = 16;

    /** @throws IllegalArgumentException naming the field when a value is out of its range */
    public OFActionSetDlDst {
        ActionValues.checkMac(mac, "mac");
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
        MacAddress.write(buf.putShort((short) TYPE).putShort((short) LENGTH), mac).putShort((short) 0).putInt(0);
    }

    /** {@code mod_dl_dst:MAC}. */
    @Override
    public String toString() {
        return "mod_dl_dst:" + MacAddress.toString(mac);
    }
}
