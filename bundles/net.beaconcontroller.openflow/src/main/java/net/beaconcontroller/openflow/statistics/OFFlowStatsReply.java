package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import net.beaconcontroller.openflow.OFParseException;

/**
 * Body of a FLOW stats reply: one entry per flow (a long list is split over several replies flagged "more").
 *
 * @param entries the flows
 */
public record OFFlowStatsReply(List<OFFlowStatsEntry> entries) implements OFStatsReplyBody {

    public OFFlowStatsReply {
        entries = List.copyOf(entries);
    }

    @Override
    public OFStatsType statsType() {
        return OFStatsType.FLOW;
    }

    @Override
    public int length() {
        int n = 0;
        for (OFFlowStatsEntry e : entries) {
            n += e.length();
        }
        return n;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        for (OFFlowStatsEntry e : entries) {
            e.writeTo(buf);
        }
    }

    /** Reads entries filling exactly {@code length} bytes at the buffer's position and advances past them. */
    public static OFFlowStatsReply readFrom(ByteBuffer buf, int length) throws OFParseException {
        StatsBodies.available(buf, length, "FLOW stats reply");
        int end = buf.position() + length;
        var entries = new ArrayList<OFFlowStatsEntry>();
        // Every entry is at least 88 bytes or an error, so this loop ends.
        while (buf.position() < end) {
            entries.add(OFFlowStatsEntry.readFrom(buf, end - buf.position()));
        }
        return new OFFlowStatsReply(entries);
    }
}
