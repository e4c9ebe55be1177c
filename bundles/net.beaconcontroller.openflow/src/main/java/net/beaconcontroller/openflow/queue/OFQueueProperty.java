package net.beaconcontroller.openflow.queue;

import java.nio.ByteBuffer;

import net.beaconcontroller.openflow.OFParseException;

/** A queue property ({@code ofp_queue_prop_header} and what follows); OpenFlow 1.0 defines NONE and MIN_RATE. */
public sealed interface OFQueueProperty permits OFQueuePropertyNone, OFQueuePropertyMinRate {
    /** Size of {@code ofp_queue_prop_header}. */
    int HEADER_LENGTH = 8;
    /** {@code OFPQT_NONE}. */
    int TYPE_NONE = 0;
    /** {@code OFPQT_MIN_RATE}. */
    int TYPE_MIN_RATE = 1;

    /** The {@code property} field. */
    int propertyType();

    /** Bytes on the wire, header included. */
    int length();

    /** Writes the property at the buffer's position and advances it. */
    void writeTo(ByteBuffer buf);

    /**
     * Reads one property at the buffer's position, at most {@code available} bytes, and advances past it.
     *
     * @throws OFParseException for an unknown type or a length that is not the type's
     */
    static OFQueueProperty readFrom(ByteBuffer buf, int available) throws OFParseException {
        int p = buf.position();
        if (available < HEADER_LENGTH) {
            throw new OFParseException("queue property needs " + HEADER_LENGTH + " bytes, " + available + " left");
        }
        int type = buf.getShort(p) & 0xffff;
        int len = buf.getShort(p + 2) & 0xffff;
        int expected = switch (type) {
            case TYPE_NONE -> OFQueuePropertyNone.LENGTH;
            case TYPE_MIN_RATE -> OFQueuePropertyMinRate.LENGTH;
            default -> throw new OFParseException("unknown queue property type " + type);
        };
        if (len != expected || len > available) {
            throw new OFParseException("queue property type " + type + " has length " + len + ", must be " + expected
                    + (len > available ? " and within the " + available + " bytes left" : ""));
        }
        buf.position(p + len);
        return type == TYPE_NONE ? OFQueuePropertyNone.INSTANCE
                : new OFQueuePropertyMinRate(buf.getShort(p + HEADER_LENGTH) & 0xffff);
    }
}
