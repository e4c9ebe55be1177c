package net.beaconcontroller.openflow.action;

import java.nio.ByteBuffer;

import net.beaconcontroller.util.MacAddress;

/**
 * {@code OFPAT_SET_DL_SRC}: set the Ethernet source address.
 *
 * @param mac the address, 48 bits
 */
public record OFActionSetDlSrc(long mac) implements OFAction {
    /** {@code OFPAT_SET_DL_SRC}. */
    public static final int TYPE = 4;
    /** {@code sizeof(ofp_action_dl_addr)}. */
    public static final int LENGTH = 16;

    /** @throws IllegalArgumentException naming the field when a value is out of its range */
    public OFActionSetDlSrc {
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

    /** {@code mod_dl_src:MAC}. */
    @Override
    public String toString() {
        return "mod_dl_src:" + MacAddress.toString(mac);
    }
}
