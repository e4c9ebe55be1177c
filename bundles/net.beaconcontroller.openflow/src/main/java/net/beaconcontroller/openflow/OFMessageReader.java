package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import net.beaconcontroller.openflow.vendor.Nicira;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * Reads OpenFlow 1.0 messages from a stream buffer.
 *
 * <p>Usage on a read loop: read from the socket into a buffer, {@code flip()} it, call {@link #read} until it
 * returns {@code null}, then {@code compact()} and read again. A buffer of 65535 bytes holds any message.
 *
 * <p>Guarantees for any input bytes: the only exception is {@link OFParseException}; no allocation exceeds the
 * declared message length; every loop over a message's body advances by at least a structure's fixed size.
 */
public final class OFMessageReader {
    private static final int UNKNOWN = -1;
    /** Smallest valid length per type value. */
    private static final int[] MIN_LENGTH = new int[OFType.values().length];
    /** Whether the type has exactly its minimum length. */
    private static final boolean[] FIXED_LENGTH = new boolean[OFType.values().length];

    static {
        minimum(OFType.HELLO, OFMessage.HEADER_LENGTH);
        minimum(OFType.ERROR, OFError.MIN_LENGTH);
        minimum(OFType.ECHO_REQUEST, OFMessage.HEADER_LENGTH);
        minimum(OFType.ECHO_REPLY, OFMessage.HEADER_LENGTH);
        minimum(OFType.VENDOR, OFVendor.MIN_LENGTH);
        fixed(OFType.FEATURES_REQUEST, OFMessage.HEADER_LENGTH);
        minimum(OFType.FEATURES_REPLY, OFFeaturesReply.MIN_LENGTH);
        fixed(OFType.GET_CONFIG_REQUEST, OFMessage.HEADER_LENGTH);
        fixed(OFType.GET_CONFIG_REPLY, OFGetConfigReply.LENGTH);
        fixed(OFType.SET_CONFIG, OFSetConfig.LENGTH);
        minimum(OFType.PACKET_IN, OFPacketIn.MIN_LENGTH);
        fixed(OFType.FLOW_REMOVED, OFFlowRemoved.LENGTH);
        fixed(OFType.PORT_STATUS, OFPortStatus.LENGTH);
        minimum(OFType.PACKET_OUT, OFPacketOut.MIN_LENGTH);
        minimum(OFType.FLOW_MOD, OFFlowMod.MIN_LENGTH);
        fixed(OFType.PORT_MOD, OFPortMod.LENGTH);
        minimum(OFType.STATS_REQUEST, OFStatsRequest.MIN_LENGTH);
        minimum(OFType.STATS_REPLY, OFStatsReply.MIN_LENGTH);
        fixed(OFType.BARRIER_REQUEST, OFMessage.HEADER_LENGTH);
        fixed(OFType.BARRIER_REPLY, OFMessage.HEADER_LENGTH);
        fixed(OFType.QUEUE_GET_CONFIG_REQUEST, OFQueueGetConfigRequest.LENGTH);
        minimum(OFType.QUEUE_GET_CONFIG_REPLY, OFQueueGetConfigReply.MIN_LENGTH);
    }

    private OFMessageReader() {
    }

    private static void minimum(OFType type, int length) {
        MIN_LENGTH[type.value()] = length;
    }

    private static void fixed(OFType type, int length) {
        MIN_LENGTH[type.value()] = length;
        FIXED_LENGTH[type.value()] = true;
    }

    /**
     * The length the header at the buffer's position declares, without checking it, or -1 when fewer than 8 bytes
     * remain. Lets a caller size its buffer; {@link #read} does all the checking.
     */
    public static int peekLength(ByteBuffer buf) {
        int start = buf.position();
        return buf.limit() - start < OFMessage.HEADER_LENGTH ? UNKNOWN : buf.getShort(start + 2) & 0xffff;
    }

    /**
     * Reads the message at the buffer's position.
     *
     * <p>If the bytes between position and limit hold a complete message, it is parsed and the position advances
     * past it. If they hold only part of one, the result is {@code null} and the position is unchanged. The limit
     * never changes. Message fields that are views (the frame of {@link OFPacketIn} and {@link OFPacketOut}) point
     * into {@code buf}.
     *
     * @param buf a big-endian buffer (the default order)
     * @return the message, or {@code null} when more bytes are needed
     * @throws OFParseException when the bytes are not a valid OpenFlow 1.0 message (a HELLO of any version is
     *                          valid): wrong version, unknown type, a length below the type's fixed size, or a body
     *                          that does not add up. The position is left unchanged. The stream cannot be resumed:
     *                          close the connection.
     * @throws IllegalArgumentException when {@code buf} is little-endian (a programming error, not bad input)
     */
    public static OFMessage read(ByteBuffer buf) throws OFParseException {
        if (buf.order() != ByteOrder.BIG_ENDIAN) {
            throw new IllegalArgumentException("OpenFlow buffers must be big-endian");
        }
        int start = buf.position();
        int limit = buf.limit();
        if (limit - start < OFMessage.HEADER_LENGTH) {
            return null;
        }
        long header = buf.getLong(start);
        int typeValue = (int) (header >>> 48) & 0xff;
        int length = (int) (header >>> 32) & 0xffff;
        OFType type = OFType.fromValue(typeValue);
        // One test for every header error, and the text built out of line: this method is on the hot path and
        // should stay small enough to be inlined.
        if (type == null || ((int) (header >>> 56) != OFMessage.VERSION && type != OFType.HELLO)
                || length < MIN_LENGTH[typeValue] || (FIXED_LENGTH[typeValue] && length != MIN_LENGTH[typeValue])) {
            throw headerError(header);
        }
        if (limit - start < length) {
            return null;
        }
        int xid = (int) header;
        int end = start + length;
        // Sub-structure readers work from the position; a limit at the message end keeps them inside it.
        buf.limit(end);
        try {
            // PACKET_IN is most of the traffic; the switch over all types is too big for the JIT to inline.
            OFMessage m = type == OFType.PACKET_IN ? OFPacketIn.read(buf, start, xid)
                    : parse(buf, type, start, length, xid);
            buf.position(end);
            return m;
        } catch (OFParseException | RuntimeException e) {
            buf.position(start);
            throw bodyError(type, xid, length, e);
        } finally {
            buf.limit(limit);
        }
    }

    private static OFParseException headerError(long header) {
        int version = (int) (header >>> 56);
        int typeValue = (int) (header >>> 48) & 0xff;
        int length = (int) (header >>> 32) & 0xffff;
        OFType type = OFType.fromValue(typeValue);
        if (type == null) {
            return new OFParseException("unknown message type " + typeValue + " (version " + version + ", length "
                    + length + ")");
        }
        if (version != OFMessage.VERSION && type != OFType.HELLO) {
            return new OFParseException(type + " of unsupported version " + version + " (only HELLO may have a"
                    + " version other than " + OFMessage.VERSION + ")");
        }
        return new OFParseException(type + " with length " + length + ": must be "
                + (FIXED_LENGTH[typeValue] ? "" : "at least ") + MIN_LENGTH[typeValue]);
    }

    private static OFParseException bodyError(OFType type, int xid, int length, Exception e) {
        String context = type + " (xid " + Integer.toUnsignedString(xid) + ", length " + length + "): ";
        if (e instanceof OFParseException) {
            return new OFParseException(context + e.getMessage());
        }
        // Last resort: a check missing somewhere must still not take the I/O loop down.
        var pe = new OFParseException(context + "malformed (" + e + ")");
        pe.initCause(e);
        return pe;
    }

    private static OFMessage parse(ByteBuffer buf, OFType type, int start, int length, int xid)
            throws OFParseException {
        return switch (type) {
            case PACKET_IN -> OFPacketIn.read(buf, start, xid);
            case HELLO -> OFHello.read(buf, start, length, xid);
            case ERROR -> OFError.read(buf, start, length, xid);
            case ECHO_REQUEST -> OFEchoRequest.read(buf, start, length, xid);
            case ECHO_REPLY -> OFEchoReply.read(buf, start, length, xid);
            case VENDOR -> readVendor(buf, start, length, xid);
            case FEATURES_REQUEST -> new OFFeaturesRequest(xid);
            case FEATURES_REPLY -> OFFeaturesReply.read(buf, start, length, xid);
            case GET_CONFIG_REQUEST -> new OFGetConfigRequest(xid);
            case GET_CONFIG_REPLY -> OFGetConfigReply.read(buf, start, xid);
            case SET_CONFIG -> OFSetConfig.read(buf, start, xid);
            case FLOW_REMOVED -> OFFlowRemoved.read(buf, start, xid);
            case PORT_STATUS -> OFPortStatus.read(buf, start, xid);
            case PACKET_OUT -> OFPacketOut.read(buf, start, length, xid);
            case FLOW_MOD -> OFFlowMod.read(buf, start, length, xid);
            case PORT_MOD -> OFPortMod.read(buf, start, xid);
            case STATS_REQUEST -> OFStatsRequest.read(buf, start, length, xid);
            case STATS_REPLY -> OFStatsReply.read(buf, start, length, xid);
            case BARRIER_REQUEST -> new OFBarrierRequest(xid);
            case BARRIER_REPLY -> new OFBarrierReply(xid);
            case QUEUE_GET_CONFIG_REQUEST -> OFQueueGetConfigRequest.read(buf, start, xid);
            case QUEUE_GET_CONFIG_REPLY -> OFQueueGetConfigReply.read(buf, start, length, xid);
        };
    }

    /** Nicira role messages get their own types; any other vendor message stays generic. */
    private static OFMessage readVendor(ByteBuffer buf, int start, int length, int xid) throws OFParseException {
        long vendor = buf.getInt(start + 8) & 0xffff_ffffL;
        if (vendor == Nicira.VENDOR_ID && length >= 16) {
            long subtype = buf.getInt(start + 12) & 0xffff_ffffL;
            if (subtype == Nicira.NXT_ROLE_REQUEST || subtype == Nicira.NXT_ROLE_REPLY) {
                if (length != Nicira.ROLE_MESSAGE_LENGTH) {
                    throw new OFParseException("Nicira role message must be " + Nicira.ROLE_MESSAGE_LENGTH
                            + " bytes");
                }
                long r = buf.getInt(start + 16) & 0xffff_ffffL;
                NiciraRole role = NiciraRole.fromValue(r);
                if (role == null) {
                    throw new OFParseException("unknown Nicira role " + r);
                }
                return subtype == Nicira.NXT_ROLE_REQUEST ? new NiciraRoleRequest(xid, role)
                        : new NiciraRoleReply(xid, role);
            }
        }
        return new OFVendor(xid, vendor, OFData.copyOf(buf, start + OFVendor.MIN_LENGTH, length - OFVendor.MIN_LENGTH));
    }
}
