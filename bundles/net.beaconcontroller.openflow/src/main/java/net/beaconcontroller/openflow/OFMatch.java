package net.beaconcontroller.openflow;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;

import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.util.MacAddress;

/**
 * An OpenFlow 1.0 flow match ({@code ofp_match}, 40 bytes): twelve header fields and a wildcards word saying which
 * of them a packet need not match. Immutable.
 *
 * <p>Values are unsigned and held in wide enough Java types: MAC addresses as the low 48 bits of a {@code long},
 * IPv4 addresses as an {@code int} (network order value, as {@code IPv4Address} uses), 16-bit fields in an
 * {@code int}, 8-bit fields in an {@code int}.
 *
 * <p><b>Wire fidelity and equality.</b> A match keeps exactly what it was read or built with, so
 * {@link #readFrom} followed by {@link #writeTo} gives back the same 40 bytes (padding is written as zeros). Two
 * matches are {@link #equals equal} when they match the same packets, the way a switch (Open vSwitch) reads them:
 * wildcard bits above bit 21 are ignored, an {@code nw_src}/{@code nw_dst} wildcard count of 32 or more means the
 * whole address, the value of a wildcarded field does not matter, the host bits of a prefix do not matter, a
 * {@code dl_vlan} other than {@link #VLAN_NONE} counts by its low 12 bits, {@code dl_vlan_pcp} by its low 3 bits
 * and {@code nw_tos} by its DSCP bits. So {@code OFMatch.ALL} written with {@code 0x003fffff} equals one read with
 * {@code 0x003820ff}. The builder and {@link #parse} only accept in-range values.
 *
 * <p>All codecs use the buffer's absolute or relative big-endian accessors; buffers must be in
 * {@link java.nio.ByteOrder#BIG_ENDIAN} order (the {@code ByteBuffer} default).
 */
public final class OFMatch {
    /** Size of {@code ofp_match} on the wire. */
    public static final int LENGTH = 40;

    /** Wildcard bit: any input port. */
    public static final int OFPFW_IN_PORT = 1 << 0;
    /** Wildcard bit: any VLAN id. */
    public static final int OFPFW_DL_VLAN = 1 << 1;
    /** Wildcard bit: any Ethernet source. */
    public static final int OFPFW_DL_SRC = 1 << 2;
    /** Wildcard bit: any Ethernet destination. */
    public static final int OFPFW_DL_DST = 1 << 3;
    /** Wildcard bit: any Ethernet type. */
    public static final int OFPFW_DL_TYPE = 1 << 4;
    /** Wildcard bit: any IP protocol (ARP opcode). */
    public static final int OFPFW_NW_PROTO = 1 << 5;
    /** Wildcard bit: any TCP/UDP source port (ICMP type). */
    public static final int OFPFW_TP_SRC = 1 << 6;
    /** Wildcard bit: any TCP/UDP destination port (ICMP code). */
    public static final int OFPFW_TP_DST = 1 << 7;
    /** Position of the count of wildcarded low-order {@code nw_src} bits. */
    public static final int OFPFW_NW_SRC_SHIFT = 8;
    /** Width of that count. */
    public static final int OFPFW_NW_SRC_BITS = 6;
    /** The {@code nw_src} wildcard count field. */
    public static final int OFPFW_NW_SRC_MASK = ((1 << OFPFW_NW_SRC_BITS) - 1) << OFPFW_NW_SRC_SHIFT;
    /** {@code nw_src} entirely wildcarded (any count of 32 or more means the same). */
    public static final int OFPFW_NW_SRC_ALL = 32 << OFPFW_NW_SRC_SHIFT;
    /** Position of the count of wildcarded low-order {@code nw_dst} bits. */
    public static final int OFPFW_NW_DST_SHIFT = 14;
    /** Width of that count. */
    public static final int OFPFW_NW_DST_BITS = 6;
    /** The {@code nw_dst} wildcard count field. */
    public static final int OFPFW_NW_DST_MASK = ((1 << OFPFW_NW_DST_BITS) - 1) << OFPFW_NW_DST_SHIFT;
    /** {@code nw_dst} entirely wildcarded (any count of 32 or more means the same). */
    public static final int OFPFW_NW_DST_ALL = 32 << OFPFW_NW_DST_SHIFT;
    /** Wildcard bit: any VLAN priority. */
    public static final int OFPFW_DL_VLAN_PCP = 1 << 20;
    /** Wildcard bit: any IP ToS (DSCP). */
    public static final int OFPFW_NW_TOS = 1 << 21;
    /** Every field wildcarded. */
    public static final int OFPFW_ALL = (1 << 22) - 1;

    /** {@code dl_vlan} of a frame without an 802.1Q tag ({@code OFP_VLAN_NONE}). */
    public static final int VLAN_NONE = 0xffff;

    /** The match every packet matches: wildcards {@link #OFPFW_ALL}, all fields zero. */
    public static final OFMatch ALL = new OFMatch(OFPFW_ALL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    private final int wildcards;
    private final int inPort;
    private final long dlSrc;
    private final long dlDst;
    private final int dlVlan;
    private final int dlVlanPcp;
    private final int dlType;
    private final int nwTos;
    private final int nwProto;
    private final int nwSrc;
    private final int nwDst;
    private final int tpSrc;
    private final int tpDst;

    private OFMatch(int wildcards, int inPort, long dlSrc, long dlDst, int dlVlan, int dlVlanPcp, int dlType,
            int nwTos, int nwProto, int nwSrc, int nwDst, int tpSrc, int tpDst) {
        this.wildcards = wildcards;
        this.inPort = inPort;
        this.dlSrc = dlSrc;
        this.dlDst = dlDst;
        this.dlVlan = dlVlan;
        this.dlVlanPcp = dlVlanPcp;
        this.dlType = dlType;
        this.nwTos = nwTos;
        this.nwProto = nwProto;
        this.nwSrc = nwSrc;
        this.nwDst = nwDst;
        this.tpSrc = tpSrc;
        this.tpDst = tpDst;
    }

    /**
     * Reads an {@code ofp_match} at the buffer's position and moves the position past it. Every 40-byte pattern is
     * a match; padding is ignored.
     *
     * @throws OFParseException when fewer than 40 bytes remain
     */
    public static OFMatch readFrom(ByteBuffer buf) throws OFParseException {
        int p = buf.position();
        if (buf.limit() - p < LENGTH) {
            throw new OFParseException("ofp_match at offset " + p + " is truncated: " + (buf.limit() - p)
                    + " bytes left, it needs " + LENGTH);
        }
        var m = new OFMatch(buf.getInt(p), u16(buf, p + 4), MacAddress.read(buf, p + 6), MacAddress.read(buf, p + 12),
                u16(buf, p + 18), buf.get(p + 20) & 0xff, u16(buf, p + 22), buf.get(p + 24) & 0xff,
                buf.get(p + 25) & 0xff, buf.getInt(p + 28), buf.getInt(p + 32), u16(buf, p + 36), u16(buf, p + 38));
        buf.position(p + LENGTH);
        return m;
    }

    /**
     * Writes the 40-byte {@code ofp_match} at the buffer's position and moves the position past it.
     *
     * @throws BufferOverflowException when fewer than 40 bytes remain (nothing is written then)
     */
    public void writeTo(ByteBuffer buf) {
        if (buf.remaining() < LENGTH) {
            throw new BufferOverflowException();
        }
        // Five 8-byte stores instead of seventeen small ones: this runs for every flow the controller installs.
        buf.putLong(((long) wildcards << 32) | ((long) inPort << 16) | (dlSrc >>> 32))
                .putLong((dlSrc << 32) | ((dlDst >>> 16) & 0xffff_ffffL))
                .putLong((dlDst << 48) | ((long) dlVlan << 32) | ((long) dlVlanPcp << 24) | dlType)
                .putLong(((long) nwTos << 56) | ((long) nwProto << 48) | (nwSrc & 0xffff_ffffL))
                .putLong(((long) nwDst << 32) | ((long) tpSrc << 16) | tpDst);
    }

    /**
     * The exact match (wildcards 0) for a frame, as a switch computes it when it looks the frame up: what a flow
     * must match to catch this frame and the ones like it. The fields are the ones {@code frame} decodes.
     *
     * <p>It follows the OpenFlow 1.0 specification (section 3.4, figure 3), and where Open vSwitch, the switch
     * Beacon runs against, extracts more than the specification says, it does what Open vSwitch does so that a
     * flow built from the match catches the next packet instead of sending it to the controller again:
     * <ul>
     * <li>Ethernet II: {@code dl_src}, {@code dl_dst}, {@code dl_type}; untagged frames get {@code dl_vlan}
     * {@link #VLAN_NONE} and {@code dl_vlan_pcp} 0.
     * <li>One 802.1Q tag (0x8100; Open vSwitch also takes an 802.1ad 0x88a8 tag): {@code dl_vlan} = VID,
     * {@code dl_vlan_pcp} = PCP, {@code dl_type} = the EtherType after the tag. A tag without a following EtherType
     * leaves {@code dl_type} = the TPID.
     * <li>802.3 (type/length below 0x0600): {@code dl_type} 0x05ff, unless an LLC/SNAP header with organisation
     * code 0 carries an EtherType (of at least 0x0600), which becomes {@code dl_type} and is parsed further.
     * <li>ARP (and RARP, as Open vSwitch does) for Ethernet/IPv4 with a complete 28-byte header: {@code nw_src} =
     * sender IP, {@code nw_dst} = target IP, {@code nw_proto} = the opcode when it fits 8 bits, otherwise 0.
     * <li>IPv4 with a complete header (IHL honoured, at least 20 bytes, total length at least the header):
     * {@code nw_tos} = the DSCP bits (ECN cleared), {@code nw_proto}, {@code nw_src}, {@code nw_dst}. For a
     * datagram that is not a fragment (MF clear and offset 0; any fragment, even the first, carries no ports in
     * OpenFlow 1.0): TCP/UDP (and SCTP, as Open vSwitch does) ports in {@code tp_src}/{@code tp_dst}, ICMP type and
     * code in {@code tp_src}/{@code tp_dst}, when the datagram's total length covers the transport header (TCP 20,
     * UDP 8, SCTP 12, ICMP 8 bytes) and the captured bytes hold the fields. A frame shorter than the IP total length
     * is taken as cut by the switch's {@code miss_send_len}, not as malformed.
     * <li>Anything else (IPv6 included) gives only the link-layer fields.
     * </ul>
     * Missing or truncated headers leave their fields 0; this method never throws for any frame content.
     *
     * @param inPort the port the frame arrived on, {@code 0..0xffff}
     * @throws IllegalArgumentException when {@code inPort} is not a 16-bit value
     */
    public static OFMatch fromFrame(Frame frame, int inPort) {
        if ((inPort & ~0xffff) != 0) {
            throw new IllegalArgumentException("inPort must be 0..65535, not " + inPort);
        }
        int nwProto;
        int nwSrc;
        int nwDst;
        if (frame.isArp()) {
            int opcode = frame.arpOpcode();
            nwProto = opcode <= 0xff ? opcode : 0; // nw_proto has 8 bits for the 16-bit opcode
            nwSrc = frame.arpSenderIp();
            nwDst = frame.arpTargetIp();
        } else {
            nwProto = frame.ipProto();
            nwSrc = frame.ipv4Src();
            nwDst = frame.ipv4Dst();
        }
        return new OFMatch(0, inPort, frame.dlSrc(), frame.dlDst(), frame.vlanId(), frame.vlanPcp(),
                frame.etherType(), frame.ipTos(), nwProto, nwSrc, nwDst, frame.tpSrc(), frame.tpDst());
    }

    /**
     * {@link #fromFrame} for the Ethernet frame between {@code frame}'s position and limit; neither is changed. It
     * makes a {@link Frame} for each call; code on the hot path, or that reads the frame's fields itself, wraps its
     * own reused Frame and calls {@code fromFrame}, so that the frame is parsed once and only the match is allocated.
     *
     * @param inPort the port the frame arrived on, {@code 0..0xffff}
     * @throws IllegalArgumentException when {@code inPort} is not a 16-bit value
     */
    public static OFMatch fromPacket(ByteBuffer frame, int inPort) {
        return fromFrame(new Frame().wrap(frame), inPort);
    }

    /**
     * Parses the ovs-ofctl match syntax that {@link #toString()} writes: comma-separated {@code field=value}
     * items, fields not named are wildcarded. Fields: {@code in_port} (number or reserved port name),
     * {@code dl_src}, {@code dl_dst} (MAC), {@code dl_vlan} (0..4095 or 0xffff for untagged), {@code dl_vlan_pcp}
     * (0..7), {@code dl_type}, {@code nw_tos} (a ToS byte with the ECN bits clear), {@code nw_proto}, {@code nw_src},
     * {@code nw_dst} (dotted quad, optionally {@code /prefix} or {@code /netmask}; host bits are cleared),
     * {@code tp_src}, {@code tp_dst}; the aliases {@code arp_op} (= nw_proto), {@code icmp_type} (= tp_src) and
     * {@code icmp_code} (= tp_dst); and the shorthands {@code ip}, {@code arp}, {@code rarp}, {@code icmp},
     * {@code tcp}, {@code udp}, {@code sctp}, which set {@code dl_type} (and {@code nw_proto}). Numbers are decimal
     * or {@code 0x} hexadecimal. {@code *} or an empty string is {@link #ALL}. {@code parse(m.toString())} equals
     * {@code m} for every match.
     *
     * @throws IllegalArgumentException naming the offending item: unknown field, bad or out-of-range value, a field
     *                                  given twice
     */
    public static OFMatch parse(String ofctl) {
        return OFMatchText.parse(ofctl);
    }

    /** A builder starting from {@link #ALL}: every field wildcarded until set. */
    public static Builder builder() {
        return new Builder(ALL);
    }

    /** A builder holding this match's wildcards and values, to derive a changed copy. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** The wildcards word as on the wire ({@code OFPFW_*} bits). */
    public int wildcards() {
        return wildcards;
    }

    /** {@code in_port}. */
    public int inPort() {
        return inPort;
    }

    /** {@code dl_src}, 48 bits. */
    public long dlSrc() {
        return dlSrc;
    }

    /** {@code dl_dst}, 48 bits. */
    public long dlDst() {
        return dlDst;
    }

    /** {@code dl_vlan}: the VLAN id, or {@link #VLAN_NONE} for untagged frames. */
    public int dlVlan() {
        return dlVlan;
    }

    /** {@code dl_vlan_pcp}. */
    public int dlVlanPcp() {
        return dlVlanPcp;
    }

    /** {@code dl_type}. */
    public int dlType() {
        return dlType;
    }

    /** {@code nw_tos}: the IP ToS byte's DSCP bits in place (the two ECN bits are zero). */
    public int nwTos() {
        return nwTos;
    }

    /** {@code nw_proto}: the IP protocol, or the ARP opcode. */
    public int nwProto() {
        return nwProto;
    }

    /** {@code nw_src}: IPv4 source (ARP sender) address. */
    public int nwSrc() {
        return nwSrc;
    }

    /** {@code nw_dst}: IPv4 destination (ARP target) address. */
    public int nwDst() {
        return nwDst;
    }

    /** {@code tp_src}: TCP/UDP source port or ICMP type. */
    public int tpSrc() {
        return tpSrc;
    }

    /** {@code tp_dst}: TCP/UDP destination port or ICMP code. */
    public int tpDst() {
        return tpDst;
    }

    /** How many leading bits of {@code nw_src} must match: 32 exact, 0 wildcarded. */
    public int nwSrcPrefixLength() {
        return 32 - nwWildcardBits(wildcards, OFPFW_NW_SRC_SHIFT);
    }

    /** How many leading bits of {@code nw_dst} must match: 32 exact, 0 wildcarded. */
    public int nwDstPrefixLength() {
        return 32 - nwWildcardBits(wildcards, OFPFW_NW_DST_SHIFT);
    }

    /**
     * Whether every field named by {@code flags} is wildcarded. For the {@code nw_src}/{@code nw_dst} count fields
     * any non-zero bit in {@code flags} asks whether the whole address is wildcarded.
     */
    public boolean isWildcarded(int flags) {
        int w = normalizeWildcards(wildcards);
        int simple = flags & ~(OFPFW_NW_SRC_MASK | OFPFW_NW_DST_MASK);
        return (w & simple) == simple
                && ((flags & OFPFW_NW_SRC_MASK) == 0 || (w & OFPFW_NW_SRC_MASK) == OFPFW_NW_SRC_ALL)
                && ((flags & OFPFW_NW_DST_MASK) == 0 || (w & OFPFW_NW_DST_MASK) == OFPFW_NW_DST_ALL);
    }

    /**
     * This match as an OpenFlow 1.0 switch keeps it (Open vSwitch's rules, and the specification's): a field whose
     * prerequisite the match does not have is wildcarded. The network fields count only under {@code dl_type} IPv4,
     * ARP or RARP ({@code nw_tos} under IPv4 alone); the transport fields only under IPv4 with {@code nw_proto} TCP,
     * UDP, SCTP or ICMP; {@code dl_vlan_pcp} only for tagged frames. A flow stats reply gives the match this way, so
     * a flow written with a field the switch ignored compares equal to it only once normalized.
     */
    public OFMatch normalized() {
        int w = normalizeWildcards(wildcards);
        boolean typed = !wild(w, OFPFW_DL_TYPE);
        boolean ipv4 = typed && dlType == 0x0800;
        boolean arp = typed && (dlType == 0x0806 || dlType == 0x8035);
        boolean transport = ipv4 && !wild(w, OFPFW_NW_PROTO)
                && (nwProto == 6 || nwProto == 17 || nwProto == 132 || nwProto == 1);
        int drop = 0;
        if (!ipv4 && !arp) {
            drop |= OFPFW_NW_PROTO | OFPFW_NW_SRC_ALL | OFPFW_NW_DST_ALL;
        }
        if (!ipv4) {
            drop |= OFPFW_NW_TOS;
        }
        if (!transport) {
            drop |= OFPFW_TP_SRC | OFPFW_TP_DST;
        }
        if (!wild(w, OFPFW_DL_VLAN) && dlVlan == VLAN_NONE) {
            drop |= OFPFW_DL_VLAN_PCP;
        }
        var normalized = toBuilder().wildcard(drop).build();
        return normalized.equals(this) ? this : normalized;
    }

    /** Matches the same packets; see the class comment for what is compared. */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof OFMatch m)) {
            return false;
        }
        int w = normalizeWildcards(wildcards);
        if (w != normalizeWildcards(m.wildcards)) {
            return false;
        }
        int srcMask = nwMask(w, OFPFW_NW_SRC_SHIFT);
        int dstMask = nwMask(w, OFPFW_NW_DST_SHIFT);
        return (wild(w, OFPFW_IN_PORT) || inPort == m.inPort)
                && (wild(w, OFPFW_DL_SRC) || dlSrc == m.dlSrc)
                && (wild(w, OFPFW_DL_DST) || dlDst == m.dlDst)
                && (wild(w, OFPFW_DL_VLAN) || normalizeVlan(dlVlan) == normalizeVlan(m.dlVlan))
                && (wild(w, OFPFW_DL_VLAN_PCP) || (dlVlanPcp & 7) == (m.dlVlanPcp & 7))
                && (wild(w, OFPFW_DL_TYPE) || dlType == m.dlType)
                && (wild(w, OFPFW_NW_TOS) || (nwTos & 0xfc) == (m.nwTos & 0xfc))
                && (wild(w, OFPFW_NW_PROTO) || nwProto == m.nwProto)
                && ((nwSrc ^ m.nwSrc) & srcMask) == 0
                && ((nwDst ^ m.nwDst) & dstMask) == 0
                && (wild(w, OFPFW_TP_SRC) || tpSrc == m.tpSrc)
                && (wild(w, OFPFW_TP_DST) || tpDst == m.tpDst);
    }

    @Override
    public int hashCode() {
        int w = normalizeWildcards(wildcards);
        int h = w;
        h = 31 * h + (wild(w, OFPFW_IN_PORT) ? 0 : inPort);
        h = 31 * h + (wild(w, OFPFW_DL_SRC) ? 0 : Long.hashCode(dlSrc));
        h = 31 * h + (wild(w, OFPFW_DL_DST) ? 0 : Long.hashCode(dlDst));
        h = 31 * h + (wild(w, OFPFW_DL_VLAN) ? 0 : normalizeVlan(dlVlan));
        h = 31 * h + (wild(w, OFPFW_DL_VLAN_PCP) ? 0 : dlVlanPcp & 7);
        h = 31 * h + (wild(w, OFPFW_DL_TYPE) ? 0 : dlType);
        h = 31 * h + (wild(w, OFPFW_NW_TOS) ? 0 : nwTos & 0xfc);
        h = 31 * h + (wild(w, OFPFW_NW_PROTO) ? 0 : nwProto);
        h = 31 * h + (nwSrc & nwMask(w, OFPFW_NW_SRC_SHIFT));
        h = 31 * h + (nwDst & nwMask(w, OFPFW_NW_DST_SHIFT));
        h = 31 * h + (wild(w, OFPFW_TP_SRC) ? 0 : tpSrc);
        return 31 * h + (wild(w, OFPFW_TP_DST) ? 0 : tpDst);
    }

    /**
     * The ovs-ofctl form, e.g. {@code in_port=1,dl_dst=00:00:00:00:00:02,dl_type=0x0800,nw_src=10.0.0.0/8}: the
     * fields that are not wildcarded, in {@code ofp_match} order, with the values as compared by {@link #equals};
     * {@code *} when every field is wildcarded. {@link #parse} reads it back.
     */
    @Override
    public String toString() {
        return OFMatchText.format(this);
    }

    // Views for OFMatchText: the values as equals() compares them.

    int normalizedWildcards() {
        return normalizeWildcards(wildcards);
    }

    int normalizedDlVlan() {
        return normalizeVlan(dlVlan);
    }

    int normalizedNwSrc() {
        return nwSrc & nwMask(normalizeWildcards(wildcards), OFPFW_NW_SRC_SHIFT);
    }

    int normalizedNwDst() {
        return nwDst & nwMask(normalizeWildcards(wildcards), OFPFW_NW_DST_SHIFT);
    }

    private static boolean wild(int w, int flag) {
        return (w & flag) != 0;
    }

    /** Drops undefined bits and turns nw wildcard counts above 32 into 32, as Open vSwitch does. */
    private static int normalizeWildcards(int w) {
        w &= OFPFW_ALL;
        if (((w & OFPFW_NW_SRC_MASK) >>> OFPFW_NW_SRC_SHIFT) > 32) {
            w = (w & ~OFPFW_NW_SRC_MASK) | OFPFW_NW_SRC_ALL;
        }
        if (((w & OFPFW_NW_DST_MASK) >>> OFPFW_NW_DST_SHIFT) > 32) {
            w = (w & ~OFPFW_NW_DST_MASK) | OFPFW_NW_DST_ALL;
        }
        return w;
    }

    /** Number of wildcarded low-order address bits, 0..32. */
    private static int nwWildcardBits(int w, int shift) {
        return Math.min((w >>> shift) & 0x3f, 32);
    }

    /** The address bits that must match. */
    private static int nwMask(int w, int shift) {
        int bits = nwWildcardBits(w, shift);
        return bits == 32 ? 0 : -1 << bits;
    }

    private static int normalizeVlan(int vlan) {
        return vlan == VLAN_NONE ? vlan : vlan & 0x0fff;
    }

    private static int u16(ByteBuffer b, int index) {
        return b.getShort(index) & 0xffff;
    }

    /**
     * Builds a match. Setting a field stores its value and clears its wildcard bit; values are range-checked.
     * {@link #build()} never fails.
     */
    public static final class Builder {
        private int wildcards;
        private int inPort;
        private long dlSrc;
        private long dlDst;
        private int dlVlan;
        private int dlVlanPcp;
        private int dlType;
        private int nwTos;
        private int nwProto;
        private int nwSrc;
        private int nwDst;
        private int tpSrc;
        private int tpDst;

        private Builder(OFMatch m) {
            wildcards = m.wildcards;
            inPort = m.inPort;
            dlSrc = m.dlSrc;
            dlDst = m.dlDst;
            dlVlan = m.dlVlan;
            dlVlanPcp = m.dlVlanPcp;
            dlType = m.dlType;
            nwTos = m.nwTos;
            nwProto = m.nwProto;
            nwSrc = m.nwSrc;
            nwDst = m.nwDst;
            tpSrc = m.tpSrc;
            tpDst = m.tpDst;
        }

        /** Replaces the whole wildcards word (kept as given, see the class comment on equality). */
        public Builder wildcards(int wildcards) {
            this.wildcards = wildcards;
            return this;
        }

        /**
         * Wildcards the fields named by {@code flags} in addition to those already wildcarded. For the
         * {@code nw_src}/{@code nw_dst} count fields the larger of the current and the given count is kept, so the
         * match never gets narrower; {@link #OFPFW_NW_SRC_ALL} wildcards the whole address.
         */
        public Builder wildcard(int flags) {
            int nwBits = OFPFW_NW_SRC_MASK | OFPFW_NW_DST_MASK;
            int w = wildcards | (flags & ~nwBits);
            w = widerNw(w, flags, OFPFW_NW_SRC_SHIFT);
            wildcards = widerNw(w, flags, OFPFW_NW_DST_SHIFT);
            return this;
        }

        private static int widerNw(int w, int flags, int shift) {
            int current = (w >>> shift) & 0x3f;
            int wanted = (flags >>> shift) & 0x3f;
            return (w & ~(0x3f << shift)) | (Math.max(current, wanted) << shift);
        }

        /** Exact {@code in_port}, {@code 0..0xffff} (a physical port or an {@link OFPort} constant). */
        public Builder inPort(int port) {
            inPort = check(port, 0xffff, "inPort");
            wildcards &= ~OFPFW_IN_PORT;
            return this;
        }

        /** Exact {@code dl_src}, 48 bits. */
        public Builder dlSrc(long mac) {
            dlSrc = checkMac(mac, "dlSrc");
            wildcards &= ~OFPFW_DL_SRC;
            return this;
        }

        /** Exact {@code dl_dst}, 48 bits. */
        public Builder dlDst(long mac) {
            dlDst = checkMac(mac, "dlDst");
            wildcards &= ~OFPFW_DL_DST;
            return this;
        }

        /**
         * Exact {@code dl_vlan}.
         *
         * @param vlan a VLAN id 0..4095, or {@link #VLAN_NONE} to match untagged frames
         */
        public Builder dlVlan(int vlan) {
            if (vlan != VLAN_NONE && (vlan & ~0xfff) != 0) {
                throw new IllegalArgumentException("dlVlan must be 0..4095 or 0xffff (untagged), not " + vlan);
            }
            dlVlan = vlan;
            wildcards &= ~OFPFW_DL_VLAN;
            return this;
        }

        /** Exact {@code dl_vlan_pcp}, {@code 0..7}. */
        public Builder dlVlanPcp(int pcp) {
            dlVlanPcp = check(pcp, 7, "dlVlanPcp");
            wildcards &= ~OFPFW_DL_VLAN_PCP;
            return this;
        }

        /** Exact {@code dl_type}, {@code 0..0xffff}. */
        public Builder dlType(int type) {
            dlType = check(type, 0xffff, "dlType");
            wildcards &= ~OFPFW_DL_TYPE;
            return this;
        }

        /**
         * Exact {@code nw_tos}.
         *
         * @param tos a ToS byte whose two ECN bits are 0 (DSCP &lt;&lt; 2), as OpenFlow 1.0 matches only the DSCP
         */
        public Builder nwTos(int tos) {
            if ((tos & ~0xfc) != 0) {
                throw new IllegalArgumentException("nwTos must be a ToS byte 0..252 with the two ECN bits clear "
                        + "(DSCP << 2), not " + tos);
            }
            nwTos = tos;
            wildcards &= ~OFPFW_NW_TOS;
            return this;
        }

        /** Exact {@code nw_proto} (IP protocol, or ARP opcode), {@code 0..255}. */
        public Builder nwProto(int proto) {
            nwProto = check(proto, 0xff, "nwProto");
            wildcards &= ~OFPFW_NW_PROTO;
            return this;
        }

        /** Exact {@code nw_src}. */
        public Builder nwSrc(int ip) {
            return nwSrc(ip, 32);
        }

        /**
         * {@code nw_src} matching the first {@code prefixLength} bits (host bits of {@code ip} are cleared);
         * 0 wildcards the address.
         */
        public Builder nwSrc(int ip, int prefixLength) {
            check(prefixLength, 32, "nwSrc prefixLength");
            nwSrc = ip & prefixMask(prefixLength);
            wildcards = (wildcards & ~OFPFW_NW_SRC_MASK) | ((32 - prefixLength) << OFPFW_NW_SRC_SHIFT);
            return this;
        }

        /** Exact {@code nw_dst}. */
        public Builder nwDst(int ip) {
            return nwDst(ip, 32);
        }

        /**
         * {@code nw_dst} matching the first {@code prefixLength} bits (host bits of {@code ip} are cleared);
         * 0 wildcards the address.
         */
        public Builder nwDst(int ip, int prefixLength) {
            check(prefixLength, 32, "nwDst prefixLength");
            nwDst = ip & prefixMask(prefixLength);
            wildcards = (wildcards & ~OFPFW_NW_DST_MASK) | ((32 - prefixLength) << OFPFW_NW_DST_SHIFT);
            return this;
        }

        /** Exact {@code tp_src} (TCP/UDP source port, or ICMP type), {@code 0..0xffff}. */
        public Builder tpSrc(int port) {
            tpSrc = check(port, 0xffff, "tpSrc");
            wildcards &= ~OFPFW_TP_SRC;
            return this;
        }

        /** Exact {@code tp_dst} (TCP/UDP destination port, or ICMP code), {@code 0..0xffff}. */
        public Builder tpDst(int port) {
            tpDst = check(port, 0xffff, "tpDst");
            wildcards &= ~OFPFW_TP_DST;
            return this;
        }

        /** The match; the builder can go on being used. */
        public OFMatch build() {
            return new OFMatch(wildcards, inPort, dlSrc, dlDst, dlVlan, dlVlanPcp, dlType, nwTos, nwProto, nwSrc,
                    nwDst, tpSrc, tpDst);
        }

        private static int prefixMask(int prefixLength) {
            return prefixLength == 0 ? 0 : -1 << (32 - prefixLength);
        }

        private static int check(int v, int max, String field) {
            if (v < 0 || v > max) {
                throw new IllegalArgumentException(field + " must be 0.." + max + ", not " + v);
            }
            return v;
        }

        private static long checkMac(long mac, String field) {
            if ((mac & ~0xffff_ffff_ffffL) != 0) {
                throw new IllegalArgumentException(field + " must be a 48-bit MAC address, not 0x"
                        + Long.toHexString(mac));
            }
            return mac;
        }
    }
}
