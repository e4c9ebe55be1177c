package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;
import java.util.Objects;

import net.beaconcontroller.openflow.OFData;
import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.OFWire;

/**
 * Body of a VENDOR stats request: a vendor id and vendor-defined bytes.
 *
 * @param vendor the vendor id
 * @param data   the rest of the body
 */
public record OFVendorStatsRequest(long vendor, OFData data) implements OFStatsRequestBody {
    /** Size without data. */
    public static final int MIN_LENGTH = 4;

    public OFVendorStatsRequest {
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
    public static OFVendorStatsRequest readFrom(ByteBuffer buf, int length) throws OFParseException {
        StatsBodies.available(buf, length, "VENDOR stats request");
        if (length < MIN_LENGTH) {
            throw new OFParseException("VENDOR stats request body of " + length
                    + " bytes has no room for the vendor id");
        }
        int p = buf.position();
        buf.position(p + length);
        return new OFVendorStatsRequest(buf.getInt(p) & 0xffff_ffffL,
                OFData.copyOf(buf, p + MIN_LENGTH, length - MIN_LENGTH));
    }

    @Override
    public String toString() {
        return "OFVendorStatsRequest[vendor=" + OFWire.hex(vendor) + ", data=" + data + "]";
    }
}
