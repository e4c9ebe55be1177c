package net.beaconcontroller.firewall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.firewall.FirewallRule.Action;
import net.beaconcontroller.firewall.FirewallRule.Prefix;
import net.beaconcontroller.util.IPv4Address;

/** Floodlight's rule syntax: what it takes, and the malformed rules v1.2 half-added and Beacon refuses whole. */
class FirewallRulesTest {
    private static FirewallRule parse(String... kv) {
        var m = new LinkedHashMap<String, String>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return FirewallRules.parse(m);
    }

    private static String refusal(String... kv) {
        return assertThrows(IllegalArgumentException.class, () -> parse(kv)).getMessage();
    }

    @Test
    void theWikisExamples() {
        var r = parse("switchid", "00:00:00:00:00:00:00:01");
        assertEquals(OptionalLong.of(1), r.dpid());
        assertEquals(Action.ALLOW, r.action());
        assertEquals(0, r.priority());
        assertTrue(r.dlType().isEmpty());

        r = parse("src-ip", "10.0.0.3/32", "dst-ip", "10.0.0.7/32");
        assertEquals(new Prefix(IPv4Address.parse("10.0.0.3"), 32), r.nwSrc());
        assertEquals(new Prefix(IPv4Address.parse("10.0.0.7"), 32), r.nwDst());
        assertEquals(OptionalInt.of(FirewallRule.IPV4), r.dlType(), "an IP field implies dl-type IPv4");
    }

    @Test
    void keysAndWordsInAnyCaseAnyMeansWildcardEmptyMeansAbsent() {
        var r = parse("SRC-IP", "10.0.0.1", "Dst-Mac", "ANY", "nw-proto", "icmp", "action", "deny", "priority", "",
                "ruleid", "99");
        assertEquals(new Prefix(IPv4Address.parse("10.0.0.1"), 32), r.nwSrc(), "no /M means /32");
        assertTrue(r.dlDst().isEmpty());
        assertEquals(OptionalInt.of(FirewallRule.ICMP), r.nwProto());
        assertEquals(Action.DROP, r.action());
        assertEquals(0, r.priority());
        assertEquals(Action.DROP, parse("action", "DROP").action());
        assertEquals(Action.ALLOW, parse("action", "Accept").action());
        assertEquals(OptionalInt.of(FirewallRule.ARP), parse("dl-type", "arp").dlType());
        assertEquals(OptionalInt.of(80), parse("nw-proto", "TCP", "tp-dst", "80").tpDst());
        assertEquals(-3, parse("priority", "-3").priority());
    }

    @Test
    void malformedRulesAreRefusedNamingTheKey() {
        assertTrue(refusal("src-ip", "10.0.0.300").startsWith("src-ip '10.0.0.300': not an IPv4 address"));
        assertTrue(refusal("dst-ip", "10.0.0.1/33").startsWith("dst-ip '10.0.0.1/33': must be 0..32"));
        assertTrue(refusal("src-mac", "00:00:00:00:00").startsWith("src-mac '00:00:00:00:00'"));
        assertTrue(refusal("switchid", "nope").startsWith("switchid 'nope'"));
        assertTrue(refusal("action", "permit").contains("must be ALLOW, ACCEPT, DENY or DROP"));
        assertTrue(refusal("dl-type", "IPv6").contains("must be ARP or IPv4"));
        assertTrue(refusal("nw-proto", "SCTP").contains("must be TCP, UDP or ICMP"));
        assertTrue(refusal("priority", "high").contains("not a whole number"));
        assertTrue(refusal("src-inport", "70000").contains("must be 0..65535"));
        assertTrue(refusal("src_ip", "10.0.0.1").startsWith("unknown key \"src_ip\""), "a typo would allow all");
        assertTrue(refusal("tp-dst", "80").contains("need nw-proto TCP or UDP"));
        assertTrue(refusal("nw-proto", "ICMP", "tp-dst", "80").contains("need nw-proto TCP or UDP"));
        assertTrue(refusal("dl-type", "ARP", "src-ip", "10.0.0.1").contains("need dl-type IPv4"));
        assertTrue(refusal("src-ip", "10.0.0.1", "SRC-IP", "10.0.0.2").contains("given twice"));
    }

    @Test
    void fieldsReadBackToTheSameRule() {
        var r = parse("switchid", "00:00:00:00:00:00:00:02", "src-inport", "3", "src-mac", "00:00:00:00:00:01",
                "dst-mac", "00:00:00:00:00:02", "src-ip", "10.0.0.0/8", "dst-ip", "10.0.0.2", "nw-proto", "UDP",
                "tp-src", "53", "tp-dst", "5353", "priority", "7", "action", "DENY");
        assertEquals(r, FirewallRules.parse(r.fields()));
        var arp = parse("dl-type", "ARP");
        assertEquals(arp, FirewallRules.parse(arp.fields()));
    }

    @Test
    void theIdIsAHashOfTheRuleSoTheSameRuleGetsTheSameId() {
        var a = parse("src-ip", "10.0.0.1", "priority", "1");
        var b = FirewallRules.parse(Map.of("priority", "1", "src-ip", "10.0.0.1/32"));
        assertEquals(FirewallRules.id(a, 0), FirewallRules.id(b, 0));
        assertNotEquals(FirewallRules.id(a, 0), FirewallRules.id(a, 1));
        assertNotEquals(FirewallRules.id(a, 0), FirewallRules.id(parse("src-ip", "10.0.0.1", "priority", "2"), 0));
        assertTrue(FirewallRules.id(a, 0) > 0);
    }

    @Test
    void sameAsIgnoresThePriorityOnly() {
        var a = parse("src-ip", "10.0.0.1", "priority", "1");
        assertTrue(a.isSameAs(parse("src-ip", "10.0.0.1", "priority", "5")));
        assertTrue(!a.isSameAs(parse("src-ip", "10.0.0.1", "action", "deny")));
    }
}
