package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;

/**
 * SET_CONFIG ({@code ofp_switch_config}): sets fragment handling and how many bytes of a table-miss packet go to the
 * controller.
 *
 * @param flags          fragment handling, one of {@code OFSetConfig.FRAG_*}
 * @param missSendLength bytes of a packet sent to the controller on a table miss (0xffff: all of it)
 */
public record OFSetConfig(int xid, int flags, int missSendLength) implements OFMessage {
    public static final int LENGTH = 12;

    /** {@code OFPC_FRAG_NORMAL}: no special handling of IP fragments. */
    public static final int FRAG_NORMAL = 0;
    /** {@code OFPC_FRAG_DROP}: drop IP fragments. */
    public static final int FRAG_DROP = 1;
    /** {@code OFPC_FRAG_REASM}: reassemble IP fragments. */
    public static final int FRAG_REASM = 2;
    /** Bits of {@code flags} holding the fragment handling. */
    public static final int FRAG_MASK = 3;
    /** The spec's default {@code miss_send_len}. */
    public static final int DEFAULT_MISS_SEND_LEN = 128;

    public OFSetConfig {
        OFWire.u16(flags, "flags");
        OFWire.u16(missSendLength, "miss_send_len");
    }

    @Override
    public OFType type() {
        return OFType.SET_CONFIG;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.SET_CONFIG, LENGTH, xid);
        buf.putShort((short) flags).putShort((short) missSendLength);
    }

    static OFSetConfig read(ByteBuffer buf, int start, int xid) {
        return new OFSetConfig(xid, buf.getShort(start + 8) & 0xffff, buf.getShort(start + 10) & 0xffff);
    }
}
