package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;

import net.beaconcontroller.util.MacAddress;

/**
 * PORT_MOD ({@code ofp_port_mod}): changes the {@code config} bits selected by {@code mask} of one port.
 *
 * @param portNo    the port
 * @param hwAddr    the port's MAC address (a sanity check: the switch refuses a mismatch)
 * @param config    new values of the {@code OFPhysicalPort.CONFIG_*} bits
 * @param mask      which config bits to change
 * @param advertise {@code OFPhysicalPort.FEATURE_*} bits to advertise, 0 to leave them unchanged
 */
public record OFPortMod(int xid, int portNo, long hwAddr, long config, long mask, long advertise) implements OFMessage {
    public static final int LENGTH = 32;

    public OFPortMod {
        OFWire.u16(portNo, "port_no");
        if ((hwAddr & ~0xffff_ffff_ffffL) != 0) {
            throw new IllegalArgumentException("hw_addr must be a 48-bit value, not " + Long.toHexString(hwAddr));
        }
        OFWire.u32(config, "config");
        OFWire.u32(mask, "mask");
        OFWire.u32(advertise, "advertise");
    }

    @Override
    public OFType type() {
        return OFType.PORT_MOD;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.PORT_MOD, LENGTH, xid);
        MacAddress.write(buf.putShort((short) portNo), hwAddr);
        buf.putInt((int) config).putInt((int) mask).putInt((int) advertise).putInt(0);
    }

    static OFPortMod read(ByteBuffer buf, int start, int xid) {
        return new OFPortMod(xid, buf.getShort(start + 8) & 0xffff, MacAddress.read(buf, start + 10),
                buf.getInt(start + 16) & 0xffff_ffffL,
                buf.getInt(start + 20) & 0xffff_ffffL, buf.getInt(start + 24) & 0xffff_ffffL);
    }

    @Override
    public String toString() {
        return "OFPortMod[xid=" + xid + ", port=" + OFPort.toString(portNo) + ", hw_addr=" + MacAddress.toString(hwAddr)
                + ", config=" + OFWire.hex(config) + ", mask=" + OFWire.hex(mask) + ", advertise="
                + OFWire.hex(advertise) + "]";
    }
}
