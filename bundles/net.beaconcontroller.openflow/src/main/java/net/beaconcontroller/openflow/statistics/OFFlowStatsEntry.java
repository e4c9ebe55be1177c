package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.OFWire;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActions;

/**
 * One flow of a FLOW stats reply ({@code ofp_flow_stats}).
 *
 * @param tableId      the table holding the flow
 * @param match        the flow's match
 * @param durationSec  how long the flow has lived, whole seconds
 * @param durationNsec and the nanoseconds beyond {@code durationSec}
 * @param priority     the flow's priority
 * @param idleTimeout  its idle timeout, seconds
 * @param hardTimeout  its hard timeout, seconds
 * @param cookie       its cookie
 * @param packetCount  packets matched (unsigned 64-bit)
 * @param byteCount    bytes matched (unsigned 64-bit)
 * @param actions      its actions
 */
public record OFFlowStatsEntry(int tableId, OFMatch match, long durationSec, long durationNsec, int priority,
        int idleTimeout, int hardTimeout, long cookie, long packetCount, long byteCount, List<OFAction> actions) {
    /** Size without actions. */
    public static final int MIN_LENGTH = 88;

    public OFFlowStatsEntry {
        OFWire.u8(tableId, "table_id");
        Objects.requireNonNull(match, "match");
        OFWire.u32(durationSec, "duration_sec");
        OFWire.u32(durationNsec, "duration_nsec");
        OFWire.u16(priority, "priority");
        OFWire.u16(idleTimeout, "idle_timeout");
        OFWire.u16(hardTimeout, "hard_timeout");
        actions = List.copyOf(actions);
        OFWire.checkLength(MIN_LENGTH + OFActions.totalLength(actions), "flow stats entry");
    }

    /** Bytes on the wire, actions included. */
    public int length() {
        return MIN_LENGTH + OFActions.totalLength(actions);
    }

    public void writeTo(ByteBuffer buf) {
        buf.putShort((short) length()).put((byte) tableId).put((byte) 0);
        match.writeTo(buf);
        buf.putInt((int) durationSec).putInt((int) durationNsec).putShort((short) priority)
                .putShort((short) idleTimeout).putShort((short) hardTimeout);
        OFWire.writeZeros(buf, 6);
        buf.putLong(cookie).putLong(packetCount).putLong(byteCount);
        OFActions.writeList(buf, actions);
    }

    /**
     * Reads one entry at the buffer's position, at most {@code available} bytes, and advances past it.
     *
     * @throws OFParseException when the entry's length is below 88 or beyond {@code available}, or its actions do
     *                          not fill it exactly
     */
    public static OFFlowStatsEntry readFrom(ByteBuffer buf, int available) throws OFParseException {
        int p = buf.position();
        if (available < MIN_LENGTH || buf.remaining() < available) {
            throw new OFParseException("flow stats entry needs " + MIN_LENGTH + " bytes, " + available + " left");
        }
        int len = buf.getShort(p) & 0xffff;
        if (len < MIN_LENGTH || len > available) {
            throw new OFParseException("flow stats entry length " + len + " not within " + MIN_LENGTH + ".."
                    + available);
        }
        buf.position(p + 4);
        OFMatch match = OFMatch.readFrom(buf);
        buf.position(p + MIN_LENGTH);
        List<OFAction> actions = OFActions.readList(buf, len - MIN_LENGTH);
        buf.position(p + len);
        return new OFFlowStatsEntry(buf.get(p + 2) & 0xff, match, buf.getInt(p + 44) & 0xffff_ffffL,
                buf.getInt(p + 48) & 0xffff_ffffL, buf.getShort(p + 52) & 0xffff, buf.getShort(p + 54) & 0xffff,
                buf.getShort(p + 56) & 0xffff, buf.getLong(p + 64), buf.getLong(p + 72), buf.getLong(p + 80), actions);
    }

    @Override
    public String toString() {
        return "OFFlowStatsEntry[table=" + tableId + ", match=" + match + ", duration=" + durationSec + "."
                + String.format("%09d", durationNsec) + "s, priority=" + priority + ", idle_timeout=" + idleTimeout
                + ", hard_timeout=" + hardTimeout + ", cookie=" + OFWire.hex(cookie) + ", packets="
                + Long.toUnsignedString(packetCount) + ", bytes=" + Long.toUnsignedString(byteCount) + ", actions="
                + OFActions.toString(actions) + "]";
    }
}
