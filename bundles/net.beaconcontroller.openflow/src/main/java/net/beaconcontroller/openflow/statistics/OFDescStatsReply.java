package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;
import java.util.Objects;

import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.OFWire;

/**
 * Body of a DESC stats reply ({@code ofp_desc_stats}, 1056 bytes): what the switch is. The fields are NUL-padded
 * strings of fixed width; each must fit its width.
 *
 * @param manufacturer  {@code mfr_desc}, at most 256 characters
 * @param hardware      {@code hw_desc}, at most 256 characters
 * @param software      {@code sw_desc}, at most 256 characters
 * @param serialNumber  {@code serial_num}, at most 32 characters
 * @param datapath      {@code dp_desc}, at most 256 characters: a human-readable name of the datapath
 */
public record OFDescStatsReply(String manufacturer, String hardware, String software, String serialNumber,
        String datapath) implements OFStatsReplyBody {
    public static final int LENGTH = 1056;
    /** Width of every field but the serial number. */
    public static final int DESC_STR_LEN = 256;
    /** Width of the serial number. */
    public static final int SERIAL_NUM_LEN = 32;

    public OFDescStatsReply {
        OFWire.checkString(Objects.requireNonNull(manufacturer, "manufacturer"), DESC_STR_LEN, "mfr_desc");
        OFWire.checkString(Objects.requireNonNull(hardware, "hardware"), DESC_STR_LEN, "hw_desc");
        OFWire.checkString(Objects.requireNonNull(software, "software"), DESC_STR_LEN, "sw_desc");
        OFWire.checkString(Objects.requireNonNull(serialNumber, "serialNumber"), SERIAL_NUM_LEN, "serial_num");
        OFWire.checkString(Objects.requireNonNull(datapath, "datapath"), DESC_STR_LEN, "dp_desc");
    }

    @Override
    public OFStatsType statsType() {
        return OFStatsType.DESC;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeString(buf, manufacturer, DESC_STR_LEN);
        OFWire.writeString(buf, hardware, DESC_STR_LEN);
        OFWire.writeString(buf, software, DESC_STR_LEN);
        OFWire.writeString(buf, serialNumber, SERIAL_NUM_LEN);
        OFWire.writeString(buf, datapath, DESC_STR_LEN);
    }

    /** Reads {@code length} (which must be 1056) bytes at the buffer's position and advances past them. */
    public static OFDescStatsReply readFrom(ByteBuffer buf, int length) throws OFParseException {
        StatsBodies.expect(buf, length, LENGTH, "DESC stats reply");
        int p = buf.position();
        buf.position(p + LENGTH);
        return new OFDescStatsReply(OFWire.readString(buf, p, DESC_STR_LEN),
                OFWire.readString(buf, p + 256, DESC_STR_LEN), OFWire.readString(buf, p + 512, DESC_STR_LEN),
                OFWire.readString(buf, p + 768, SERIAL_NUM_LEN), OFWire.readString(buf, p + 800, DESC_STR_LEN));
    }
}
