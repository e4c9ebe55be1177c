package net.beaconcontroller.packet;

import java.nio.ByteBuffer;
import java.util.Objects;

import net.beaconcontroller.util.MacAddress;

/**
 * A reusable, zero-copy view of an Ethernet frame inside a {@link ByteBuffer}, decoded lazily: the one parser of a
 * PACKET_IN's frame on the controller's hot path. {@link #wrap} reads the link layer (addresses, VLAN tag, ether
 * type); the network and transport headers are decoded on the first call of one of their getters and kept until the
 * next {@code wrap}. {@link #decode()} gives the full, immutable {@link Ethernet} when an application needs more.
 *
 * <pre>{@code
 * Frame frame = new Frame();               // one per I/O thread
 * ...
 * packetIn.wrapFrame(frame);              // for every PACKET_IN (wrap(packetIn.frame()) makes a buffer view)
 * learn(frame.dlSrc(), inPort);
 * int out = frame.isMulticast() ? OFPort.FLOOD : portOf(frame.dlDst());
 * OFMatch match = OFMatch.fromFrame(frame, inPort);
 * }</pre>
 *
 * <h2>Lifetime and threads</h2>
 * A Frame reads the bytes of the buffer it wraps in place, so it is valid only as long as they are: for a PACKET_IN,
 * during the one dispatch of the message, after which the controller reuses its read buffer. Keep the values read, not
 * the Frame; to keep the frame itself, copy its bytes or {@link #decode()} it. A Frame is not thread-safe: each thread
 * owns its own and re-wraps it for every frame. {@code wrap} allocates nothing (unless the buffer is not big-endian,
 * see there) and getters never allocate.
 *
 * <h2>Rules</h2>
 * The fields are those OpenFlow 1.0 matches on, extracted as Open vSwitch does (see {@code OFMatch.fromFrame}, which
 * is built on this class): one 802.1Q or 802.1ad tag; 802.3 frames get {@link #DL_TYPE_NOT_ETH_TYPE} unless an
 * LLC/SNAP header with organisation code 0 carries an ether type; ARP and RARP for Ethernet/IPv4 with the complete
 * 28-byte message; IPv4 with a complete header (IHL of at least 5 within the captured bytes and the total length);
 * transport ports (TCP, UDP, SCTP) or ICMP type and code only for a datagram that is not a fragment and whose total
 * length covers the transport header, as far as the captured bytes hold them (a frame cut by the switch's
 * {@code miss_send_len} still gives its ports). Nothing here checks a checksum or the IPv4 version nibble.
 *
 * <p>No content makes a getter throw: a missing or truncated header gives 0 or {@code false}, and only the bytes
 * between the buffer's position and limit at {@code wrap} time are read.
 */
public final class Frame {
    /** {@link #vlanId()} of an untagged frame (OpenFlow's {@code OFP_VLAN_NONE}). */
    public static final int VLAN_NONE = 0xffff;
    /**
     * {@link #etherType()} of an IEEE 802.3 frame that carries no SNAP ether type (OpenFlow's
     * {@code OFP_DL_TYPE_NOT_ETH_TYPE}).
     */
    public static final int DL_TYPE_NOT_ETH_TYPE = 0x05ff;

    private static final int TYPE_RARP = 0x8035;
    private static final int TYPE_QINQ = 0x88a8;
    /** Smallest type field value that is an ether type rather than an 802.3 length. */
    private static final int MIN_ETHER_TYPE = 0x0600;
    /** LLC DSAP 0xaa, SSAP 0xaa, control 0x03, then the first byte of the (zero) SNAP organisation code. */
    private static final int LLC_SNAP_PREFIX = 0xaaaa0300;
    private static final int LLC_SNAP_LENGTH = 8;
    /** ARP hardware type 1 (Ethernet) and protocol type 0x0800 (IPv4). */
    private static final int ARP_ETHERNET_IPV4 = 0x00010800;
    /** ARP hardware address length 6 and protocol address length 4. */
    private static final short ARP_ADDRESS_LENGTHS = 0x0604;
    private static final int PROTOCOL_SCTP = 132;
    /** The flags and fragment offset word without DF: non-zero for any fragment. */
    private static final int MF_AND_OFFSET = 0x3fff;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();

    private ByteBuffer buf;
    private int offset;
    private int end;

    // The link layer, read by wrap().
    private long dlDst;
    private long dlSrc;
    private int vlanId;
    private int vlanPcp;
    private int etherType;
    private int l3Offset;

    // The network and transport layers, read by the first getter that needs them after a wrap().
    private boolean decoded;
    private boolean arp;
    private boolean ipv4;
    private boolean fragment;
    /** Whether tpSrc/tpDst hold ports or ICMP type and code. */
    private boolean transport;
    /** OpenFlow's nw_src/nw_dst: the IPv4 addresses, or ARP's sender and target IP. */
    private int nwSrc;
    private int nwDst;
    private int arpOpcode;
    private int ipProto;
    private int ipTos;
    private int l4Offset;
    private int tpSrc;
    private int tpDst;

    /** A view of no bytes, until the first {@link #wrap}. */
    public Frame() {
        wrap(EMPTY);
    }

    /**
     * Makes this the view of the frame between {@code buf}'s position and limit, forgetting the previous one. The
     * buffer is not changed (its position stays); it must not be changed while this view is in use. A buffer in
     * little-endian order is read through a big-endian duplicate, which {@link #buffer()} then returns (the indexes
     * are the same); that is the only case that allocates.
     *
     * @return this frame
     */
    public Frame wrap(ByteBuffer buf) {
        return wrap(buf, buf.position(), buf.limit());
    }

    /**
     * Makes this the view of the frame in {@code buf} from index {@code from} up to {@code to}, regardless of the
     * buffer's position and limit (see {@link #wrap(ByteBuffer)}).
     *
     * @return this frame
     * @throws IndexOutOfBoundsException when the range is not within the buffer's limit
     */
    public Frame wrap(ByteBuffer buf, int from, int to) {
        Objects.checkFromToIndex(from, to, buf.limit());
        ByteBuffer b = Wire.bigEndian(buf);
        int p = from;
        this.buf = b;
        this.offset = p;
        this.end = to;
        this.decoded = false;
        vlanId = VLAN_NONE;
        vlanPcp = 0;
        if (end - p < Ethernet.HEADER_LENGTH) {
            dlDst = 0;
            dlSrc = 0;
            etherType = 0;
            l3Offset = 0;
            return this;
        }
        dlDst = MacAddress.read(b, p);
        dlSrc = MacAddress.read(b, p + 6);
        int type = Wire.u16(b, p + 12);
        p += Ethernet.HEADER_LENGTH;
        // A tag without the ether type after it is left as it is: the type stays the TPID.
        if ((type == Ethernet.TYPE_VLAN || type == TYPE_QINQ) && end - p >= Ethernet.VLAN_TAG_LENGTH) {
            int tci = Wire.u16(b, p);
            vlanId = tci & 0x0fff;
            vlanPcp = tci >>> 13;
            type = Wire.u16(b, p + 2);
            p += Ethernet.VLAN_TAG_LENGTH;
        }
        if (type < MIN_ETHER_TYPE) {
            if (end - p >= LLC_SNAP_LENGTH && b.getInt(p) == LLC_SNAP_PREFIX && b.getShort(p + 4) == 0
                    && Wire.u16(b, p + 6) >= MIN_ETHER_TYPE) {
                type = Wire.u16(b, p + 6);
                p += LLC_SNAP_LENGTH;
            } else {
                type = DL_TYPE_NOT_ETH_TYPE;
            }
        }
        etherType = type;
        l3Offset = p;
        return this;
    }

    /** The buffer this view reads (see {@link #wrap} for when it is a duplicate of the one given). */
    public ByteBuffer buffer() {
        return buf;
    }

    /** Index in {@link #buffer()} of the frame's first byte: the position at {@link #wrap} time. */
    public int offset() {
        return offset;
    }

    /** Bytes in the view: the frame as captured, which the switch may have cut to {@code miss_send_len}. */
    public int length() {
        return end - offset;
    }

    /** Whether the view holds at least an Ethernet header (14 bytes); without one every getter gives 0 or false. */
    public boolean isEthernet() {
        return end - offset >= Ethernet.HEADER_LENGTH;
    }

    /** Destination MAC, low 48 bits. */
    public long dlDst() {
        return dlDst;
    }

    /** Source MAC, low 48 bits. */
    public long dlSrc() {
        return dlSrc;
    }

    /** Whether the destination is ff:ff:ff:ff:ff:ff. */
    public boolean isBroadcast() {
        return dlDst == MacAddress.BROADCAST;
    }

    /** Whether the destination has the group bit set: multicast, broadcast included. */
    public boolean isMulticast() {
        return MacAddress.isMulticast(dlDst);
    }

    /** The VLAN id of the (outer) 802.1Q or 802.1ad tag, or {@link #VLAN_NONE} for an untagged frame. */
    public int vlanId() {
        return vlanId;
    }

    /** The tag's priority code point, 0 for an untagged frame. */
    public int vlanPcp() {
        return vlanPcp;
    }

    /**
     * OpenFlow 1.0's {@code dl_type}: the ether type after at most one tag; for an 802.3 frame the SNAP ether type,
     * or {@link #DL_TYPE_NOT_ETH_TYPE} when there is none; the TPID when a tag is cut off; 0 without an Ethernet
     * header.
     */
    public int etherType() {
        return etherType;
    }

    /** Index in {@link #buffer()} of the header after the link layer (tag and LLC/SNAP skipped); 0 without one. */
    public int l3Offset() {
        return l3Offset;
    }

    /**
     * Whether this is an ARP or RARP message for Ethernet/IPv4 (hardware type 1, protocol type 0x0800, address
     * lengths 6 and 4) with all 28 bytes captured. The packet library's {@link Arp} is laxer about the types.
     */
    public boolean isArp() {
        return (decoded ? this : decodeNetwork()).arp;
    }

    /** The ARP operation (u16), 0 unless {@link #isArp()}. */
    public int arpOpcode() {
        return (decoded ? this : decodeNetwork()).arpOpcode;
    }

    /** The ARP sender hardware address, 0 unless {@link #isArp()}. */
    public long arpSenderMac() {
        return isArp() ? MacAddress.read(buf, l3Offset + 8) : 0;
    }

    /** The ARP sender protocol address, 0 unless {@link #isArp()}. */
    public int arpSenderIp() {
        return isArp() ? nwSrc : 0;
    }

    /** The ARP target hardware address, 0 unless {@link #isArp()}. */
    public long arpTargetMac() {
        return isArp() ? MacAddress.read(buf, l3Offset + 18) : 0;
    }

    /** The ARP target protocol address, 0 unless {@link #isArp()}. */
    public int arpTargetIp() {
        return isArp() ? nwDst : 0;
    }

    /**
     * Whether an IPv4 header is complete: at least 20 bytes captured, an IHL of at least 5 whose bytes are captured
     * and within the total length. The version nibble is not checked, as Open vSwitch's OpenFlow 1.0 does not.
     */
    public boolean isIpv4() {
        return (decoded ? this : decodeNetwork()).ipv4;
    }

    /** IPv4 source address, 0 unless {@link #isIpv4()}. */
    public int ipv4Src() {
        return isIpv4() ? nwSrc : 0;
    }

    /** IPv4 destination address, 0 unless {@link #isIpv4()}. */
    public int ipv4Dst() {
        return isIpv4() ? nwDst : 0;
    }

    /** IPv4 protocol, 0 unless {@link #isIpv4()}. */
    public int ipProto() {
        return (decoded ? this : decodeNetwork()).ipProto;
    }

    /** The ToS byte with the two ECN bits cleared (DSCP &lt;&lt; 2, OpenFlow 1.0's {@code nw_tos}); 0 unless IPv4. */
    public int ipTos() {
        return (decoded ? this : decodeNetwork()).ipTos;
    }

    /** Whether this IPv4 datagram is a fragment, the first included (more-fragments set or a non-zero offset). */
    public boolean isFragment() {
        return (decoded ? this : decodeNetwork()).fragment;
    }

    /**
     * Index in {@link #buffer()} of the IPv4 payload, which is the transport header unless {@link #isFragment()};
     * 0 unless {@link #isIpv4()}. The payload may lie partly or wholly beyond the captured bytes.
     */
    public int l4Offset() {
        return (decoded ? this : decodeNetwork()).l4Offset;
    }

    /** Whether this is a TCP segment whose ports {@link #tpSrc()} and {@link #tpDst()} give. */
    public boolean isTcp() {
        return hasTransport(Ipv4.PROTOCOL_TCP);
    }

    /** Whether this is a UDP datagram whose ports {@link #tpSrc()} and {@link #tpDst()} give. */
    public boolean isUdp() {
        return hasTransport(Ipv4.PROTOCOL_UDP);
    }

    /** Whether this is an ICMP message whose type and code {@link #tpSrc()} and {@link #tpDst()} give. */
    public boolean isIcmp() {
        return hasTransport(Ipv4.PROTOCOL_ICMP);
    }

    private boolean hasTransport(int protocol) {
        return (decoded ? this : decodeNetwork()).transport && ipProto == protocol;
    }

    /** OpenFlow 1.0's {@code tp_src}: the TCP, UDP or SCTP source port, or the ICMP type; 0 when absent. */
    public int tpSrc() {
        return (decoded ? this : decodeNetwork()).tpSrc;
    }

    /** OpenFlow 1.0's {@code tp_dst}: the TCP, UDP or SCTP destination port, or the ICMP code; 0 when absent. */
    public int tpDst() {
        return (decoded ? this : decodeNetwork()).tpDst;
    }

    /** Whether the ether type is LLDP's, 0x88cc. */
    public boolean isLldp() {
        return etherType == Ethernet.TYPE_LLDP;
    }

    /**
     * Whether this is UDP between the DHCP ports 67 and 68 (either way, or 67 to 67 between relays). Only the ports
     * are looked at: a frame cut to {@code miss_send_len} rarely holds the message's magic cookie.
     */
    public boolean isDhcp() {
        return isUdp() && isDhcpPort(tpSrc) && isDhcpPort(tpDst);
    }

    private static boolean isDhcpPort(int port) {
        return port == Udp.DHCP_SERVER_PORT || port == Udp.DHCP_CLIENT_PORT;
    }

    /**
     * The whole frame parsed by the packet library into immutable records that stay valid after the buffer is
     * reused. Its rules are its own: it knows one 802.1Q tag and no LLC/SNAP, and it rejects what it cannot parse.
     *
     * @throws PacketParseException when the frame or a header inside it is malformed
     */
    public Ethernet decode() throws PacketParseException {
        return Ethernet.parseIn(buf, offset, end - offset);
    }

    /** The link layer, e.g. {@code Frame[52:54:00:12:34:56 > ff:ff:ff:ff:ff:ff, vlan 10, type 0x0806, 60 bytes]}. */
    @Override
    public String toString() {
        if (!isEthernet()) {
            return "Frame[" + length() + " bytes, no Ethernet header]";
        }
        return "Frame[" + MacAddress.toString(dlSrc) + " > " + MacAddress.toString(dlDst)
                + (vlanId == VLAN_NONE ? "" : ", vlan " + vlanId) + ", type " + Wire.hex16(etherType) + ", "
                + length() + " bytes]";
    }

    /**
     * Decodes the network and transport headers; the getters read {@code (decoded ? this : decodeNetwork()).field}.
     * The check is written out in each getter so that it inlines into the caller and only the first getter after a
     * {@link #wrap} makes a call (a helper holding the check gets compiled together with this method, and is then
     * too big for the JIT to inline anywhere).
     *
     * @return this frame
     */
    private Frame decodeNetwork() {
        decoded = true;
        arp = false;
        ipv4 = false;
        fragment = false;
        transport = false;
        nwSrc = 0;
        nwDst = 0;
        arpOpcode = 0;
        ipProto = 0;
        ipTos = 0;
        l4Offset = 0;
        tpSrc = 0;
        tpDst = 0;
        if (etherType == Ethernet.TYPE_IPV4) {
            decodeIpv4();
        } else if (etherType == Ethernet.TYPE_ARP || etherType == TYPE_RARP) {
            decodeArp();
        }
        return this;
    }

    private void decodeArp() {
        int p = l3Offset;
        if (end - p >= Arp.LENGTH && buf.getInt(p) == ARP_ETHERNET_IPV4
                && buf.getShort(p + 4) == ARP_ADDRESS_LENGTHS) {
            arp = true;
            arpOpcode = Wire.u16(buf, p + 6);
            nwSrc = buf.getInt(p + 14);
            nwDst = buf.getInt(p + 24);
        }
    }

    private void decodeIpv4() {
        int p = l3Offset;
        int captured = end - p;
        if (captured < Ipv4.MIN_HEADER_LENGTH) {
            return;
        }
        int headerLength = (buf.get(p) & 0x0f) << 2;
        int totalLength = Wire.u16(buf, p + 2);
        if (headerLength < Ipv4.MIN_HEADER_LENGTH || headerLength > captured || headerLength > totalLength) {
            return;
        }
        ipv4 = true;
        ipTos = buf.get(p + 1) & 0xfc;
        ipProto = Wire.u8(buf, p + 9);
        nwSrc = buf.getInt(p + 12);
        nwDst = buf.getInt(p + 16);
        l4Offset = p + headerLength;
        // Any fragment, even the first, carries no transport fields in OpenFlow 1.0's view.
        fragment = (buf.getShort(p + 6) & MF_AND_OFFSET) != 0;
        if (!fragment) {
            decodeTransport(totalLength - headerLength);
        }
    }

    /** Ports or ICMP type and code, when the datagram is long enough for the header and they were captured. */
    private void decodeTransport(int datagramLength) {
        int p = l4Offset;
        int captured = end - p;
        switch (ipProto) {
            case Ipv4.PROTOCOL_TCP, Ipv4.PROTOCOL_UDP, PROTOCOL_SCTP -> {
                int headerLength = switch (ipProto) {
                    case Ipv4.PROTOCOL_TCP -> Tcp.MIN_HEADER_LENGTH;
                    case Ipv4.PROTOCOL_UDP -> Udp.HEADER_LENGTH;
                    default -> 12; // SCTP common header
                };
                if (datagramLength >= headerLength && captured >= 4) {
                    transport = true;
                    tpSrc = Wire.u16(buf, p);
                    tpDst = Wire.u16(buf, p + 2);
                }
            }
            case Ipv4.PROTOCOL_ICMP -> {
                if (datagramLength >= Icmp.HEADER_LENGTH && captured >= 2) {
                    transport = true;
                    tpSrc = Wire.u8(buf, p);
                    tpDst = Wire.u8(buf, p + 1);
                }
            }
            default -> {
                // other protocols have no transport fields in OpenFlow 1.0
            }
        }
    }
}
