package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * ECHO_REPLY: the answer to an {@link OFEchoRequest}, carrying its data.
 *
 * @param data arbitrary payload
 */
public record OFEchoReply(int xid, OFData data) implements OFMessage {

    public OFEchoReply {
        Objects.requireNonNull(data, "data");
        OFWire.checkLength(HEADER_LENGTH + data.length(), "ECHO_REPLY");
    }

    /** Without payload. */
    public OFEchoReply(int xid) {
        this(xid, OFData.EMPTY);
    }

    @Override
    public OFType type() {
        return OFType.ECHO_REPLY;
    }

    @Override
    public int length() {
        return HEADER_LENGTH + data.length();
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.ECHO_REPLY, length(), xid);
        data.writeTo(buf);
    }

    static OFEchoReply read(ByteBuffer buf, int start, int length, int xid) {
        return new OFEchoReply(xid, OFData.copyOf(buf, start + HEADER_LENGTH, length - HEADER_LENGTH));
    }
}
