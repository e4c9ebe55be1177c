package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;

/** BARRIER_REQUEST: the switch answers with {@link OFBarrierReply} once every earlier message has been processed. */
public record OFBarrierRequest(int xid) implements OFMessage {

    @Override
    public OFType type() {
        return OFType.BARRIER_REQUEST;
    }

    @Override
    public int length() {
        return HEADER_LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.BARRIER_REQUEST, HEADER_LENGTH, xid);
    }
}
