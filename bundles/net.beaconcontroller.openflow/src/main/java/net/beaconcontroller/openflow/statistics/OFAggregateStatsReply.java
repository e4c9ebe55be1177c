package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;

import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.OFWire;

/**
 * Body of an AGGREGATE stats reply ({@code ofp_aggregate_stats_reply}): totals over the flows asked about.
 *
 * @param packetCount packets matched (unsigned 64-bit)
 * @param byteCount   bytes matched (unsigned 64-bit)
 * @param flowCount   number of flows
 */
public record OFAggregateStatsReply(long packetCount, long byteCount, long flowCount) implements OFStatsReplyBody {
    public static final int LENGTH = 24;

    public OFAggregateStatsReply {
        OFWire.u32(flowCount, "flow_count");
    }

    @Override
    public OFStatsType statsType() {
        return OFStatsType.AGGREGATE;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        buf.putLong(packetCount).putLong(byteCount).putInt((int) flowCount).putInt(0);
    }

    /** Reads {@code length} (which must be 24) bytes at the buffer's position and advances past them. */
    public static OFAggregateStatsReply readFrom(ByteBuffer buf, int length) throws OFParseException {
        StatsBodies.expect(buf, length, LENGTH, "AGGREGATE stats reply");
        int p = buf.position();
        buf.position(p + LENGTH);
        return new OFAggregateStatsReply(buf.getLong(p), buf.getLong(p + 8), buf.getInt(p + 16) & 0xffff_ffffL);
    }

    @Override
    public String toString() {
        return "OFAggregateStatsReply[packets=" + Long.toUnsignedString(packetCount) + ", bytes="
                + Long.toUnsignedString(byteCount) + ", flows=" + flowCount + "]";
    }
}
