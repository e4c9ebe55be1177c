package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;

/**
 * FEATURES_REQUEST: asks the switch for its datapath id, capabilities and ports (answered by {@link OFFeaturesReply}).
 */
public record OFFeaturesRequest(int xid) implements OFMessage {

    @Override
    public OFType type() {
        return OFType.FEATURES_REQUEST;
    }

    @Override
    public int length() {
        return HEADER_LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.FEATURES_REQUEST, HEADER_LENGTH, xid);
    }
}
