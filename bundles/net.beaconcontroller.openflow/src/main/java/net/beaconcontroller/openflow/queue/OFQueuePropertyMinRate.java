package net.beaconcontroller.openflow.queue;

import java.nio.ByteBuffer;

import net.beaconcontroller.openflow.OFWire;

/**
 * {@code OFPQT_MIN_RATE} ({@code ofp_queue_prop_min_rate}): the queue's guaranteed rate.
 *
 * @param rate in tenths of a percent of the port speed; above 1000 means disabled
 */
public record OFQueuePropertyMinRate(int rate) implements OFQueueProperty {
    public static final int LENGTH = 16;

    public OFQueuePropertyMinRate {
        OFWire.u16(rate, "min rate");
    }

    /** Whether a minimum rate is in force (rates above 100.0% disable it). */
    public boolean isEnabled() {
        return rate <= 1000;
    }

    @Override
    public int propertyType() {
        return TYPE_MIN_RATE;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        buf.putShort((short) TYPE_MIN_RATE).putShort((short) LENGTH).putInt(0);
        buf.putShort((short) rate).putShort((short) 0).putInt(0);
    }
}
