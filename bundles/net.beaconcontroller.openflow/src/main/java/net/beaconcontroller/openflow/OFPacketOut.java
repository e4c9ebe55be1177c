package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActions;

/**
 * PACKET_OUT ({@code ofp_packet_out}): sends a packet out of the switch, either one the switch buffered
 * ({@code bufferId}) or the frame carried in {@code data}.
 *
 * <p>The frame is a {@link ByteBuffer} so that a PACKET_IN's frame view can be sent back out without copying: the
 * bytes are read when the message is written, so they must stay unchanged until then (the controller writes the
 * message into its output buffer during the call that sends it). Wrap a {@code byte[]} with
 * {@link ByteBuffer#wrap(byte[])}.
 *
 * @param bufferId id of a packet buffered at the switch, or {@link #NO_BUFFER}
 * @param inPort   the packet's input port ({@link OFPort#NONE} if none); used by {@code IN_PORT} and {@code FLOOD}
 * @param actions  what to do with the packet
 * @param data     the frame (its bytes between position and limit when constructed), empty with a buffer id
 */
public record OFPacketOut(int xid, long bufferId, int inPort, List<OFAction> actions, ByteBuffer data)
        implements OFMessage {
    /** Size of the fixed part. */
    public static final int MIN_LENGTH = 16;
    private static final ByteBuffer NO_DATA = ByteBuffer.allocate(0);

    /** Keeps a view of {@code data}'s remaining bytes (not copied); moving its position afterwards has no effect. */
    public OFPacketOut {
        OFWire.u32(bufferId, "buffer_id");
        OFWire.u16(inPort, "in_port");
        actions = List.copyOf(actions);
        data = Objects.requireNonNull(data, "data").slice();
        OFWire.checkLength(MIN_LENGTH + OFActions.totalLength(actions) + data.limit(), "PACKET_OUT");
    }

    /** Sends the packet buffered at the switch under {@code bufferId}. */
    public static OFPacketOut buffered(int xid, long bufferId, int inPort, List<OFAction> actions) {
        return new OFPacketOut(xid, bufferId, inPort, actions, NO_DATA);
    }

    /** Sends {@code frame} (not copied, see the class comment). */
    public static OFPacketOut unbuffered(int xid, int inPort, List<OFAction> actions, ByteBuffer frame) {
        return new OFPacketOut(xid, NO_BUFFER, inPort, actions, frame);
    }

    /**
     * Sends out the packet of a PACKET_IN: by its buffer id when the switch buffered it, else carrying its frame (the
     * frame view is not copied, see the class comment). Open vSwitch buffers nothing; cbench buffers everything.
     */
    public static OFPacketOut of(OFPacketIn pi, List<OFAction> actions) {
        return pi.isBuffered()
                ? buffered(0, pi.bufferId(), pi.inPort(), actions)
                : unbuffered(0, pi.inPort(), actions, pi.frame());
    }

    /** A read-only view of the frame, positioned at 0; a new view on every call. */
    @Override
    public ByteBuffer data() {
        return data.asReadOnlyBuffer();
    }

    /** Length of the frame carried in the message. */
    public int dataLength() {
        return data.limit();
    }

    @Override
    public OFType type() {
        return OFType.PACKET_OUT;
    }

    @Override
    public int length() {
        return MIN_LENGTH + OFActions.totalLength(actions) + data.limit();
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        int actionsLength = OFActions.totalLength(actions);
        int n = data.limit();
        OFWire.writeHeader(buf, VERSION, OFType.PACKET_OUT, MIN_LENGTH + actionsLength + n, xid);
        buf.putLong((bufferId << 32) | ((long) inPort << 16) | actionsLength);
        OFActions.writeList(buf, actions);
        int p = buf.position();
        buf.put(p, data, 0, n);
        buf.position(p + n);
    }

    /** Reads the message at {@code start}; {@code buf}'s limit is the message end. Moves the position. */
    static OFPacketOut read(ByteBuffer buf, int start, int length, int xid) throws OFParseException {
        int actionsLength = buf.getShort(start + 14) & 0xffff;
        if (actionsLength > length - MIN_LENGTH) {
            throw new OFParseException("actions_len " + actionsLength + " exceeds the " + (length - MIN_LENGTH)
                    + " bytes after the fixed part");
        }
        buf.position(start + MIN_LENGTH);
        List<OFAction> actions = OFActions.readList(buf, actionsLength);
        // The frame view is taken by the constructor: position to limit, which is the message end.
        buf.position(start + MIN_LENGTH + actionsLength);
        return new OFPacketOut(xid, buf.getInt(start + 8) & 0xffff_ffffL, buf.getShort(start + 12) & 0xffff, actions,
                buf);
    }

    @Override
    public String toString() {
        return "OFPacketOut[xid=" + xid + ", buffer_id=" + (bufferId == NO_BUFFER ? "none" : OFWire.hex(bufferId))
                + ", in_port=" + OFPort.toString(inPort) + ", actions=" + OFActions.toString(actions) + ", data="
                + OFWire.hex(data, 0, data.limit(), 64) + "]";
    }
}
