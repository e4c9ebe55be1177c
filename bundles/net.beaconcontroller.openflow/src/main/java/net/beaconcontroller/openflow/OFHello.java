package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * HELLO. The reader accepts a HELLO of any version (and keeps the version and any body, such as the version bitmap
 * of OpenFlow 1.3+) so that the controller can answer a peer it cannot speak with HELLO_FAILED.
 *
 * @param version  the header's version byte
 * @param elements the body after the header, usually empty for OpenFlow 1.0
 */
public record OFHello(int xid, int version, OFData elements) implements OFMessage {

    public OFHello {
        OFWire.u8(version, "HELLO version");
        Objects.requireNonNull(elements, "elements");
        OFWire.checkLength(HEADER_LENGTH + elements.length(), "HELLO");
    }

    /** An OpenFlow 1.0 HELLO without body. */
    public OFHello(int xid) {
        this(xid, VERSION, OFData.EMPTY);
    }

    @Override
    public OFType type() {
        return OFType.HELLO;
    }

    @Override
    public int length() {
        return HEADER_LENGTH + elements.length();
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, version, OFType.HELLO, length(), xid);
        elements.writeTo(buf);
    }

    static OFHello read(ByteBuffer buf, int start, int length, int xid) {
        return new OFHello(xid, buf.get(start) & 0xff,
                OFData.copyOf(buf, start + HEADER_LENGTH, length - HEADER_LENGTH));
    }
}
