package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;

import net.beaconcontroller.openflow.OFParseException;

/** Body of a DESC stats request: empty. */
public record OFDescStatsRequest() implements OFStatsRequestBody {
    /** The only value there is. */
    public static final OFDescStatsRequest INSTANCE = new OFDescStatsRequest();

    @Override
    public OFStatsType statsType() {
        return OFStatsType.DESC;
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
    public static OFDescStatsRequest readFrom(ByteBuffer buf, int length) throws OFParseException {
        StatsBodies.expect(buf, length, 0, "DESC stats request");
        return INSTANCE;
    }
}
