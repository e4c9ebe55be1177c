package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;

/** BARRIER_REPLY: every message sent before the matching {@link OFBarrierRequest} has been processed. */
public record OFBarrierReply(int xid) implements OFMessage {

    @Override
    public OFType type() {
        return OFType.BARRIER_REPLY;
    }

    @Override
    public int length() {
        return HEADER_LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.BARRIER_REPLY, HEADER_LENGTH, xid);
    }
}
