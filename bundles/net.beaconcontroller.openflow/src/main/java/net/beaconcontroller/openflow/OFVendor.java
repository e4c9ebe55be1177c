package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * VENDOR: an extension message the codec has no dedicated type for (the Nicira role messages it knows are read as
 * {@link NiciraRoleRequest} and {@link NiciraRoleReply}).
 *
 * @param vendor the vendor id (for most vendors their IEEE OUI)
 * @param data   the vendor-defined body after the vendor id
 */
public record OFVendor(int xid, long vendor, OFData data) implements OFMessage {
    /** Size of {@code ofp_vendor_header}. */
    public static final int MIN_LENGTH = 12;

    public OFVendor {
        OFWire.u32(vendor, "vendor");
        Objects.requireNonNull(data, "data");
        OFWire.checkLength(MIN_LENGTH + data.length(), "VENDOR");
    }

    @Override
    public OFType type() {
        return OFType.VENDOR;
    }

    @Override
    public int length() {
        return MIN_LENGTH + data.length();
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.VENDOR, length(), xid);
        buf.putInt((int) vendor);
        data.writeTo(buf);
    }

    @Override
    public String toString() {
        return "OFVendor[xid=" + xid + ", vendor=" + OFWire.hex(vendor) + ", data=" + data + "]";
    }
}
