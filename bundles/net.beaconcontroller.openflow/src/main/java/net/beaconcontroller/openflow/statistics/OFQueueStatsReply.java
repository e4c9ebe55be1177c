package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import net.beaconcontroller.openflow.OFParseException;

/**
 * Body of a QUEUE stats reply: one {@link OFQueueStatsEntry} per queue.
 *
 * @param entries the queues
 */
public record OFQueueStatsReply(List<OFQueueStatsEntry> entries) implements OFStatsReplyBody {

    public OFQueueStatsReply {
        entries = List.copyOf(entries);
    }

    @Override
    public OFStatsType statsType() {
        return OFStatsType.QUEUE;
    }

    @Override
    public int length() {
        return entries.size() * OFQueueStatsEntry.LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        for (OFQueueStatsEntry e : entries) {
            e.writeTo(buf);
        }
    }

    /** Reads {@code length} bytes, a multiple of the entry size, at the buffer's position and advances past them. */
    public static OFQueueStatsReply readFrom(ByteBuffer buf, int length) throws OFParseException {
        int n = StatsBodies.entries(buf, length, OFQueueStatsEntry.LENGTH, "QUEUE stats reply");
        var entries = new ArrayList<OFQueueStatsEntry>(n);
        for (int i = 0; i < n; i++) {
            entries.add(OFQueueStatsEntry.read(buf));
        }
        return new OFQueueStatsReply(entries);
    }
}
