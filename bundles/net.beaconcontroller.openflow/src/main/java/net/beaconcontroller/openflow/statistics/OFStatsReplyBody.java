package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;

import net.beaconcontroller.openflow.OFParseException;

/** The body of a STATS_REPLY; its type determines the message's {@code type} field. */
public sealed interface OFStatsReplyBody permits OFDescStatsReply, OFFlowStatsReply, OFAggregateStatsReply,
        OFTableStatsReply, OFPortStatsReply, OFQueueStatsReply, OFVendorStatsReply {

    OFStatsType statsType();

    /** Bytes on the wire. */
    int length();

    /** Writes the body at the buffer's position and advances it. */
    void writeTo(ByteBuffer buf);

    /**
     * Reads a body of {@code length} bytes at the buffer's position and advances past it.
     *
     * @param statsType the wire value of the message's stats type
     * @throws OFParseException for an unknown type or a body that does not add up to {@code length}
     */
    static OFStatsReplyBody readFrom(int statsType, ByteBuffer buf, int length) throws OFParseException {
        OFStatsType t = OFStatsType.fromValue(statsType);
        if (t == null) {
            throw new OFParseException("unknown stats type " + statsType);
        }
        return switch (t) {
            case DESC -> OFDescStatsReply.readFrom(buf, length);
            case FLOW -> OFFlowStatsReply.readFrom(buf, length);
            case AGGREGATE -> OFAggregateStatsReply.readFrom(buf, length);
            case TABLE -> OFTableStatsReply.readFrom(buf, length);
            case PORT -> OFPortStatsReply.readFrom(buf, length);
            case QUEUE -> OFQueueStatsReply.readFrom(buf, length);
            case VENDOR -> OFVendorStatsReply.readFrom(buf, length);
        };
    }
}
