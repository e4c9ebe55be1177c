package net.beaconcontroller.cbench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The few OpenFlow 1.0 facts and pre-built messages the generator and the responder need.
 *
 * <p>Deliberately independent of the controller's OpenFlow bundle: the benchmark must not share code (or bugs) with
 * the thing it measures. Every builder returns a fresh big-endian byte array that callers copy once into their
 * buffers and then patch in place.
 */
public final class OpenFlow10 {
    /** Wire version of OpenFlow 1.0. */
    public static final byte VERSION = 0x01;
    /** Size of {@code ofp_header}. */
    public static final int HEADER_LENGTH = 8;

    public static final int HELLO = 0;
    public static final int ERROR = 1;
    public static final int ECHO_REQUEST = 2;
    public static final int ECHO_REPLY = 3;
    public static final int VENDOR = 4;
    public static final int FEATURES_REQUEST = 5;
    public static final int FEATURES_REPLY = 6;
    public static final int GET_CONFIG_REQUEST = 7;
    public static final int GET_CONFIG_REPLY = 8;
    public static final int SET_CONFIG = 9;
    public static final int PACKET_IN = 10;
    public static final int PACKET_OUT = 13;
    public static final int FLOW_MOD = 14;
    public static final int STATS_REQUEST = 16;
    public static final int STATS_REPLY = 17;
    public static final int BARRIER_REQUEST = 18;
    public static final int BARRIER_REPLY = 19;

    public static final int FLOW_MOD_ADD = 0;
    public static final int FLOW_MOD_MODIFY = 1;
    public static final int FLOW_MOD_MODIFY_STRICT = 2;
    public static final int FLOW_MOD_DELETE = 3;
    public static final int FLOW_MOD_DELETE_STRICT = 4;

    public static final int STATS_DESC = 0;
    public static final int ERROR_BAD_REQUEST = 1;
    public static final int BAD_REQUEST_BAD_VENDOR = 3;

    public static final int ETH_TYPE_IPV4 = 0x0800;
    public static final int ETH_TYPE_ARP = 0x0806;
    public static final int ETH_TYPE_VLAN = 0x8100;
    public static final int ETH_TYPE_LLDP = 0x88cc;

    /** {@code buffer_id} meaning "not buffered, the frame is in the message". */
    public static final int NO_BUFFER = 0xffffffff;
    /** {@code miss_send_len} a switch reports before the controller sets one (OFP_DEFAULT_MISS_SEND_LEN). */
    public static final int DEFAULT_MISS_SEND_LEN = 128;

    /** Offset of {@code xid} in every message. */
    public static final int XID_OFFSET = 4;
    /** Offset of {@code buffer_id} in PACKET_IN. */
    public static final int PACKET_IN_BUFFER_ID_OFFSET = 8;
    /** Offset of the frame in PACKET_IN. */
    public static final int PACKET_IN_DATA_OFFSET = 18;
    /** Offset of {@code command} in FLOW_MOD. */
    public static final int FLOW_MOD_COMMAND_OFFSET = 56;
    /** Offset of {@code buffer_id} in FLOW_MOD. */
    public static final int FLOW_MOD_BUFFER_ID_OFFSET = 64;
    /** Offset of {@code actions_len} in PACKET_OUT. */
    public static final int PACKET_OUT_ACTIONS_LEN_OFFSET = 14;
    /** Offset of the first action in PACKET_OUT. */
    public static final int PACKET_OUT_ACTIONS_OFFSET = 16;

    /** Frame length of the measured PACKET_INs: the same 64 bytes cbench sends, so message sizes compare. */
    public static final int PROBE_FRAME_LENGTH = 64;
    /** Length of a measured PACKET_IN message. */
    public static final int PROBE_LENGTH = PACKET_IN_DATA_OFFSET + PROBE_FRAME_LENGTH;
    /**
     * Offset, inside a probe PACKET_IN, of the 4 rotating bytes of the source MAC (bytes 1..4 of the Ethernet source;
     * byte 0 stays 0 so the address is unicast, byte 5 holds the switch number).
     */
    public static final int PROBE_SOURCE_MAC_INDEX_OFFSET = PACKET_IN_DATA_OFFSET + 6 + 1;
    /** Frame length of the learn-phase gratuitous ARP: the Ethernet minimum. */
    public static final int LEARN_FRAME_LENGTH = 60;
    /** Length of the learn-phase PACKET_IN. */
    public static final int LEARN_LENGTH = PACKET_IN_DATA_OFFSET + LEARN_FRAME_LENGTH;
    /** In-port of the measured PACKET_INs; the learned destination sits behind {@link #LEARN_PORT}. */
    public static final int PROBE_IN_PORT = 1;
    /** Port on which the destination host announces itself during the learn phase. */
    public static final int LEARN_PORT = 2;
    /** Number of ports each emulated switch reports. */
    public static final int PORT_COUNT = 4;

    /** Length of the responder's FLOW_MOD: the fixed part plus one output action. */
    public static final int RESPONSE_FLOW_MOD_LENGTH = 72 + 8;

    private static final int FEATURES_FIXED_LENGTH = 32;
    private static final int PHY_PORT_LENGTH = 48;
    private static final int DESC_STRING_LENGTH = 256;
    private static final int SERIAL_NUM_LENGTH = 32;
    private static final int DESC_BODY_LENGTH = 4 * DESC_STRING_LENGTH + SERIAL_NUM_LENGTH;

    private OpenFlow10() {
    }

    /** A bare header-only message (HELLO, FEATURES_REQUEST, BARRIER_REPLY, ...). */
    public static byte[] headerOnly(int type, int xid) {
        return header(type, HEADER_LENGTH, xid).array();
    }

    /**
     * FEATURES_REPLY of an emulated switch: {@link #PORT_COUNT} copper 10 Gb/s ports numbered from 1, MACs derived
     * from the DPID so that every port in a run is distinct.
     */
    public static byte[] featuresReply(long dpid, int xid) {
        int length = FEATURES_FIXED_LENGTH + PORT_COUNT * PHY_PORT_LENGTH;
        ByteBuffer b = header(FEATURES_REPLY, length, xid);
        b.putLong(dpid);
        b.putInt(256); // n_buffers: cbench's PACKET_INs are buffered
        b.put((byte) 1); // n_tables
        b.position(b.position() + 3);
        b.putInt(0x87); // capabilities: flow, table and port stats, ARP match
        b.putInt(0xfff); // actions: all twelve OpenFlow 1.0 action types
        for (int port = 1; port <= PORT_COUNT; port++) {
            int start = b.position();
            b.putShort((short) port);
            b.put(new byte[] {0x02, (byte) (dpid >>> 24), (byte) (dpid >>> 16), (byte) (dpid >>> 8), (byte) dpid,
                    (byte) port});
            byte[] name = ("cb" + Long.toHexString(dpid) + "-eth" + port).getBytes(StandardCharsets.US_ASCII);
            b.put(name, 0, Math.min(name.length, 15)); // 16 bytes, NUL-terminated
            b.position(start + 2 + 6 + 16);
            b.putInt(0); // config
            b.putInt(0); // state: link up
            b.putInt(0x40 | 0x80); // curr: 10GB_FD | COPPER
            b.putInt(0);
            b.putInt(0x40 | 0x80); // supported
            b.putInt(0);
        }
        return b.array();
    }

    /** STATS_REPLY of type DESC describing the generator. */
    public static byte[] descStatsReply(int xid) {
        ByteBuffer b = header(STATS_REPLY, HEADER_LENGTH + 4 + DESC_BODY_LENGTH, xid);
        b.putShort((short) STATS_DESC);
        b.putShort((short) 0);
        putPadded(b, "Beacon cbench-compatible load generator", DESC_STRING_LENGTH);
        putPadded(b, "emulated switch", DESC_STRING_LENGTH);
        putPadded(b, "cbench-scripts", DESC_STRING_LENGTH);
        putPadded(b, "none", SERIAL_NUM_LENGTH);
        putPadded(b, "none", DESC_STRING_LENGTH);
        return b.array();
    }

    /** GET_CONFIG_REPLY reporting the given flags and miss_send_len. */
    public static byte[] getConfigReply(int xid, int flags, int missSendLen) {
        ByteBuffer b = header(GET_CONFIG_REPLY, 12, xid);
        b.putShort((short) flags);
        b.putShort((short) missSendLen);
        return b.array();
    }

    /** Length of the ERROR that answers a request of {@code requestLength} bytes (at most 64 echoed back). */
    public static int errorLength(int requestLength) {
        return HEADER_LENGTH + 4 + Math.min(requestLength, 64);
    }

    /** ERROR header for a BAD_REQUEST/BAD_VENDOR answer; the caller appends the offending request's first bytes. */
    public static byte[] badVendorErrorHeader(int xid, int requestLength) {
        ByteBuffer b = header(ERROR, errorLength(requestLength), xid);
        b.putShort((short) ERROR_BAD_REQUEST);
        b.putShort((short) BAD_REQUEST_BAD_VENDOR);
        return b.array();
    }

    /** MAC of the host each switch announces in the learn phase; the probes are addressed to it. */
    public static byte[] learnedMac(long dpid) {
        return new byte[] {(byte) 0x80, 0x00, (byte) (dpid >>> 24), (byte) (dpid >>> 16), (byte) (dpid >>> 8),
                (byte) dpid};
    }

    /** IPv4 address of the learned host: 10.x.y.z from the low 24 bits of the DPID. */
    public static byte[] learnedIp(long dpid) {
        return new byte[] {10, (byte) (dpid >>> 16), (byte) (dpid >>> 8), (byte) dpid};
    }

    /**
     * Template of a measured PACKET_IN: buffered, in_port {@link #PROBE_IN_PORT}, reason NO_MATCH, a 64-byte
     * Ethernet/IPv4/UDP frame to the learned host. The xid, buffer_id and the 4 bytes at
     * {@link #PROBE_SOURCE_MAC_INDEX_OFFSET} are patched per message (all zero here).
     */
    public static byte[] probePacketIn(long dpid) {
        ByteBuffer b = header(PACKET_IN, PROBE_LENGTH, 0);
        b.putInt(0); // buffer_id, patched
        b.putShort((short) PROBE_FRAME_LENGTH);
        b.putShort((short) PROBE_IN_PORT);
        b.put((byte) 0); // reason NO_MATCH
        b.put((byte) 0);
        b.put(learnedMac(dpid));
        b.put(new byte[] {0, 0, 0, 0, 0, (byte) dpid}); // source; bytes 1..4 rotate over the -M addresses
        b.putShort((short) ETH_TYPE_IPV4);
        int ipStart = b.position();
        int ipLength = PROBE_FRAME_LENGTH - 14;
        b.put((byte) 0x45).put((byte) 0).putShort((short) ipLength);
        b.putShort((short) 0).putShort((short) 0x4000); // id, don't fragment
        b.put((byte) 64).put((byte) 17).putShort((short) 0); // ttl, UDP, checksum below
        b.put(new byte[] {(byte) 192, (byte) 168, 0, 40});
        b.put(learnedIp(dpid));
        b.putShort(ipStart + 10, (short) ipv4Checksum(b.array(), ipStart, 20));
        b.putShort((short) 40000).putShort((short) 9); // UDP 40000 -> discard
        b.putShort((short) (ipLength - 20)).putShort((short) 0); // no UDP checksum
        // the payload stays zero
        return b.array();
    }

    /**
     * The learn-phase PACKET_IN: unbuffered, from port {@link #LEARN_PORT}, carrying a gratuitous ARP reply
     * (broadcast) in which the learned host announces its MAC and IP.
     */
    public static byte[] learnPacketIn(long dpid, int xid) {
        ByteBuffer b = header(PACKET_IN, LEARN_LENGTH, xid);
        b.putInt(NO_BUFFER);
        b.putShort((short) LEARN_FRAME_LENGTH);
        b.putShort((short) LEARN_PORT);
        b.put((byte) 0).put((byte) 0);
        byte[] mac = learnedMac(dpid);
        byte[] ip = learnedIp(dpid);
        b.put(new byte[] {-1, -1, -1, -1, -1, -1});
        b.put(mac);
        b.putShort((short) ETH_TYPE_ARP);
        b.putShort((short) 1).putShort((short) ETH_TYPE_IPV4).put((byte) 6).put((byte) 4);
        b.putShort((short) 2); // reply
        b.put(mac).put(ip).put(mac).put(ip);
        return b.array();
    }

    /**
     * The responder's FLOW_MOD: ADD, exact match on the probes' in_port, addresses and IPv4/UDP fields, output to
     * {@link #LEARN_PORT}. Only buffer_id (and the xid) are patched per answer.
     */
    public static byte[] responseFlowMod() {
        ByteBuffer b = header(FLOW_MOD, RESPONSE_FLOW_MOD_LENGTH, 0);
        b.putInt(0x00300000); // wildcards: only VLAN PCP and IP ToS
        b.putShort((short) PROBE_IN_PORT);
        b.put(new byte[] {0, 0, 0, 0, 0, 1}); // dl_src
        b.put(learnedMac(1)); // dl_dst
        b.putShort((short) 0xffff); // dl_vlan: none
        b.put((byte) 0).put((byte) 0);
        b.putShort((short) ETH_TYPE_IPV4);
        b.put((byte) 0).put((byte) 17).putShort((short) 0); // nw_tos, nw_proto, pad
        b.put(new byte[] {(byte) 192, (byte) 168, 0, 40});
        b.put(learnedIp(1));
        b.putShort((short) 40000).putShort((short) 9);
        b.putLong(0); // cookie
        b.putShort((short) FLOW_MOD_ADD);
        b.putShort((short) 5).putShort((short) 0); // idle 5 s, no hard timeout
        b.putShort((short) 0x8000); // default priority
        b.putInt(NO_BUFFER); // patched
        b.putShort((short) 0xffff); // out_port: none
        b.putShort((short) 0); // flags
        b.putShort((short) 0).putShort((short) 8).putShort((short) LEARN_PORT).putShort((short) 0); // output action
        return b.array();
    }

    private static ByteBuffer header(int type, int length, int xid) {
        ByteBuffer b = ByteBuffer.allocate(length);
        b.put(VERSION).put((byte) type).putShort((short) length).putInt(xid);
        return b;
    }

    private static void putPadded(ByteBuffer b, String text, int width) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        int start = b.position();
        b.put(bytes, 0, Math.min(bytes.length, width - 1));
        b.position(start + width);
    }

    static int ipv4Checksum(byte[] bytes, int offset, int length) {
        int sum = 0;
        for (int i = 0; i < length; i += 2) {
            sum += ((bytes[offset + i] & 0xff) << 8) | (bytes[offset + i + 1] & 0xff);
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        return ~sum & 0xffff;
    }
}
