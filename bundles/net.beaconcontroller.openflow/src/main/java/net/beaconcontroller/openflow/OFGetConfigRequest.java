package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;

/** GET_CONFIG_REQUEST: asks for the switch configuration (answered by {@link OFGetConfigReply}). */
public record OFGetConfigRequest(int xid) implements OFMessage {

    @Override
    public OFType type() {
        return OFType.GET_CONFIG_REQUEST;
    }

    @Override
    public int length() {
        return HEADER_LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.GET_CONFIG_REQUEST, HEADER_LENGTH, xid);
    }
}
