package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;

import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFWire;

/**
 * Body of a QUEUE stats request ({@code ofp_queue_stats_request}).
 *
 * @param portNo  the port, or {@link OFPort#ALL} for all ports
 * @param queueId the queue, or {@link #ALL_QUEUES}
 */
public record OFQueueStatsRequest(int portNo, long queueId) implements OFStatsRequestBody {
    public static final int LENGTH = 8;
    /** {@code OFPQ_ALL}: every queue. */
    public static final long ALL_QUEUES = 0xffff_ffffL;

    public OFQueueStatsRequest {
        OFWire.u16(portNo, "port_no");
        OFWire.u32(queueId, "queue_id");
    }

    @Override
    public OFStatsType statsType() {
        return OFStatsType.QUEUE;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        buf.putShort((short) portNo).putShort((short) 0).putInt((int) queueId);
    }

    /** Reads {@code length} (which must be 8) bytes at the buffer's position and advances past them. */
    public static OFQueueStatsRequest readFrom(ByteBuffer buf, int length) throws OFParseException {
        StatsBodies.expect(buf, length, LENGTH, "QUEUE stats request");
        int p = buf.position();
        buf.position(p + LENGTH);
        return new OFQueueStatsRequest(buf.getShort(p) & 0xffff, buf.getInt(p + 4) & 0xffff_ffffL);
    }

    @Override
    public String toString() {
        return "OFQueueStatsRequest[port=" + OFPort.toString(portNo) + ", queue="
                + (queueId == ALL_QUEUES ? "all" : Long.toString(queueId)) + "]";
    }
}
