package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;
import java.util.Objects;

import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFWire;

/**
 * Body of a AGGREGATE stats request ({@code ofp_aggregate_stats_request}): asks for the totals over the flows matching
 * {@code match}.
 *
 * @param match   the flows to include
 * @param tableId the table to read, {@link #ALL_TABLES} for all
 * @param outPort only flows with an output to this port; {@link OFPort#NONE} for no restriction
 */
public record OFAggregateStatsRequest(OFMatch match, int tableId, int outPort) implements OFStatsRequestBody {
    public static final int LENGTH = 44;
    /** {@code table_id} for all tables. */
    public static final int ALL_TABLES = 0xff;

    public OFAggregateStatsRequest {
        Objects.requireNonNull(match, "match");
        OFWire.u8(tableId, "table_id");
        OFWire.u16(outPort, "out_port");
    }

    /** Every flow of every table. */
    public static OFAggregateStatsRequest all() {
        return new OFAggregateStatsRequest(OFMatch.ALL, ALL_TABLES, OFPort.NONE);
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
        match.writeTo(buf);
        buf.put((byte) tableId).put((byte) 0).putShort((short) outPort);
    }

    /** Reads {@code length} (which must be 44) bytes at the buffer's position and advances past them. */
    public static OFAggregateStatsRequest readFrom(ByteBuffer buf, int length) throws OFParseException {
        StatsBodies.expect(buf, length, LENGTH, "AGGREGATE stats request");
        OFMatch match = OFMatch.readFrom(buf);
        int tableId = buf.get() & 0xff;
        buf.get();
        return new OFAggregateStatsRequest(match, tableId, buf.getShort() & 0xffff);
    }
}
