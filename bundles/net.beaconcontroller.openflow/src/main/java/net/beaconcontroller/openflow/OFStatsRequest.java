package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.Objects;

import net.beaconcontroller.openflow.statistics.OFStatsRequestBody;

/**
 * STATS_REQUEST ({@code ofp_stats_request}): asks for statistics; the body says which. No flags are defined for
 * requests.
 *
 * @param flags {@code flags}, none defined in OpenFlow 1.0
 * @param body  the type-specific body
 */
public record OFStatsRequest(int xid, int flags, OFStatsRequestBody body) implements OFMessage {
    /** Size without body. */
    public static final int MIN_LENGTH = 12;

    public OFStatsRequest {
        OFWire.u16(flags, "flags");
        Objects.requireNonNull(body, "body");
        OFWire.checkLength(MIN_LENGTH + body.length(), "STATS_REQUEST");
    }

    /** Without flags. */
    public OFStatsRequest(int xid, OFStatsRequestBody body) {
        this(xid, 0, body);
    }

    @Override
    public OFType type() {
        return OFType.STATS_REQUEST;
    }

    @Override
    public int length() {
        return MIN_LENGTH + body.length();
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.STATS_REQUEST, length(), xid);
        buf.putShort((short) body.statsType().value()).putShort((short) flags);
        body.writeTo(buf);
    }

    /** Reads the message at {@code start}; {@code buf}'s limit is the message end. Moves the position. */
    static OFStatsRequest read(ByteBuffer buf, int start, int length, int xid) throws OFParseException {
        buf.position(start + MIN_LENGTH);
        var body = OFStatsRequestBody.readFrom(buf.getShort(start + 8) & 0xffff, buf, length - MIN_LENGTH);
        return new OFStatsRequest(xid, buf.getShort(start + 10) & 0xffff, body);
    }
}
