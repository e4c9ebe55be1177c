package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.Objects;

import net.beaconcontroller.packet.Frame;

/**
 * PACKET_IN ({@code ofp_packet_in}): a packet the switch sends to the controller.
 *
 * <p><b>Zero copy.</b> A PACKET_IN read by {@link OFMessageReader} does not copy the frame: {@link #frame()} is a
 * view of the buffer the message was read from. The controller reuses its read buffers, so the view is valid only
 * while the message is being handled (inside the listener call). A listener that keeps the frame for later must
 * copy it with {@link #frameBytes()}; the same holds for the record itself.
 *
 * @param bufferId    id of the packet buffered at the switch, or {@link #NO_BUFFER} when the frame is all there is
 * @param totalLength length of the whole frame at the switch (the frame here may be cut to {@code miss_send_len})
 * @param inPort      the port the packet arrived on
 * @param reason      why the packet was sent
 * @param frame       the Ethernet frame: the bytes between its position and limit when constructed
 */
public record OFPacketIn(int xid, long bufferId, int totalLength, int inPort, Reason reason, ByteBuffer frame)
        implements OFMessage {
    /** Size of the fixed part ({@code offsetof(struct ofp_packet_in, data)}). */
    public static final int MIN_LENGTH = 18;

    /** {@code ofp_packet_in_reason}. */
    public enum Reason {
        /** No flow matched (table miss). */
        NO_MATCH,
        /** A flow's action output it to the controller. */
        ACTION;

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

    /**
     * Keeps a view of {@code frame}'s remaining bytes (they are not copied: do not change them while the message is
     * in use). Moving {@code frame}'s position afterwards does not affect the message.
     */
    public OFPacketIn {
        OFWire.u32(bufferId, "buffer_id");
        OFWire.u16(totalLength, "total_len");
        OFWire.u16(inPort, "in_port");
        Objects.requireNonNull(reason, "reason");
        frame = Objects.requireNonNull(frame, "frame").slice();
        OFWire.checkLength(MIN_LENGTH + frame.limit(), "PACKET_IN");
    }

    /**
     * A read-only view of the frame, positioned at 0 with the frame's length as limit. Every call returns a new
     * view, so one listener moving its position does not disturb the next. See the class comment for how long it is
     * valid.
     */
    @Override
    public ByteBuffer frame() {
        return frame.asReadOnlyBuffer();
    }

    /**
     * Aims {@code view} at this message's frame, for the controller's one parse of a PACKET_IN: unlike
     * {@link #frame()}, it makes no new buffer view, so a dispatch allocates nothing for its frame. The view then
     * reads the message's own buffer ({@link Frame#buffer()}): read it only with absolute getters, never change its
     * position, limit or bytes. Valid as long as {@link #frame()} is.
     *
     * @return {@code view}
     */
    public Frame wrapFrame(Frame view) {
        return view.wrap(frame);
    }

    /** Length of the frame carried in the message. */
    public int frameLength() {
        return frame.limit();
    }

    /** A copy of the frame that stays valid after the message has been handled. */
    public byte[] frameBytes() {
        var b = new byte[frame.limit()];
        frame.get(0, b);
        return b;
    }

    /** Whether the switch buffered the packet (a FLOW_MOD or PACKET_OUT can then refer to it by buffer id). */
    public boolean isBuffered() {
        return bufferId != NO_BUFFER;
    }

    @Override
    public OFType type() {
        return OFType.PACKET_IN;
    }

    @Override
    public int length() {
        return MIN_LENGTH + frame.limit();
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        int n = frame.limit();
        OFWire.writeHeader(buf, VERSION, OFType.PACKET_IN, MIN_LENGTH + n, xid);
        buf.putLong((bufferId << 32) | ((long) totalLength << 16) | inPort).putShort((short) (reason.value() << 8));
        int p = buf.position();
        buf.put(p, frame, 0, n);
        buf.position(p + n);
    }

    /** Reads the message at {@code start}; {@code buf}'s limit is the message end. Moves the position. */
    static OFPacketIn read(ByteBuffer buf, int start, int xid) throws OFParseException {
        int r = buf.get(start + 16) & 0xff;
        Reason reason = Reason.fromValue(r);
        if (reason == null) {
            throw new OFParseException("unknown packet in reason " + r);
        }
        // The constructor slices from the position to the limit: the message's frame, without a second view.
        buf.position(start + MIN_LENGTH);
        long fields = buf.getLong(start + 8);
        return new OFPacketIn(xid, fields >>> 32, (int) (fields >>> 16) & 0xffff, (int) fields & 0xffff, reason, buf);
    }

    @Override
    public String toString() {
        return "OFPacketIn[xid=" + xid + ", buffer_id=" + (isBuffered() ? OFWire.hex(bufferId) : "none")
                + ", total_len=" + totalLength + ", in_port=" + OFPort.toString(inPort) + ", reason=" + reason
                + ", frame=" + OFWire.hex(frame, 0, frame.limit(), 64) + "]";
    }
}
