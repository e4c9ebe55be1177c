package net.beaconcontroller.openflow.queue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.OFWire;

/**
 * A queue of a port ({@code ofp_packet_queue}) as described in QUEUE_GET_CONFIG_REPLY.
 *
 * @param queueId    the queue's id
 * @param properties its properties
 */
public record OFPacketQueue(long queueId, List<OFQueueProperty> properties) {
    /** Size without properties. */
    public static final int MIN_LENGTH = 8;

    public OFPacketQueue {
        OFWire.u32(queueId, "queue_id");
        properties = List.copyOf(properties);
        OFWire.checkLength(length(properties), "queue description");
    }

    private static int length(List<OFQueueProperty> properties) {
        int n = MIN_LENGTH;
        for (OFQueueProperty p : properties) {
            n += p.length();
        }
        return n;
    }

    /** Bytes on the wire, properties included. */
    public int length() {
        return length(properties);
    }

    public void writeTo(ByteBuffer buf) {
        buf.putInt((int) queueId).putShort((short) length()).putShort((short) 0);
        for (OFQueueProperty p : properties) {
            p.writeTo(buf);
        }
    }

    /**
     * Reads one queue at the buffer's position, at most {@code available} bytes, and advances past it.
     *
     * @throws OFParseException when the queue's length is below 8, beyond {@code available}, or its properties do
     *                          not fill it exactly
     */
    public static OFPacketQueue readFrom(ByteBuffer buf, int available) throws OFParseException {
        int p = buf.position();
        if (available < MIN_LENGTH) {
            throw new OFParseException("queue needs " + MIN_LENGTH + " bytes, " + available + " left");
        }
        int len = buf.getShort(p + 4) & 0xffff;
        if (len < MIN_LENGTH || len > available) {
            throw new OFParseException("queue length " + len + " not within " + MIN_LENGTH + ".." + available);
        }
        var properties = new ArrayList<OFQueueProperty>();
        buf.position(p + MIN_LENGTH);
        int end = p + len;
        // Every property is at least 8 bytes or an error, so this loop ends.
        while (buf.position() < end) {
            properties.add(OFQueueProperty.readFrom(buf, end - buf.position()));
        }
        return new OFPacketQueue(buf.getInt(p) & 0xffff_ffffL, properties);
    }
}
