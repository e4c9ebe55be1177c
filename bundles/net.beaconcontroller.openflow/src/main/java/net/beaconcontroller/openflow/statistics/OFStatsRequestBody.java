package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;

import net.beaconcontroller.openflow.OFParseException;

/** The body of a STATS_REQUEST; its type determines the message's {@code type} field. */
public sealed interface OFStatsRequestBody permits OFDescStatsRequest, OFFlowStatsRequest, OFAggregateStatsRequest,
        OFTableStatsRequest, OFPortStatsRequest, OFQueueStatsRequest, OFVendorStatsRequest {

    OFStatsType statsType();

    /** Bytes on the wire. */
    int length();

    /** Writes the body at the buffer's position and advances it. */
    void writeTo(ByteBuffer buf);

    /**
     * Reads a body of {@code length} bytes at the buffer's position and advances past it.
     *
     * @param statsType the wire value of the message's stats type
     * @throws OFParseException for an unknown type or a body whose length is not the type's
     */
    static OFStatsRequestBody readFrom(int statsType, ByteBuffer buf, int length) throws OFParseException {
        OFStatsType t = OFStatsType.fromValue(statsType);
        if (t == null) {
            throw new OFParseException("unknown stats type " + statsType);
        }
        return switch (t) {
            case DESC -> OFDescStatsRequest.readFrom(buf, length);
            case FLOW -> OFFlowStatsRequest.readFrom(buf, length);
            case AGGREGATE -> OFAggregateStatsRequest.readFrom(buf, length);
            case TABLE -> OFTableStatsRequest.readFrom(buf, length);
            case PORT -> OFPortStatsRequest.readFrom(buf, length);
            case QUEUE -> OFQueueStatsRequest.readFrom(buf, length);
            case VENDOR -> OFVendorStatsRequest.readFrom(buf, length);
        };
    }
}
