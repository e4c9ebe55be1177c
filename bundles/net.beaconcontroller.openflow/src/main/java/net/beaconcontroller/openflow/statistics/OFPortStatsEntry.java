package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;

import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFWire;

/**
 * One port of a PORT stats reply ({@code ofp_port_stats}, 104 bytes). Counters are unsigned 64-bit; a switch sets
 * a counter it does not keep to all ones ({@link #UNAVAILABLE}).
 */
public record OFPortStatsEntry(int portNo, long rxPackets, long txPackets, long rxBytes, long txBytes,
        long rxDropped, long txDropped, long rxErrors, long txErrors, long rxFrameErrors, long rxOverErrors,
        long rxCrcErrors, long collisions) {
    public static final int LENGTH = 104;
    /** A counter the switch does not support. */
    public static final long UNAVAILABLE = -1L;

    public OFPortStatsEntry {
        OFWire.u16(portNo, "port_no");
    }

    public void writeTo(ByteBuffer buf) {
        buf.putShort((short) portNo).putShort((short) 0).putInt(0);
        buf.putLong(rxPackets).putLong(txPackets).putLong(rxBytes).putLong(txBytes).putLong(rxDropped)
                .putLong(txDropped).putLong(rxErrors).putLong(txErrors).putLong(rxFrameErrors).putLong(rxOverErrors)
                .putLong(rxCrcErrors).putLong(collisions);
    }

    /** Reads 104 bytes at the buffer's position (the caller has checked they are there) and advances past them. */
    static OFPortStatsEntry read(ByteBuffer buf) {
        int p = buf.position();
        buf.position(p + LENGTH);
        return new OFPortStatsEntry(buf.getShort(p) & 0xffff, buf.getLong(p + 8), buf.getLong(p + 16),
                buf.getLong(p + 24), buf.getLong(p + 32), buf.getLong(p + 40), buf.getLong(p + 48),
                buf.getLong(p + 56), buf.getLong(p + 64), buf.getLong(p + 72), buf.getLong(p + 80),
                buf.getLong(p + 88), buf.getLong(p + 96));
    }

    @Override
    public String toString() {
        return "OFPortStatsEntry[port=" + OFPort.toString(portNo) + ", rx_packets=" + Long.toUnsignedString(rxPackets)
                + ", tx_packets=" + Long.toUnsignedString(txPackets) + ", rx_bytes=" + Long.toUnsignedString(rxBytes)
                + ", tx_bytes=" + Long.toUnsignedString(txBytes) + ", rx_dropped=" + Long.toUnsignedString(rxDropped)
                + ", tx_dropped=" + Long.toUnsignedString(txDropped) + ", rx_errors=" + Long.toUnsignedString(rxErrors)
                + ", tx_errors=" + Long.toUnsignedString(txErrors) + ", rx_frame_err="
                + Long.toUnsignedString(rxFrameErrors) + ", rx_over_err=" + Long.toUnsignedString(rxOverErrors)
                + ", rx_crc_err=" + Long.toUnsignedString(rxCrcErrors) + ", collisions="
                + Long.toUnsignedString(collisions) + "]";
    }
}
