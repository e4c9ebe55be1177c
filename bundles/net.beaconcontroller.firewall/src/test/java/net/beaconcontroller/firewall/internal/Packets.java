package net.beaconcontroller.firewall.internal;

import java.util.LinkedHashMap;

import net.beaconcontroller.firewall.FirewallRule;
import net.beaconcontroller.firewall.FirewallRules;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;

/** Packets as the firewall sees them (every field of the match set) and rules, for the tests. */
final class Packets {
    static final long H1 = 1;
    static final long H2 = 2;
    static final long H3 = 3;

    private Packets() {
    }

    static int ip(long host) {
        return IPv4Address.parse("10.0.0." + (host & 0xff));
    }

    static OFMatch icmp(long src, long dst, int inPort) {
        return OFMatch.builder().inPort(inPort).dlSrc(src).dlDst(dst).dlVlan(OFMatch.VLAN_NONE).dlVlanPcp(0)
                .dlType(FirewallRule.IPV4).nwTos(0).nwProto(FirewallRule.ICMP).nwSrc(ip(src)).nwDst(ip(dst))
                .tpSrc(8).tpDst(0).build();
    }

    static OFMatch tcp(long src, long dst, int dstPort) {
        return OFMatch.builder().inPort(1).dlSrc(src).dlDst(dst).dlVlan(OFMatch.VLAN_NONE).dlVlanPcp(0)
                .dlType(FirewallRule.IPV4).nwTos(0).nwProto(FirewallRule.TCP).nwSrc(ip(src)).nwDst(ip(dst))
                .tpSrc(40000).tpDst(dstPort).build();
    }

    static OFMatch arp(long src, long dst, int opcode) {
        return OFMatch.builder().inPort(1).dlSrc(src).dlDst(dst).dlVlan(OFMatch.VLAN_NONE).dlVlanPcp(0)
                .dlType(FirewallRule.ARP).nwTos(0).nwProto(opcode).nwSrc(ip(src)).nwDst(ip(dst)).tpSrc(0).tpDst(0)
                .build();
    }

    static OFMatch ipv4Broadcast(long src, int dstIp) {
        return OFMatch.builder().inPort(1).dlSrc(src).dlDst(MacAddress.BROADCAST).dlVlan(OFMatch.VLAN_NONE)
                .dlVlanPcp(0).dlType(FirewallRule.IPV4).nwTos(0).nwProto(FirewallRule.UDP).nwSrc(ip(src))
                .nwDst(dstIp).tpSrc(68).tpDst(67).build();
    }

    /** A rule from Floodlight's keys, with the id it would be kept under. */
    static FirewallRule rule(String... kv) {
        var m = new LinkedHashMap<String, String>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        var r = FirewallRules.parse(m);
        return r.withId(FirewallRules.id(r, 0));
    }
}
