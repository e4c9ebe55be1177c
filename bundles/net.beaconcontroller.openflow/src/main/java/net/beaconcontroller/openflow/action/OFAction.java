package net.beaconcontroller.openflow.action;

import java.nio.ByteBuffer;

import net.beaconcontroller.openflow.OFParseException;

/**
 * An OpenFlow 1.0 action ({@code ofp_action_*}). Every action is an immutable record that checks its values when
 * built and prints itself in ovs-ofctl syntax; {@link OFActions} reads, writes, prints and parses lists of them.
 * Buffers must be big-endian (the {@code ByteBuffer} default).
 */
public sealed interface OFAction permits OFActionOutput, OFActionSetVlanVid, OFActionSetVlanPcp, OFActionStripVlan,
        OFActionSetDlSrc, OFActionSetDlDst, OFActionSetNwSrc, OFActionSetNwDst, OFActionSetNwTos, OFActionSetTpSrc,
        OFActionSetTpDst, OFActionEnqueue, OFActionVendor {

    /** The {@code OFPAT_*} type code. */
    int type();

    /** Bytes on the wire, header included; always a multiple of 8. */
    int length();

    /** Writes the action at the buffer's position (padding as zeros) and moves the position past it. */
    void writeTo(ByteBuffer buf);

    /**
     * Reads one action at the buffer's position, bounded by its limit, and moves the position past it; on error the
     * position is unchanged.
     *
     * @throws OFParseException when the header is truncated, the length is below 8, not a multiple of 8, longer than
     *                          the bytes left or wrong for the type, the type is unknown, or a value is out of range
     */
    static OFAction readFrom(ByteBuffer buf) throws OFParseException {
        return OFActions.read(buf, buf.limit());
    }
}
