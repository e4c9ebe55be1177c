package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;

/**
 * QUEUE_GET_CONFIG_REQUEST ({@code ofp_queue_get_config_request}): asks for the queues of a port.
 *
 * @param port the port (below {@link OFPort#MAX})
 */
public record OFQueueGetConfigRequest(int xid, int port) implements OFMessage {
    public static final int LENGTH = 12;

    public OFQueueGetConfigRequest {
        OFWire.u16(port, "port");
    }

    @Override
    public OFType type() {
        return OFType.QUEUE_GET_CONFIG_REQUEST;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.QUEUE_GET_CONFIG_REQUEST, LENGTH, xid);
        buf.putShort((short) port).putShort((short) 0);
    }

    static OFQueueGetConfigRequest read(ByteBuffer buf, int start, int xid) {
        return new OFQueueGetConfigRequest(xid, buf.getShort(start + 8) & 0xffff);
    }
}
