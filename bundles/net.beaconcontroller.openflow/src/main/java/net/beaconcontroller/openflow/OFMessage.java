package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;

/**
 * An OpenFlow 1.0 message: one immutable record per message type. Read them with {@link OFMessageReader}, write them
 * with {@link #writeTo}. Switch over the type with pattern matching ({@code case OFPacketIn pi -> ...}); the
 * compiler checks that every type is handled.
 *
 * <p>Field types: the xid is an opaque {@code int}; unsigned 8- and 16-bit fields are {@code int}, unsigned 32- and
 * 64-bit fields are {@code long}. Constructors reject values outside a field's range with
 * {@link IllegalArgumentException}, so every message that exists can be written.
 */
public sealed interface OFMessage permits OFHello, OFError, OFEchoRequest, OFEchoReply, OFVendor, NiciraRoleRequest,
        NiciraRoleReply, OFFeaturesRequest, OFFeaturesReply, OFGetConfigRequest, OFGetConfigReply, OFSetConfig,
        OFPacketIn, OFFlowRemoved, OFPortStatus, OFPacketOut, OFFlowMod, OFPortMod, OFStatsRequest, OFStatsReply,
        OFBarrierRequest, OFBarrierReply, OFQueueGetConfigRequest, OFQueueGetConfigReply {

    /** The OpenFlow 1.0 wire version. */
    int VERSION = 0x01;
    /** Size of {@code ofp_header}. */
    int HEADER_LENGTH = 8;
    /** {@code buffer_id} meaning "not buffered at the switch": the frame travels in the message. */
    long NO_BUFFER = 0xffff_ffffL;

    /** The transaction id, echoed by the switch in replies. */
    int xid();

    OFType type();

    /** The total length on the wire, header included. */
    int length();

    /** The header's version byte: always {@link #VERSION} except for a received {@link OFHello}. */
    default int version() {
        return VERSION;
    }

    /**
     * Writes the whole message, header included, at the buffer's position and advances the position by
     * {@link #length()}. The buffer must be big-endian (the default).
     *
     * @throws java.nio.BufferOverflowException when fewer than {@link #length()} bytes remain; nothing is written then
     */
    void writeTo(ByteBuffer buf);

    /** The message as a new byte array; for tests and tools, the I/O path writes into its buffers instead. */
    default byte[] toByteArray() {
        var b = new byte[length()];
        writeTo(ByteBuffer.wrap(b));
        return b;
    }
}
