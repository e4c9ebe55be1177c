package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import net.beaconcontroller.openflow.queue.OFPacketQueue;

/**
 * QUEUE_GET_CONFIG_REPLY ({@code ofp_queue_get_config_reply}): the queues configured on a port.
 *
 * @param port   the port asked about
 * @param queues its queues
 */
public record OFQueueGetConfigReply(int xid, int port, List<OFPacketQueue> queues) implements OFMessage {
    /** Size without queues. */
    public static final int MIN_LENGTH = 16;

    public OFQueueGetConfigReply {
        OFWire.u16(port, "port");
        queues = List.copyOf(queues);
        OFWire.checkLength(length(queues), "QUEUE_GET_CONFIG_REPLY");
    }

    private static int length(List<OFPacketQueue> queues) {
        int n = MIN_LENGTH;
        for (OFPacketQueue q : queues) {
            n += q.length();
        }
        return n;
    }

    @Override
    public OFType type() {
        return OFType.QUEUE_GET_CONFIG_REPLY;
    }

    @Override
    public int length() {
        return length(queues);
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.QUEUE_GET_CONFIG_REPLY, length(), xid);
        buf.putShort((short) port);
        OFWire.writeZeros(buf, 6);
        for (OFPacketQueue q : queues) {
            q.writeTo(buf);
        }
    }

    /** Reads the message at {@code start}; {@code buf}'s limit is the message end. Moves the position. */
    static OFQueueGetConfigReply read(ByteBuffer buf, int start, int length, int xid) throws OFParseException {
        var queues = new ArrayList<OFPacketQueue>();
        int end = start + length;
        buf.position(start + MIN_LENGTH);
        // Every queue is at least 8 bytes or an error, so this loop ends.
        while (buf.position() < end) {
            queues.add(OFPacketQueue.readFrom(buf, end - buf.position()));
        }
        return new OFQueueGetConfigReply(xid, buf.getShort(start + 8) & 0xffff, queues);
    }
}
