package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * PORT_STATUS ({@code ofp_port_status}): a port was added, removed or changed.
 *
 * @param reason what happened
 * @param desc   the port's description after the change
 */
public record OFPortStatus(int xid, Reason reason, OFPhysicalPort desc) implements OFMessage {
    public static final int LENGTH = 64;

    /** {@code ofp_port_reason}. */
    public enum Reason {
        ADD,
        DELETE,
        MODIFY;

        private static final Reason[] BY_VALUE = values();

        /** The wire value (declaration order). */
        public int value() {
            return ordinal();
        }

        /** @return the reason, or {@code null} when {@code value} is not defined */
        public static Reason fromValue(int value) {
            return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
        }
    }

    public OFPortStatus {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(desc, "desc");
    }

    @Override
    public OFType type() {
        return OFType.PORT_STATUS;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.PORT_STATUS, LENGTH, xid);
        buf.put((byte) reason.value());
        OFWire.writeZeros(buf, 7);
        desc.writeTo(buf);
    }

    static OFPortStatus read(ByteBuffer buf, int start, int xid) throws OFParseException {
        int r = buf.get(start + 8) & 0xff;
        Reason reason = Reason.fromValue(r);
        if (reason == null) {
            throw new OFParseException("unknown port status reason " + r);
        }
        buf.position(start + 16);
        return new OFPortStatus(xid, reason, OFPhysicalPort.readFrom(buf));
    }
}
