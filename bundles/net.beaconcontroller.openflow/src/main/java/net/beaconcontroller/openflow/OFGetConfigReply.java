package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;

/**
 * GET_CONFIG_REPLY ({@code ofp_switch_config}): the switch configuration; the fields are those of {@link OFSetConfig}.
 *
 * @param flags          fragment handling, one of {@code OFSetConfig.FRAG_*}
 * @param missSendLength bytes of a packet sent to the controller on a table miss (0xffff: all of it)
 */
public record OFGetConfigReply(int xid, int flags, int missSendLength) implements OFMessage {
    public static final int LENGTH = 12;

    public OFGetConfigReply {
        OFWire.u16(flags, "flags");
        OFWire.u16(missSendLength, "miss_send_len");
    }

    @Override
    public OFType type() {
        return OFType.GET_CONFIG_REPLY;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.GET_CONFIG_REPLY, LENGTH, xid);
        buf.putShort((short) flags).putShort((short) missSendLength);
    }

    static OFGetConfigReply read(ByteBuffer buf, int start, int xid) {
        return new OFGetConfigReply(xid, buf.getShort(start + 8) & 0xffff, buf.getShort(start + 10) & 0xffff);
    }
}
