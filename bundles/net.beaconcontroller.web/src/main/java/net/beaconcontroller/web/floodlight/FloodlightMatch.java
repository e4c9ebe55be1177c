package net.beaconcontroller.web.floodlight;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;

/**
 * OpenFlow 1.0 matches under Floodlight's key names ({@code in_port}, {@code eth_dst}, {@code ipv4_src}, ...). An
 * OpenFlow 1.0 match has one set of network and transport fields whose meaning depends on the ones before (ARP
 * addresses live in the IPv4 fields, ICMP type and code in the transport ports): the keys say which meaning is meant,
 * and a key whose prerequisite is missing is refused, as Floodlight does, rather than matching more than asked.
 */
public final class FloodlightMatch {
    public static final int ETH_IPV4 = 0x0800;
    public static final int ETH_ARP = 0x0806;
    private static final int TCP = 6;
    private static final int UDP = 17;
    private static final int SCTP = 132;
    private static final int ICMP = 1;

    /** Every key {@link #fromMap} reads. */
    public static final Set<String> KEYS = Set.of("in_port", "eth_src", "eth_dst", "eth_type", "eth_vlan_vid",
            "eth_vlan_pcp", "ip_proto", "ip_dscp", "ip_ecn", "ipv4_src", "ipv4_dst", "tcp_src", "tcp_dst", "udp_src",
            "udp_dst", "sctp_src", "sctp_dst", "icmpv4_type", "icmpv4_code", "arp_opcode", "arp_spa", "arp_tpa",
            "tp_src", "tp_dst");

    private static final String NEED_IPV4 = "Warning! Must specify eth_type of IPv4/IPv6 to match on IPv4/IPv6"
            + " fields! The flow has been discarded.";

    private FloodlightMatch() {
    }

    /** The fields {@code m} matches on, under Floodlight's keys, in {@code ofp_match} order. */
    public static Map<String, String> toMap(OFMatch m) {
        var out = new LinkedHashMap<String, String>();
        if (!m.isWildcarded(OFMatch.OFPFW_IN_PORT)) {
            out.put("in_port", port(m.inPort()));
        }
        if (!m.isWildcarded(OFMatch.OFPFW_DL_SRC)) {
            out.put("eth_src", MacAddress.toString(m.dlSrc()));
        }
        if (!m.isWildcarded(OFMatch.OFPFW_DL_DST)) {
            out.put("eth_dst", MacAddress.toString(m.dlDst()));
        }
        if (!m.isWildcarded(OFMatch.OFPFW_DL_VLAN)) {
            out.put("eth_vlan_vid", m.dlVlan() == OFMatch.VLAN_NONE ? "0xffff" : Integer.toString(m.dlVlan()));
        }
        if (!m.isWildcarded(OFMatch.OFPFW_DL_VLAN_PCP)) {
            out.put("eth_vlan_pcp", Integer.toString(m.dlVlanPcp()));
        }
        boolean typed = !m.isWildcarded(OFMatch.OFPFW_DL_TYPE);
        if (typed) {
            out.put("eth_type", "0x" + Integer.toHexString(m.dlType()));
        }
        boolean arp = typed && m.dlType() == ETH_ARP;
        boolean ip = typed && m.dlType() == ETH_IPV4;
        if (!m.isWildcarded(OFMatch.OFPFW_NW_PROTO)) {
            out.put(arp ? "arp_opcode" : "ip_proto", Integer.toString(m.nwProto()));
        }
        if (ip && !m.isWildcarded(OFMatch.OFPFW_NW_TOS)) {
            out.put("ip_dscp", Integer.toString(m.nwTos() >> 2));
        }
        if (m.nwSrcPrefixLength() > 0) {
            out.put(arp ? "arp_spa" : "ipv4_src", prefix(m.nwSrc(), m.nwSrcPrefixLength()));
        }
        if (m.nwDstPrefixLength() > 0) {
            out.put(arp ? "arp_tpa" : "ipv4_dst", prefix(m.nwDst(), m.nwDstPrefixLength()));
        }
        var transport = ip && !m.isWildcarded(OFMatch.OFPFW_NW_PROTO) ? switch (m.nwProto()) {
            case TCP -> "tcp";
            case UDP -> "udp";
            case SCTP -> "sctp";
            case ICMP -> "icmpv4";
            default -> "tp";
        } : "tp";
        boolean icmp = transport.equals("icmpv4");
        if (!m.isWildcarded(OFMatch.OFPFW_TP_SRC)) {
            out.put(icmp ? "icmpv4_type" : transport + "_src", Integer.toString(m.tpSrc()));
        }
        if (!m.isWildcarded(OFMatch.OFPFW_TP_DST)) {
            out.put(icmp ? "icmpv4_code" : transport + "_dst", Integer.toString(m.tpDst()));
        }
        return out;
    }

    /**
     * The match these keys describe. Numbers are decimal or {@code 0x} hexadecimal; IPv4 addresses may carry a
     * {@code /prefix}.
     *
     * @throws FlowFormatException naming the key and what is wrong with it
     */
    public static OFMatch fromMap(Map<String, String> fields) {
        var b = OFMatch.builder();
        for (var e : fields.entrySet()) {
            if (!KEYS.contains(e.getKey())) {
                throw new FlowFormatException("Warning! Unknown match key '" + e.getKey() + "'.");
            }
        }
        var ethType = get(fields, "eth_type");
        int type = ethType == null ? -1 : number(ethType, "eth_type", 0, 0xffff);
        if (type >= 0) {
            b.dlType(type);
        }
        var protoText = get(fields, "ip_proto");
        int proto = protoText == null ? -1 : number(protoText, "ip_proto", 0, 0xff);

        var inPort = get(fields, "in_port");
        if (inPort != null) {
            b.inPort(inPort(inPort));
        }
        var src = get(fields, "eth_src");
        if (src != null) {
            b.dlSrc(mac(src, "eth_src"));
        }
        var dst = get(fields, "eth_dst");
        if (dst != null) {
            b.dlDst(mac(dst, "eth_dst"));
        }
        var vlan = get(fields, "eth_vlan_vid");
        if (vlan != null) {
            int v = number(vlan, "eth_vlan_vid", 0, 0xffff);
            if (v > 4095 && v != OFMatch.VLAN_NONE) {
                throw new FlowFormatException("Warning! eth_vlan_vid must be 0..4095, or 0xffff for untagged, not "
                        + vlan + ".");
            }
            b.dlVlan(v);
        }
        var pcp = get(fields, "eth_vlan_pcp");
        if (pcp != null) {
            b.dlVlanPcp(number(pcp, "eth_vlan_pcp", 0, 7));
        }
        if (get(fields, "ip_ecn") != null) {
            throw new FlowFormatException("Warning! An OpenFlow 1.0 switch cannot match ip_ecn. The flow has been"
                    + " discarded.");
        }
        boolean ipv4 = type == ETH_IPV4;
        boolean arp = type == ETH_ARP;
        for (var key : new String[] {"ip_proto", "ip_dscp", "ipv4_src", "ipv4_dst"}) {
            if (get(fields, key) != null && !ipv4) {
                throw new FlowFormatException(NEED_IPV4);
            }
        }
        for (var key : new String[] {"arp_opcode", "arp_spa", "arp_tpa"}) {
            if (get(fields, key) != null && !arp) {
                throw new FlowFormatException("Warning! Must specify eth_type of ARP (0x806) to match on " + key
                        + "! The flow has been discarded.");
            }
        }
        if (proto >= 0) {
            b.nwProto(proto);
        }
        var opcode = get(fields, "arp_opcode");
        if (opcode != null) {
            b.nwProto(number(opcode, "arp_opcode", 0, 0xff));
        }
        var dscp = get(fields, "ip_dscp");
        if (dscp != null) {
            b.nwTos(number(dscp, "ip_dscp", 0, 63) << 2);
        }
        network(b, fields, ipv4 ? "ipv4_src" : "arp_spa", true);
        network(b, fields, ipv4 ? "ipv4_dst" : "arp_tpa", false);
        transport(b, fields, proto);
        return b.build();
    }

    private static void network(OFMatch.Builder b, Map<String, String> fields, String key, boolean source) {
        var text = get(fields, key);
        if (text == null) {
            return;
        }
        int slash = text.indexOf('/');
        int length = 32;
        int ip;
        try {
            ip = IPv4Address.parse(slash < 0 ? text.trim() : text.substring(0, slash).trim());
            if (slash >= 0) {
                length = Integer.parseInt(text.substring(slash + 1).trim());
            }
        } catch (IllegalArgumentException e) {
            throw new FlowFormatException("Warning! " + key + " must be an IPv4 address with an optional /prefix,"
                    + " not '" + text + "'.");
        }
        if (length < 1 || length > 32) {
            throw new FlowFormatException("Warning! The prefix length of " + key + " must be 1..32, not " + length
                    + ".");
        }
        if (source) {
            b.nwSrc(ip, length);
        } else {
            b.nwDst(ip, length);
        }
    }

    private static void transport(OFMatch.Builder b, Map<String, String> fields, int proto) {
        record Field(String key, int proto, boolean source) {
        }
        var all = new Field[] {new Field("tcp_src", TCP, true), new Field("tcp_dst", TCP, false),
                new Field("udp_src", UDP, true), new Field("udp_dst", UDP, false), new Field("sctp_src", SCTP, true),
                new Field("sctp_dst", SCTP, false), new Field("icmpv4_type", ICMP, true),
                new Field("icmpv4_code", ICMP, false), new Field("tp_src", -1, true), new Field("tp_dst", -1, false)};
        boolean src = false;
        boolean dst = false;
        for (var f : all) {
            var text = get(fields, f.key());
            if (text == null) {
                continue;
            }
            boolean generic = f.proto() < 0;
            if (generic ? proto != TCP && proto != UDP && proto != SCTP : proto != f.proto()) {
                throw new FlowFormatException("Warning! Must specify ip_proto " + (generic ? "6 (TCP), 17 (UDP)"
                        + " or 132 (SCTP)" : f.proto()) + " to match on " + f.key()
                        + "! The flow has been discarded.");
            }
            if (f.source() ? src : dst) {
                throw new FlowFormatException("Warning! " + f.key() + " repeats a transport field already given."
                        + " The flow has been discarded.");
            }
            int v = number(text, f.key(), 0, f.proto() == ICMP ? 0xff : 0xffff);
            if (f.source()) {
                b.tpSrc(v);
                src = true;
            } else {
                b.tpDst(v);
                dst = true;
            }
        }
    }

    private static String get(Map<String, String> fields, String key) {
        var v = fields.get(key);
        return v == null || v.isBlank() ? null : v.trim();
    }

    private static int inPort(String text) {
        int port;
        try {
            port = OFPort.parse(text.trim());
        } catch (IllegalArgumentException e) {
            throw new FlowFormatException("Warning! in_port must be a port number 1.." + OFPort.MAX + " or local,"
                    + " not '" + text + "'.");
        }
        if (!OFPort.isPhysical(port) && port != OFPort.LOCAL) {
            throw new FlowFormatException("Warning! in_port must be a port number 1.." + OFPort.MAX + " or local,"
                    + " not '" + text + "'.");
        }
        return port;
    }

    private static long mac(String text, String key) {
        try {
            return MacAddress.parse(text);
        } catch (IllegalArgumentException e) {
            throw new FlowFormatException("Warning! " + key + " must be a MAC address like 00:00:00:00:00:01, not '"
                    + text + "'.");
        }
    }

    static int number(String text, String key, int min, int max) {
        long v;
        try {
            var t = text.trim();
            v = t.startsWith("0x") || t.startsWith("0X") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new FlowFormatException("Warning! " + key + " must be a number, not '" + text + "'.");
        }
        if (v < min || v > max) {
            throw new FlowFormatException("Warning! " + key + " must be " + min + ".." + max + ", not " + text + ".");
        }
        return (int) v;
    }

    /** A port as Floodlight prints it: the number, or the reserved port's name in lower case. */
    static String port(int port) {
        return OFPort.isPhysical(port) ? Integer.toString(port) : OFPort.toString(port).toLowerCase();
    }

    private static String prefix(int ip, int length) {
        return IPv4Address.toString(ip) + (length == 32 ? "" : "/" + length);
    }
}
