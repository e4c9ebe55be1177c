package net.beaconcontroller.openflow.action;

import java.nio.ByteBuffer;

import net.beaconcontroller.openflow.OFPort;

/**
 * {@code OFPAT_ENQUEUE}: send the packet through a queue of a port.
 *
 * @param port    the port the queue belongs to, {@code 0..0xffff}
 * @param queueId the queue, an unsigned 32-bit id
 */
public record OFActionEnqueue(int port, long queueId) implements OFAction {
    /** {@code OFPAT_ENQUEUE}. */
    public static final int TYPE = 11;
    /** {@code sizeof(ofp_action_enqueue)}. */
    public static final int LENGTH = 16;

    /** @throws IllegalArgumentException naming the field when a value is out of its range */
    public OFActionEnqueue {
        ActionValues.check(port, 0xffff, "port");
        if ((queueId & ~0xffff_ffffL) != 0) {
            throw new IllegalArgumentException("queueId must be 0..4294967295, not " + queueId);
        }
    }

    @Override
    public int type() {
        return TYPE;
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        buf.putShort((short) TYPE).putShort((short) LENGTH).putShort((short) port)
                .putShort((short) 0).putInt(0).putInt((int) queueId);
    }

    /** {@code enqueue:PORT:QUEUE}. */
    @Override
    public String toString() {
        return "enqueue:" + OFPort.toString(port) + ":" + queueId;
    }
}
