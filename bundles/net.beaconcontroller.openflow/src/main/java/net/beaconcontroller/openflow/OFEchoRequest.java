package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * ECHO_REQUEST: a liveness probe; the switch answers with an {@link OFEchoReply} carrying the same data.
 *
 * @param data arbitrary payload
 */
public record OFEchoRequest(int xid, OFData data) implements OFMessage {

    public OFEchoRequest {
        Objects.requireNonNull(data, "data");
        OFWire.checkLength(HEADER_LENGTH + data.length(), "ECHO_REQUEST");
    }

    /** Without payload. */
    public OFEchoRequest(int xid) {
        this(xid, OFData.EMPTY);
    }

    @Override
    public OFType type() {
        return OFType.ECHO_REQUEST;
    }

    @Override
    public int length() {
        return HEADER_LENGTH + data.length();
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.ECHO_REQUEST, length(), xid);
        data.writeTo(buf);
    }

    static OFEchoRequest read(ByteBuffer buf, int start, int length, int xid) {
        return new OFEchoRequest(xid, OFData.copyOf(buf, start + HEADER_LENGTH, length - HEADER_LENGTH));
    }
}
