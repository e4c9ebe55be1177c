package net.beaconcontroller.firewall.internal;

import static net.beaconcontroller.firewall.internal.Packets.H1;
import static net.beaconcontroller.firewall.internal.Packets.H2;
import static net.beaconcontroller.firewall.internal.Packets.H3;
import static net.beaconcontroller.firewall.internal.Packets.arp;
import static net.beaconcontroller.firewall.internal.Packets.icmp;
import static net.beaconcontroller.firewall.internal.Packets.ip;
import static net.beaconcontroller.firewall.internal.Packets.rule;
import static net.beaconcontroller.firewall.internal.Packets.tcp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.firewall.FirewallRule;
import net.beaconcontroller.firewall.internal.FirewallState.Module;
import net.beaconcontroller.firewall.internal.FirewallState.Stored;
import net.beaconcontroller.packet.Arp;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;

/** Floodlight's decision: broadcasts, first match in ascending priority number, default deny. */
class FirewallStateTest {
    private static FirewallState with(Stored... rules) {
        return new FirewallState(new Module(true, FirewallState.DEFAULT_SUBNET_MASK), List.of(rules));
    }

    private static Stored at(long added, FirewallRule r) {
        return new Stored(r, added);
    }

    @Test
    void nothingMatchedIsDroppedButL2BroadcastsPass() {
        var s = with();
        assertEquals(Decision.NoMatch.INSTANCE, s.decide(1, icmp(H1, H2, 1)));
        assertEquals(new Decision.Broadcast(true), s.decide(1, arp(H1, MacAddress.BROADCAST, Arp.REQUEST)),
                "an ARP request passes");
        assertFalse(s.decide(1, arp(H2, H1, Arp.REPLY)).allowed(), "the ARP reply (unicast) needs a rule");
        assertTrue(s.decide(1, Packets.ipv4Broadcast(H1, IPv4Address.parse("255.255.255.255"))).allowed());
        assertTrue(s.decide(1, Packets.ipv4Broadcast(H1, IPv4Address.parse("10.0.0.255"))).allowed());
        assertEquals(new Decision.Broadcast(false), s.decide(1, Packets.ipv4Broadcast(H1, ip(H2))),
                "IPv4 to a unicast address in an L2 broadcast");
        var wider = s.with(new Module(true, IPv4Address.parse("255.255.0.0")));
        assertFalse(wider.decide(1, Packets.ipv4Broadcast(H1, IPv4Address.parse("10.0.0.255"))).allowed());
    }

    /** FirewallTest.testOverlappingRules of Floodlight: ALLOW TCP/80 at priority 1 beats DROP-all at 2. */
    @Test
    void theSmallestPriorityNumberWins() {
        var allowWeb = rule("nw-proto", "TCP", "tp-dst", "80", "priority", "1");
        var dropAll = rule("action", "DROP", "priority", "2");
        var s = with(at(2, dropAll), at(1, allowWeb));
        assertEquals(List.of(allowWeb, dropAll), s.ruleList());
        assertEquals(new Decision.ByRule(allowWeb), s.decide(1, tcp(H1, H2, 80)));
        assertEquals(new Decision.ByRule(dropAll), s.decide(1, tcp(H1, H2, 22)));
    }

    @Test
    void amongEqualPrioritiesTheRuleAddedLastComesFirst() {
        var allow = rule("src-ip", "10.0.0.1");
        var deny = rule("src-ip", "10.0.0.0/24", "action", "DENY");
        assertEquals(new Decision.ByRule(deny), with(at(1, allow), at(2, deny)).decide(1, icmp(H1, H2, 1)));
        assertEquals(new Decision.ByRule(allow), with(at(2, allow), at(1, deny)).decide(1, icmp(H1, H2, 1)));
    }

    @Test
    void eachFieldNarrowsTheRule() {
        var arpRule = rule("dl-type", "ARP");
        assertTrue(arpRule.matches(1, arp(H2, H1, Arp.REPLY)));
        assertFalse(arpRule.matches(1, icmp(H1, H2, 1)), "an ARP rule matches ARP only");
        var pair = rule("src-ip", "10.0.0.1/32", "dst-ip", "10.0.0.2/32", "nw-proto", "ICMP");
        assertTrue(pair.matches(1, icmp(H1, H2, 1)));
        assertFalse(pair.matches(1, icmp(H2, H1, 1)), "one rule per direction");
        assertFalse(pair.matches(1, icmp(H1, H3, 1)));
        assertFalse(pair.matches(1, tcp(H1, H2, 80)));
        assertFalse(pair.matches(1, arp(H1, H2, Arp.REPLY)), "IPv4 fields match IPv4 only");
        assertTrue(rule("src-ip", "10.0.0.0/30").matches(1, icmp(H3, H1, 1)));
        assertFalse(rule("src-ip", "10.0.0.0/31").matches(1, icmp(H3, H1, 1)));
        var onSwitch = rule("switchid", "00:00:00:00:00:00:00:02", "src-inport", "3");
        assertTrue(onSwitch.matches(2, icmp(H1, H2, 3)));
        assertFalse(onSwitch.matches(1, icmp(H1, H2, 3)));
        assertFalse(onSwitch.matches(2, icmp(H1, H2, 4)));
        var macs = rule("src-mac", "00:00:00:00:00:01", "dst-mac", "00:00:00:00:00:02");
        assertTrue(macs.matches(9, tcp(H1, H2, 22)));
        assertFalse(macs.matches(9, tcp(H2, H1, 22)));
        var ports = rule("nw-proto", "TCP", "tp-src", "40000", "tp-dst", "22");
        assertTrue(ports.matches(1, tcp(H1, H2, 22)));
        assertFalse(ports.matches(1, tcp(H1, H2, 23)));
    }

    @Test
    void replacingAndRemovingKeepTheOrder() {
        var a = rule("src-ip", "10.0.0.1", "priority", "5");
        var b = rule("src-ip", "10.0.0.2", "priority", "3");
        var s = with(at(1, a)).with(at(2, b));
        assertEquals(List.of(b, a), s.ruleList());
        assertEquals(List.of(a), s.without(b.id()).ruleList());
        assertEquals(s, s.with(at(2, b)), "the same rule again changes nothing");
    }
}
