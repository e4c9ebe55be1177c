package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.Objects;

import net.beaconcontroller.openflow.statistics.OFStatsReplyBody;

/**
 * STATS_REPLY ({@code ofp_stats_reply}): statistics. A long answer comes as several replies with the same xid, all but
 * the last with {@link #FLAG_MORE} set.
 *
 * @param flags {@link #FLAG_MORE} when more replies follow
 * @param body  the type-specific body
 */
public record OFStatsReply(int xid, int flags, OFStatsReplyBody body) implements OFMessage {
    /** Size without body. */
    public static final int MIN_LENGTH = 12;

    /** {@code OFPSF_REPLY_MORE}: more replies to the same request follow. */
    public static final int FLAG_MORE = 1;

    public OFStatsReply {
        OFWire.u16(flags, "flags");
        Objects.requireNonNull(body, "body");
        OFWire.checkLength(MIN_LENGTH + body.length(), "STATS_REPLY");
    }

    /** Without flags. */
    public OFStatsReply(int xid, OFStatsReplyBody body) {
        this(xid, 0, body);
    }

    /** Whether more replies to the same request follow. */
    public boolean more() {
        return (flags & FLAG_MORE) != 0;
    }

    @Override
    public OFType type() {
        return OFType.STATS_REPLY;
    }

    @Override
    public int length() {
        return MIN_LENGTH + body.length();
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.STATS_REPLY, length(), xid);
        buf.putShort((short) body.statsType().value()).putShort((short) flags);
        body.writeTo(buf);
    }

    /** Reads the message at {@code start}; {@code buf}'s limit is the message end. Moves the position. */
    static OFStatsReply read(ByteBuffer buf, int start, int length, int xid) throws OFParseException {
        buf.position(start + MIN_LENGTH);
        var body = OFStatsReplyBody.readFrom(buf.getShort(start + 8) & 0xffff, buf, length - MIN_LENGTH);
        return new OFStatsReply(xid, buf.getShort(start + 10) & 0xffff, body);
    }
}
