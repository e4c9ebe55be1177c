package net.beaconcontroller.openflow.queue;

import java.nio.ByteBuffer;

/** {@code OFPQT_NONE}: a property header without property. */
public record OFQueuePropertyNone() implements OFQueueProperty {
    public static final int LENGTH = 8;
    /** The only value there is. */
    public static final OFQueuePropertyNone INSTANCE = new OFQueuePropertyNone();

    @Override
    public int propertyType() {
        return TYPE_NONE;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        buf.putShort((short) TYPE_NONE).putShort((short) LENGTH).putInt(0);
    }
}
