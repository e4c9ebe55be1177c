package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import net.beaconcontroller.openflow.OFParseException;

/**
 * Body of a PORT stats reply: one {@link OFPortStatsEntry} per port.
 *
 * @param entries the ports
 */
public record OFPortStatsReply(List<OFPortStatsEntry> entries) implements OFStatsReplyBody {

    public OFPortStatsReply {
        entries = List.copyOf(entries);
    }

    @Override
    public OFStatsType statsType() {
        return OFStatsType.PORT;
    }

    @Override
    public int length() {
        return entries.size() * OFPortStatsEntry.LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        for (OFPortStatsEntry e : entries) {
            e.writeTo(buf);
        }
    }

    /** Reads {@code length} bytes, a multiple of the entry size, at the buffer's position and advances past them. */
    public static OFPortStatsReply readFrom(ByteBuffer buf, int length) throws OFParseException {
        int n = StatsBodies.entries(buf, length, OFPortStatsEntry.LENGTH, "PORT stats reply");
        var entries = new ArrayList<OFPortStatsEntry>(n);
        for (int i = 0; i < n; i++) {
            entries.add(OFPortStatsEntry.read(buf));
        }
        return new OFPortStatsReply(entries);
    }
}
