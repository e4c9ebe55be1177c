package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;

import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFWire;

/**
 * One queue of a QUEUE stats reply ({@code ofp_queue_stats}, 32 bytes). Counters are unsigned 64-bit.
 *
 * @param portNo    the port
 * @param queueId   the queue
 * @param txBytes   bytes sent
 * @param txPackets packets sent
 * @param txErrors  packets dropped for overrun
 */
public record OFQueueStatsEntry(int portNo, long queueId, long txBytes, long txPackets, long txErrors) {
    public static final int LENGTH = 32;

    public OFQueueStatsEntry {
        OFWire.u16(portNo, "port_no");
        OFWire.u32(queueId, "queue_id");
    }

    public void writeTo(ByteBuffer buf) {
        buf.putShort((short) portNo).putShort((short) 0).putInt((int) queueId).putLong(txBytes).putLong(txPackets)
                .putLong(txErrors);
    }

    /** Reads 32 bytes at the buffer's position (the caller has checked they are there) and advances past them. */
    static OFQueueStatsEntry read(ByteBuffer buf) {
        int p = buf.position();
        buf.position(p + LENGTH);
        return new OFQueueStatsEntry(buf.getShort(p) & 0xffff, buf.getInt(p + 4) & 0xffff_ffffL, buf.getLong(p + 8),
                buf.getLong(p + 16), buf.getLong(p + 24));
    }

    @Override
    public String toString() {
        return "OFQueueStatsEntry[port=" + OFPort.toString(portNo) + ", queue=" + queueId + ", tx_bytes="
                + Long.toUnsignedString(txBytes) + ", tx_packets=" + Long.toUnsignedString(txPackets)
                + ", tx_errors=" + Long.toUnsignedString(txErrors) + "]";
    }
}
