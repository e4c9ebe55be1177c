package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;

import net.beaconcontroller.openflow.OFParseException;

/** Body of a TABLE stats request: empty. */
public record OFTableStatsRequest() implements OFStatsRequestBody {
    /** The only value there is. */
    public static final OFTableStatsRequest INSTANCE = new OFTableStatsRequest();

    @Override
    public OFStatsType statsType() {
        return OFStatsType.TABLE;
    }

    @Override
    public int length() {
        return 0;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        // nothing: the body is empty
    }

    /** Reads the (empty) body; {@code length} must be 0. */
    public static OFTableStatsRequest readFrom(ByteBuffer buf, int length) throws OFParseException {
        StatsBodies.expect(buf, length, 0, "TABLE stats request");
        return INSTANCE;
    }
}
