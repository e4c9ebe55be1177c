package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;
import java.util.Objects;

import net.beaconcontroller.openflow.OFData;
import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.OFWire;

/**
 * Body of a VENDOR stats reply: a vendor id and vendor-defined bytes.
 *
 * @param vendor the vendor id
 * @param data   the rest of the body
 */
public record OFVendorStatsReply(long vendor, OFData data) implements OFStatsReplyBody {
    /** Size without data. */
    public static final int MIN_LENGTH = 4;

    public OFVendorStatsReply {
        OFWire.u32(vendor, "vendor");
        Objects.requireNonNull(data, "data");
    }

    @Override
    public OFStatsType statsType() {
        return OFStatsType.VENDOR;
    }

    @Override
    public int length() {
        return MIN_LENGTH + data.length();
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        buf.putInt((int) vendor);
        data.writeTo(buf);
    }

    /** Reads {@code length} (at least 4) bytes at the buffer's position and advances past them. */
    public static OFVendorStatsReply readFrom(ByteBuffer buf, int length) throws OFParseException {
        StatsBodies.available(buf, length, "VENDOR stats reply");
        if (length < MIN_LENGTH) {
            throw new OFParseException("VENDOR stats reply body of " + length
                    + " bytes has no room for the vendor id");
        }
        int p = buf.position();
        buf.position(p + length);
        return new OFVendorStatsReply(buf.getInt(p) & 0xffff_ffffL,
                OFData.copyOf(buf, p + MIN_LENGTH, length - MIN_LENGTH));
    }

    @Override
    public String toString() {
        return "OFVendorStatsReply[vendor=" + OFWire.hex(vendor) + ", data=" + data + "]";
    }
}
