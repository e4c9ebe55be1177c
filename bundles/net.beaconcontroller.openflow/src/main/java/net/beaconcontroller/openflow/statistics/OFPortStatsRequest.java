package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;

import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFWire;

/**
 * Body of a PORT stats request ({@code ofp_port_stats_request}).
 *
 * @param portNo the port, or {@link OFPort#NONE} for all ports
 */
public record OFPortStatsRequest(int portNo) implements OFStatsRequestBody {
    public static final int LENGTH = 8;

    public OFPortStatsRequest {
        OFWire.u16(portNo, "port_no");
    }

    @Override
    public OFStatsType statsType() {
        return OFStatsType.PORT;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        buf.putShort((short) portNo).putShort((short) 0).putInt(0);
    }

    /** Reads {@code length} (which must be 8) bytes at the buffer's position and advances past them. */
    public static OFPortStatsRequest readFrom(ByteBuffer buf, int length) throws OFParseException {
        StatsBodies.expect(buf, length, LENGTH, "PORT stats request");
        int p = buf.position();
        buf.position(p + LENGTH);
        return new OFPortStatsRequest(buf.getShort(p) & 0xffff);
    }

    @Override
    public String toString() {
        return "OFPortStatsRequest[port=" + OFPort.toString(portNo) + "]";
    }
}
