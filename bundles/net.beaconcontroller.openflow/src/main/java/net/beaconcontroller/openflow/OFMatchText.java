package net.beaconcontroller.openflow;

import static net.beaconcontroller.openflow.OFMatch.OFPFW_DL_DST;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_DL_SRC;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_DL_TYPE;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_DL_VLAN;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_DL_VLAN_PCP;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_IN_PORT;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_NW_PROTO;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_NW_TOS;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_TP_DST;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_TP_SRC;

import java.util.HashSet;
import java.util.Set;

import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;

/** The ovs-ofctl text form of {@link OFMatch}, and the number syntax shared with {@link OFPort}. */
final class OFMatchText {
    private OFMatchText() {
    }

    static String format(OFMatch m) {
        int w = m.normalizedWildcards();
        var sb = new StringBuilder(96);
        if ((w & OFPFW_IN_PORT) == 0) {
            sb.append(",in_port=").append(OFPort.toString(m.inPort()));
        }
        if ((w & OFPFW_DL_SRC) == 0) {
            sb.append(",dl_src=").append(MacAddress.toString(m.dlSrc()));
        }
        if ((w & OFPFW_DL_DST) == 0) {
            sb.append(",dl_dst=").append(MacAddress.toString(m.dlDst()));
        }
        if ((w & OFPFW_DL_VLAN) == 0) {
            int vlan = m.normalizedDlVlan();
            sb.append(",dl_vlan=").append(vlan == OFMatch.VLAN_NONE ? "0xffff" : Integer.toString(vlan));
        }
        if ((w & OFPFW_DL_VLAN_PCP) == 0) {
            sb.append(",dl_vlan_pcp=").append(m.dlVlanPcp() & 7);
        }
        if ((w & OFPFW_DL_TYPE) == 0) {
            sb.append(",dl_type=0x").append(String.format("%04x", m.dlType()));
        }
        if ((w & OFPFW_NW_TOS) == 0) {
            sb.append(",nw_tos=").append(m.nwTos() & 0xfc);
        }
        if ((w & OFPFW_NW_PROTO) == 0) {
            sb.append(",nw_proto=").append(m.nwProto());
        }
        appendPrefix(sb, ",nw_src=", m.normalizedNwSrc(), m.nwSrcPrefixLength());
        appendPrefix(sb, ",nw_dst=", m.normalizedNwDst(), m.nwDstPrefixLength());
        if ((w & OFPFW_TP_SRC) == 0) {
            sb.append(",tp_src=").append(m.tpSrc());
        }
        if ((w & OFPFW_TP_DST) == 0) {
            sb.append(",tp_dst=").append(m.tpDst());
        }
        return sb.isEmpty() ? "*" : sb.substring(1);
    }

    private static void appendPrefix(StringBuilder sb, String key, int ip, int prefixLength) {
        if (prefixLength > 0) {
            sb.append(key).append(IPv4Address.toString(ip));
            if (prefixLength < 32) {
                sb.append('/').append(prefixLength);
            }
        }
    }

    static OFMatch parse(String text) {
        String trimmed = text.strip();
        if (trimmed.isEmpty() || trimmed.equals("*")) {
            return OFMatch.ALL;
        }
        var b = OFMatch.builder();
        Set<String> seen = new HashSet<>();
        for (String raw : trimmed.split(",", -1)) {
            String item = raw.strip();
            try {
                parseItem(b, item, seen);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("bad match item '" + item + "' in '" + text + "': "
                        + e.getMessage(), e);
            }
        }
        return b.build();
    }

    private static void parseItem(OFMatch.Builder b, String item, Set<String> seen) {
        int eq = item.indexOf('=');
        if (eq < 0) {
            parseShorthand(b, item, seen);
            return;
        }
        String key = item.substring(0, eq).strip();
        String value = item.substring(eq + 1).strip();
        String field = switch (key) {
            case "arp_op" -> "nw_proto";
            case "icmp_type" -> "tp_src";
            case "icmp_code" -> "tp_dst";
            default -> key;
        };
        switch (field) {
            case "in_port" -> b.inPort(OFPort.parse(value));
            case "dl_src" -> b.dlSrc(MacAddress.parse(value));
            case "dl_dst" -> b.dlDst(MacAddress.parse(value));
            case "dl_vlan" -> b.dlVlan((int) number(value, 0xffff));
            case "dl_vlan_pcp" -> b.dlVlanPcp((int) number(value, 7));
            case "dl_type" -> b.dlType((int) number(value, 0xffff));
            case "nw_tos" -> b.nwTos((int) number(value, 0xff));
            case "nw_proto" -> b.nwProto((int) number(value, 0xff));
            case "nw_src" -> {
                int slash = value.indexOf('/');
                int ip = IPv4Address.parse(slash < 0 ? value : value.substring(0, slash));
                b.nwSrc(ip, slash < 0 ? 32 : prefixLength(value.substring(slash + 1)));
            }
            case "nw_dst" -> {
                int slash = value.indexOf('/');
                int ip = IPv4Address.parse(slash < 0 ? value : value.substring(0, slash));
                b.nwDst(ip, slash < 0 ? 32 : prefixLength(value.substring(slash + 1)));
            }
            case "tp_src" -> b.tpSrc((int) number(value, 0xffff));
            case "tp_dst" -> b.tpDst((int) number(value, 0xffff));
            default -> throw new IllegalArgumentException("unknown field '" + key + "'");
        }
        once(seen, field);
    }

    private static void parseShorthand(OFMatch.Builder b, String item, Set<String> seen) {
        int proto = switch (item) {
            case "ip", "arp", "rarp" -> -1;
            case "icmp" -> 1;
            case "tcp" -> 6;
            case "udp" -> 17;
            case "sctp" -> 132;
            default -> throw new IllegalArgumentException(item.isEmpty() ? "empty item"
                    : "unknown field or shorthand '" + item + "'");
        };
        b.dlType(switch (item) {
            case "arp" -> 0x0806;
            case "rarp" -> 0x8035;
            default -> 0x0800;
        });
        once(seen, "dl_type");
        if (proto >= 0) {
            b.nwProto(proto);
            once(seen, "nw_proto");
        }
    }

    private static void once(Set<String> seen, String field) {
        if (!seen.add(field)) {
            throw new IllegalArgumentException(field + " is given more than once");
        }
    }

    /** A CIDR prefix length {@code 0..32} or a contiguous dotted netmask. */
    private static int prefixLength(String text) {
        if (text.indexOf('.') < 0) {
            return (int) number(text, 32);
        }
        int mask = IPv4Address.parse(text);
        int length = Integer.bitCount(mask);
        if (mask != (length == 0 ? 0 : -1 << (32 - length))) {
            throw new IllegalArgumentException("netmask " + text + " is not a prefix (OpenFlow 1.0 matches prefixes)");
        }
        return length;
    }

    private static long number(String text, long max) {
        long v = parseUnsigned(text, max);
        if (v < 0) {
            throw new IllegalArgumentException("'" + text + "' is not a number 0.." + max);
        }
        return v;
    }

    /**
     * A decimal or {@code 0x} hexadecimal number {@code 0..max}, or -1 when the text is not one (so callers can try
     * other readings without exceptions).
     */
    static long parseUnsigned(String text, long max) {
        boolean hex = text.length() > 2 && text.charAt(0) == '0' && (text.charAt(1) == 'x' || text.charAt(1) == 'X');
        int start = hex ? 2 : 0;
        int radix = hex ? 16 : 10;
        if (text.length() == start) {
            return -1;
        }
        long v = 0;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            int d = c < 0x80 ? Character.digit(c, radix) : -1;
            if (d < 0) {
                return -1;
            }
            v = v * radix + d;
            if (v > max) {
                return -1;
            }
        }
        return v;
    }
}
