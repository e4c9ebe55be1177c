package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * FLOW_REMOVED ({@code ofp_flow_removed}): a flow installed with {@link OFFlowMod#FLAG_SEND_FLOW_REM} is gone.
 *
 * @param match         the flow's match
 * @param cookie        the flow's cookie
 * @param priority      the flow's priority
 * @param reason        why it was removed
 * @param durationSec   how long the flow lived, whole seconds
 * @param durationNsec  and the nanoseconds beyond {@code durationSec}
 * @param idleTimeout   the flow's idle timeout
 * @param packetCount   packets that matched the flow
 * @param byteCount     bytes that matched the flow
 */
public record OFFlowRemoved(int xid, OFMatch match, long cookie, int priority, Reason reason, long durationSec,
        long durationNsec, int idleTimeout, long packetCount, long byteCount) implements OFMessage {
    public static final int LENGTH = 88;

    /** {@code ofp_flow_removed_reason}. */
    public enum Reason {
        IDLE_TIMEOUT,
        HARD_TIMEOUT,
        DELETE;

        private static final Reason[] BY_VALUE = values();

        /** The wire value (declaration order). */
        public int value() {
            return ordinal();
        }

        /** @return the reason, or {@code null} when {@code value} is not defined */
        public static Reason fromValue(int value) {
            return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
        }
    }

    public OFFlowRemoved {
        Objects.requireNonNull(match, "match");
        OFWire.u16(priority, "priority");
        Objects.requireNonNull(reason, "reason");
        OFWire.u32(durationSec, "duration_sec");
        OFWire.u32(durationNsec, "duration_nsec");
        OFWire.u16(idleTimeout, "idle_timeout");
    }

    @Override
    public OFType type() {
        return OFType.FLOW_REMOVED;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.FLOW_REMOVED, LENGTH, xid);
        match.writeTo(buf);
        buf.putLong(cookie).putShort((short) priority).put((byte) reason.value()).put((byte) 0)
                .putInt((int) durationSec).putInt((int) durationNsec).putShort((short) idleTimeout).putShort((short) 0)
                .putLong(packetCount).putLong(byteCount);
    }

    static OFFlowRemoved read(ByteBuffer buf, int start, int xid) throws OFParseException {
        int r = buf.get(start + 58) & 0xff;
        Reason reason = Reason.fromValue(r);
        if (reason == null) {
            throw new OFParseException("unknown flow removed reason " + r);
        }
        buf.position(start + HEADER_LENGTH);
        OFMatch match = OFMatch.readFrom(buf);
        return new OFFlowRemoved(xid, match, buf.getLong(start + 48), buf.getShort(start + 56) & 0xffff, reason,
                buf.getInt(start + 60) & 0xffff_ffffL, buf.getInt(start + 64) & 0xffff_ffffL,
                buf.getShort(start + 68) & 0xffff, buf.getLong(start + 72), buf.getLong(start + 80));
    }

    @Override
    public String toString() {
        return "OFFlowRemoved[xid=" + xid + ", match=" + match + ", cookie=" + OFWire.hex(cookie) + ", priority="
                + priority + ", reason=" + reason + ", duration=" + durationSec + "."
                + String.format("%09d", durationNsec) + "s, idle_timeout=" + idleTimeout + ", packets="
                + Long.toUnsignedString(packetCount) + ", bytes=" + Long.toUnsignedString(byteCount) + "]";
    }
}
