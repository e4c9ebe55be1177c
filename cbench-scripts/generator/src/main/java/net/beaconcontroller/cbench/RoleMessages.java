package net.beaconcontroller.cbench;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The messages of a switch that several controllers share through the Nicira role extension (Open vSwitch's
 * NXT_ROLE_REQUEST on OpenFlow 1.0), and the numbered PACKET_INs whose answers {@link RoleLoad} times.
 */
final class RoleMessages {
    static final int FLOW_REMOVED = 11;
    static final int NICIRA_VENDOR_ID = 0x2320;
    static final int NXT_ROLE_REQUEST = 10;
    static final int NXT_ROLE_REPLY = 11;
    static final int ROLE_MESSAGE_LENGTH = 20;
    static final int ERROR_EPERM = 5;
    static final int FLOW_MOD_FLAG_SEND_FLOW_REM = 1;
    static final int FLOW_MOD_COOKIE_OFFSET = 48;
    static final int FLOW_MOD_PRIORITY_OFFSET = 62;
    static final int FLOW_MOD_FLAGS_OFFSET = 70;
    /** Where in the frame the PACKET_IN's number sits: the first bytes of the UDP payload. */
    static final int FRAME_NUMBER_OFFSET = 14 + 20 + 8;

    /** Role values of the Nicira extension. */
    enum Role {
        OTHER, MASTER, SLAVE;

        static Role of(int value) {
            return switch (value) {
                case 0 -> OTHER;
                case 1 -> MASTER;
                case 2 -> SLAVE;
                default -> null;
            };
        }
    }

    private RoleMessages() {
    }

    /** The role asked by a VENDOR message, or null when it is not a well-formed Nicira role request. */
    static Role roleRequested(byte[] message) {
        if (message.length < ROLE_MESSAGE_LENGTH) {
            return null;
        }
        var b = ByteBuffer.wrap(message);
        if (b.getInt(8) != NICIRA_VENDOR_ID || b.getInt(12) != NXT_ROLE_REQUEST) {
            return null;
        }
        return Role.of(b.getInt(16));
    }

    static byte[] roleReply(int xid, Role role) {
        return ByteBuffer.allocate(ROLE_MESSAGE_LENGTH).put(OpenFlow10.VERSION).put((byte) OpenFlow10.VENDOR)
                .putShort((short) ROLE_MESSAGE_LENGTH).putInt(xid).putInt(NICIRA_VENDOR_ID).putInt(NXT_ROLE_REPLY)
                .putInt(role.ordinal()).array();
    }

    /** Open vSwitch's answer to a SLAVE's FLOW_MOD or PACKET_OUT: BAD_REQUEST/EPERM with its first 64 bytes. */
    static byte[] permissionError(byte[] refused) {
        int copied = Math.min(64, refused.length);
        return ByteBuffer.allocate(12 + copied).put(OpenFlow10.VERSION).put((byte) OpenFlow10.ERROR)
                .putShort((short) (12 + copied)).putInt(ByteBuffer.wrap(refused).getInt(OpenFlow10.XID_OFFSET))
                .putShort((short) OpenFlow10.ERROR_BAD_REQUEST).putShort((short) ERROR_EPERM)
                .put(refused, 0, copied).array();
    }

    /** The BAD_VENDOR error cbench sends for any vendor message it does not know. */
    static byte[] badVendor(byte[] request) {
        int length = OpenFlow10.errorLength(request.length);
        var header = OpenFlow10.badVendorErrorHeader(ByteBuffer.wrap(request).getInt(OpenFlow10.XID_OFFSET),
                request.length);
        var error = Arrays.copyOf(header, length);
        System.arraycopy(request, 0, error, header.length, length - header.length);
        return error;
    }

    /** The FLOW_REMOVED (reason DELETE) that deleting the flow a FLOW_MOD added produces. */
    static byte[] flowRemoved(byte[] added) {
        var fm = ByteBuffer.wrap(added);
        return ByteBuffer.allocate(88).put(OpenFlow10.VERSION).put((byte) FLOW_REMOVED).putShort((short) 88)
                .putInt(0).put(added, 8, 40).putLong(fm.getLong(FLOW_MOD_COOKIE_OFFSET))
                .putShort(fm.getShort(FLOW_MOD_PRIORITY_OFFSET)).put((byte) 2) // reason DELETE
                .put(new byte[1 + 4 + 4 + 2 + 2 + 8 + 8]).array();
    }

    /**
     * Template of a numbered PACKET_IN: cbench's probe with one source MAC, to a destination no member has learned,
     * so the learning switch floods it with one PACKET_OUT carrying the buffer_id. {@link #number} sets the number.
     */
    static byte[] numberedPacketIn(long dpid) {
        return OpenFlow10.probePacketIn(dpid);
    }

    /** Writes {@code n} as xid, buffer_id and into the frame's payload. */
    static void number(byte[] packetIn, int n) {
        var b = ByteBuffer.wrap(packetIn);
        b.putInt(OpenFlow10.XID_OFFSET, n);
        b.putInt(OpenFlow10.PACKET_IN_BUFFER_ID_OFFSET, n);
        b.putInt(OpenFlow10.PACKET_IN_DATA_OFFSET + FRAME_NUMBER_OFFSET, n);
    }

    /**
     * The number of the PACKET_IN a FLOW_MOD or PACKET_OUT answers: its buffer_id, or for an unbuffered PACKET_OUT
     * the number in its frame; -1 when it answers none (a FLOW_MOD without buffer, a PACKET_OUT without frame).
     */
    static long answered(byte[] message) {
        var b = ByteBuffer.wrap(message);
        int type = message[1];
        if (type == OpenFlow10.FLOW_MOD) {
            int buffer = message.length >= 72 ? b.getInt(OpenFlow10.FLOW_MOD_BUFFER_ID_OFFSET) : OpenFlow10.NO_BUFFER;
            return buffer == OpenFlow10.NO_BUFFER ? -1 : Integer.toUnsignedLong(buffer);
        }
        if (message.length < OpenFlow10.PACKET_OUT_ACTIONS_OFFSET) {
            return -1;
        }
        int buffer = b.getInt(OpenFlow10.PACKET_IN_BUFFER_ID_OFFSET);
        if (buffer != OpenFlow10.NO_BUFFER) {
            return Integer.toUnsignedLong(buffer);
        }
        int frame = OpenFlow10.PACKET_OUT_ACTIONS_OFFSET
                + (b.getShort(OpenFlow10.PACKET_OUT_ACTIONS_LEN_OFFSET) & 0xffff);
        // Only a frame of ours carries a number: a controller's own frames (LLDP probes, ARP) do not.
        if (frame + FRAME_NUMBER_OFFSET + 4 > message.length || !isProbeFrame(b, frame)) {
            return -1;
        }
        return Integer.toUnsignedLong(b.getInt(frame + FRAME_NUMBER_OFFSET));
    }

    /** IPv4, UDP, to port 9, as {@link OpenFlow10#probePacketIn} builds it. */
    private static boolean isProbeFrame(ByteBuffer b, int frame) {
        return (b.getShort(frame + 12) & 0xffff) == OpenFlow10.ETH_TYPE_IPV4 && b.get(frame + 14 + 9) == 17
                && b.getShort(frame + 14 + 20 + 2) == 9;
    }
}
