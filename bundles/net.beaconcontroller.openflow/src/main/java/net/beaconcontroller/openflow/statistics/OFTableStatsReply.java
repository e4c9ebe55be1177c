package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import net.beaconcontroller.openflow.OFParseException;

/**
 * Body of a TABLE stats reply: one {@link OFTableStatsEntry} per table.
 *
 * @param entries the tables
 */
public record OFTableStatsReply(List<OFTableStatsEntry> entries) implements OFStatsReplyBody {

    public OFTableStatsReply {
        entries = List.copyOf(entries);
    }

    @Override
    public OFStatsType statsType() {
        return OFStatsType.TABLE;
    }

    @Override
    public int length() {
        return entries.size() * OFTableStatsEntry.LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        for (OFTableStatsEntry e : entries) {
            e.writeTo(buf);
        }
    }

    /** Reads {@code length} bytes, a multiple of the entry size, at the buffer's position and advances past them. */
    public static OFTableStatsReply readFrom(ByteBuffer buf, int length) throws OFParseException {
        int n = StatsBodies.entries(buf, length, OFTableStatsEntry.LENGTH, "TABLE stats reply");
        var entries = new ArrayList<OFTableStatsEntry>(n);
        for (int i = 0; i < n; i++) {
            entries.add(OFTableStatsEntry.read(buf));
        }
        return new OFTableStatsReply(entries);
    }
}
