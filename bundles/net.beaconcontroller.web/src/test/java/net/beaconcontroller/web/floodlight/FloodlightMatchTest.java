package net.beaconcontroller.web.floodlight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.openflow.OFMatch;

/** Floodlight's match keys: what a pushed flow says is exactly what the switch matches, and back. */
class FloodlightMatchTest {
    private static Map<String, String> keys(String... kv) {
        var m = new LinkedHashMap<String, String>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void keysMeanTheOpenFlowFieldsTheyName() {
        assertEquals(OFMatch.parse("in_port=1,dl_type=0x0800,nw_dst=10.0.0.2"),
                FloodlightMatch.fromMap(keys("in_port", "1", "eth_type", "0x800", "ipv4_dst", "10.0.0.2")));
        assertEquals(OFMatch.parse("dl_src=00:00:00:00:00:01,dl_dst=00:00:00:00:00:02,dl_vlan=10,dl_vlan_pcp=3"),
                FloodlightMatch.fromMap(keys("eth_src", "00:00:00:00:00:01", "eth_dst", "00:00:00:00:00:02",
                        "eth_vlan_vid", "10", "eth_vlan_pcp", "3")));
        assertEquals(OFMatch.parse("tcp,nw_src=10.1.0.0/16,tp_src=1024,tp_dst=80,nw_tos=184"),
                FloodlightMatch.fromMap(keys("eth_type", "2048", "ip_proto", "0x6", "ipv4_src", "10.1.0.0/16",
                        "tcp_src", "1024", "tcp_dst", "80", "ip_dscp", "46")));
        assertEquals(OFMatch.parse("udp,tp_dst=53"), FloodlightMatch.fromMap(keys("eth_type", "0x800",
                "ip_proto", "17", "tp_dst", "53")));
        assertEquals(OFMatch.parse("icmp,icmp_type=8,icmp_code=0"), FloodlightMatch.fromMap(keys("eth_type",
                "0x800", "ip_proto", "1", "icmpv4_type", "8", "icmpv4_code", "0")));
        assertEquals(OFMatch.parse("arp,arp_op=1,nw_src=10.0.0.1,nw_dst=10.0.0.2"), FloodlightMatch.fromMap(
                keys("eth_type", "0x806", "arp_opcode", "1", "arp_spa", "10.0.0.1", "arp_tpa", "10.0.0.2")));
        assertEquals(OFMatch.ALL, FloodlightMatch.fromMap(Map.of()));
    }

    @Test
    void printedMatchesReadBackTheSame() {
        for (var ofctl : new String[] {"*", "in_port=1", "in_port=LOCAL", "dl_vlan=0xffff", "dl_type=0x88cc",
                "tcp,nw_src=10.1.0.0/16,tp_dst=80,nw_tos=184", "udp,nw_dst=192.168.1.1,tp_src=68,tp_dst=67",
                "icmp,icmp_type=3,icmp_code=1", "arp,arp_op=2,nw_src=10.0.0.0/24", "ip,nw_proto=47",
                "ip,nw_proto=132,tp_src=9,tp_dst=10", "dl_src=aa:bb:cc:dd:ee:ff,dl_vlan=4095,dl_vlan_pcp=7"}) {
            var m = OFMatch.parse(ofctl);
            assertEquals(m, FloodlightMatch.fromMap(FloodlightMatch.toMap(m)), ofctl + " -> "
                    + FloodlightMatch.toMap(m));
        }
    }

    @Test
    void printedLikeFloodlight() {
        assertEquals(Map.of("in_port", "1", "eth_dst", "00:00:00:00:00:02", "eth_type", "0x800", "ipv4_src",
                "10.0.0.0/8", "ip_proto", "6", "tcp_dst", "80"), FloodlightMatch.toMap(OFMatch.parse(
                        "in_port=1,dl_dst=00:00:00:00:00:02,tcp,nw_src=10.0.0.0/8,tp_dst=80")));
        assertEquals("local", FloodlightMatch.toMap(OFMatch.parse("in_port=LOCAL")).get("in_port"));
    }

    @Test
    void fieldsWithoutTheirPrerequisiteAreRefusedInFloodlightsWords() {
        var e = assertThrows(FlowFormatException.class, () -> FloodlightMatch.fromMap(keys("ipv4_dst", "10.0.0.1")));
        assertEquals("Warning! Must specify eth_type of IPv4/IPv6 to match on IPv4/IPv6 fields! The flow has been"
                + " discarded.", e.getMessage());
        assertThrows(FlowFormatException.class, () -> FloodlightMatch.fromMap(keys("eth_type", "0x806", "ip_proto",
                "6")));
        var tcp = assertThrows(FlowFormatException.class, () -> FloodlightMatch.fromMap(keys("eth_type", "0x800",
                "tcp_dst", "80")));
        assertTrue(tcp.getMessage().contains("ip_proto 6"), tcp.getMessage());
        assertThrows(FlowFormatException.class, () -> FloodlightMatch.fromMap(keys("eth_type", "0x800", "ip_proto",
                "17", "tcp_dst", "80")));
        assertThrows(FlowFormatException.class, () -> FloodlightMatch.fromMap(keys("eth_type", "0x800", "ip_proto",
                "1", "tp_dst", "80")));
        assertThrows(FlowFormatException.class, () -> FloodlightMatch.fromMap(keys("arp_spa", "10.0.0.1")));
        assertThrows(FlowFormatException.class, () -> FloodlightMatch.fromMap(keys("eth_type", "0x800", "ip_proto",
                "6", "tcp_dst", "80", "tp_dst", "81")));
        assertThrows(FlowFormatException.class, () -> FloodlightMatch.fromMap(keys("eth_type", "0x800", "ip_ecn",
                "1")));
    }

    @Test
    void badValuesNameTheKey() {
        for (var bad : new String[][] {{"in_port", "0"}, {"in_port", "70000"}, {"in_port", "flood"},
                {"in_port", "x"}, {"eth_src", "00:00:00:00:01"}, {"eth_vlan_vid", "5000"}, {"eth_vlan_pcp", "8"},
                {"eth_type", "0x10000"}, {"eth_type", "ip"}}) {
            var e = assertThrows(FlowFormatException.class, () -> FloodlightMatch.fromMap(keys(bad[0], bad[1])));
            assertTrue(e.getMessage().contains(bad[0]), e.getMessage());
        }
        for (var bad : new String[][] {{"ipv4_dst", "10.0.0.256"}, {"ipv4_dst", "10.0.0.1/33"},
                {"ipv4_src", "10.0.0.1/0"}, {"ip_dscp", "64"}, {"ip_proto", "256"}}) {
            var e = assertThrows(FlowFormatException.class, () -> FloodlightMatch.fromMap(keys("eth_type", "0x800",
                    bad[0], bad[1])));
            assertTrue(e.getMessage().contains(bad[0]) || e.getMessage().contains("prefix"), e.getMessage());
        }
        assertThrows(FlowFormatException.class, () -> FloodlightMatch.fromMap(keys("eth_type", "0x800", "ip_proto",
                "6", "tcp_dst", "65536")));
        assertThrows(FlowFormatException.class, () -> FloodlightMatch.fromMap(keys("nw_dst", "10.0.0.1")));
    }
}
