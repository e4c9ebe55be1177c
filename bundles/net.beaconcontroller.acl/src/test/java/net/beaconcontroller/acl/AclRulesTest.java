package net.beaconcontroller.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.acl.AclRule.Action;
import net.beaconcontroller.acl.AclRule.Prefix;

/** Floodlight's ACL syntax: what it accepts, and its reasons (ACLRuleResourceTest's texts) for what it refuses. */
class AclRulesTest {
    private static String refused(Map<String, String> request) {
        return assertThrows(IllegalArgumentException.class, () -> AclRules.parse(request)).getMessage();
    }

    @Test
    void floodlightsExampleReadsAsADenyOfOneTcpPort() {
        var r = AclRules.parse(Map.of("src-ip", "10.0.0.1/32", "dst-ip", "10.0.0.4/32", "nw-proto", "TCP",
                "tp-dst", "80", "action", "deny"));
        assertEquals(new AclRule(0, new Prefix(0x0a00_0001, 32), new Prefix(0x0a00_0004, 32), AclRule.TCP, 80,
                Action.DENY), r);
        assertEquals(Action.DENY, AclRules.parse(Map.of("dst-ip", "10.0.0.0/8")).action(), "deny by default");
        assertEquals(Action.ALLOW, AclRules.parse(Map.of("dst-ip", "10.0.0.0/8", "action", "ALLOW")).action());
        assertEquals(AclRule.UDP, AclRules.parse(Map.of("src-ip", "10.0.0.1/32", "nw-proto", "udp")).nwProto());
    }

    @Test
    void refusalsGiveFloodlightsReasons() {
        assertEquals("Either nw_src or nw_dst must be specified.", refused(Map.of("nw-proto", "ICMP")));
        assertEquals("CIDR mask bits must be specified.", refused(Map.of("src-ip", "10.0.0.1")));
        assertEquals("CIDR mask bits must be specified as a number(0 ~ 32).", refused(Map.of("src-ip",
                "10.0.0.1/x")));
        assertEquals("CIDR mask bits must be 0 <= value <= 32.", refused(Map.of("src-ip", "10.0.0.1/33")));
        assertEquals("Octet values in specified IPv4 address must be 0 <= value <= 255", refused(Map.of("dst-ip",
                "10.0.0.300/32")));
        assertEquals("nw-proto must be specified as (TCP || UDP || ICMP).", refused(Map.of("src-ip", "10.0.0.1/32",
                "nw-proto", "SCTP")));
        assertEquals("tp-dst must be specified as a number.", refused(Map.of("src-ip", "10.0.0.1/32", "nw-proto",
                "TCP", "tp-dst", "http")));
        assertEquals("action must be specidied as (allow || deny).", refused(Map.of("src-ip", "10.0.0.1/32",
                "action", "permit")));
    }

    @Test
    void whatFloodlightWouldSilentlyIgnoreIsRefused() {
        assertTrue(refused(Map.of("src_ip", "10.0.0.1/32")).startsWith("unknown key \"src_ip\""));
        assertEquals("tp-dst needs nw-proto TCP or UDP.", refused(Map.of("src-ip", "10.0.0.1/32", "nw-proto", "ICMP",
                "tp-dst", "80")));
        assertEquals("tp-dst must be 0..65535.", refused(Map.of("src-ip", "10.0.0.1/32", "nw-proto", "TCP",
                "tp-dst", "70000")));
        assertTrue(refused(Map.of("src-ip", "10.0.1/24")).contains("not an IPv4 prefix"));
    }

    @Test
    void fieldsReadBackAsTheSameRule() {
        for (var request : List.of(Map.of("src-ip", "10.0.0.7/24", "nw-proto", "UDP", "tp-dst", "53"),
                Map.of("dst-ip", "192.168.1.1/32", "action", "allow"), Map.of("src-ip", "0.0.0.0/0", "dst-ip",
                        "10.0.0.2/32", "nw-proto", "ICMP"))) {
            var rule = AclRules.parse(request);
            assertEquals(rule, AclRules.parse(AclRules.fields(rule)));
        }
        assertEquals("10.0.0.7/24", AclRules.parse(Map.of("src-ip", "10.0.0.7/24")).nwSrc().toString(),
                "the address is kept as written, host bits included");
    }

    @Test
    void anEarlierRuleCoversALaterOneWithinItsPrefixesProtocolAndPort() {
        var wide = AclRules.parse(Map.of("src-ip", "10.0.0.0/24", "nw-proto", "TCP"));
        assertTrue(wide.covers(AclRules.parse(Map.of("src-ip", "10.0.0.5/32", "nw-proto", "TCP", "tp-dst", "22",
                "action", "allow"))), "whatever the action");
        assertFalse(wide.covers(AclRules.parse(Map.of("src-ip", "10.0.1.5/32", "nw-proto", "TCP"))));
        assertFalse(wide.covers(AclRules.parse(Map.of("src-ip", "10.0.0.5/32"))), "any protocol is wider than TCP");
        assertFalse(wide.covers(AclRules.parse(Map.of("dst-ip", "10.0.0.5/32", "nw-proto", "TCP"))),
                "any source is wider than 10.0.0.0/24");
        var dstOnly = AclRules.parse(Map.of("dst-ip", "10.0.0.5/32"));
        assertTrue(dstOnly.covers(AclRules.parse(Map.of("src-ip", "10.0.0.1/32", "dst-ip", "10.0.0.5/32"))));
        assertTrue(wide.matches(0x0a00_0009, 0x0b00_0001, AclRule.TCP, 443));
        assertFalse(wide.matches(0x0a00_0009, 0x0b00_0001, AclRule.UDP, 443));
    }
}
