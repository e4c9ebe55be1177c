package net.beaconcontroller.firewall.internal;

import static net.beaconcontroller.firewall.internal.Packets.H1;
import static net.beaconcontroller.firewall.internal.Packets.H2;
import static net.beaconcontroller.firewall.internal.Packets.H3;
import static net.beaconcontroller.firewall.internal.Packets.icmp;
import static net.beaconcontroller.firewall.internal.Packets.rule;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.firewall.internal.FirewallState.Module;
import net.beaconcontroller.firewall.internal.FirewallState.Stored;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;

/** Which flows a change reverses. Port 1 is an edge port, port 9 ends an inter-switch link. */
class FlowCleanupTest {
    private static final StubTopology TOPOLOGY = new StubTopology(9);
    private static final FirewallState ALLOW_1_TO_2 = new FirewallState(new Module(true,
            FirewallState.DEFAULT_SUBNET_MASK), List.of(new Stored(rule("src-ip", "10.0.0.1", "dst-ip",
                    "10.0.0.2"), 1)));

    private static OFFlowStatsEntry flow(FlowOwner owner, OFMatch match) {
        return new OFFlowStatsEntry(0, match, 1, 0, 0x8000, 5, 0, owner.cookie(), 1, 100, List.of());
    }

    @Test
    void routingFlowsFromAnEdgePortGoWhenTheirPacketIsNowRefused() {
        assertFalse(FlowCleanup.stale(1, flow(FlowOwner.ROUTING, icmp(H1, H2, 1)), ALLOW_1_TO_2, TOPOLOGY));
        assertTrue(FlowCleanup.stale(1, flow(FlowOwner.ROUTING, icmp(H1, H3, 1)), ALLOW_1_TO_2, TOPOLOGY));
        assertTrue(FlowCleanup.stale(1, flow(FlowOwner.LEARNING_SWITCH, icmp(H1, H3, 1)), ALLOW_1_TO_2, TOPOLOGY));
        assertFalse(FlowCleanup.stale(1, flow(FlowOwner.ROUTING, icmp(H1, H3, 9)), ALLOW_1_TO_2, TOPOLOGY),
                "judged where it entered the network, not on the way");
        assertFalse(FlowCleanup.stale(1, flow(FlowOwner.STATIC_FLOWS, icmp(H1, H3, 1)), ALLOW_1_TO_2, TOPOLOGY),
                "other owners' flows are theirs");
        var off = ALLOW_1_TO_2.with(new Module(false, FirewallState.DEFAULT_SUBNET_MASK));
        assertFalse(FlowCleanup.stale(1, flow(FlowOwner.ROUTING, icmp(H1, H3, 1)), off, TOPOLOGY));
    }

    @Test
    void dropFlowsGoWhenThePacketIsNowAllowedOrTheFirewallIsOff() {
        assertTrue(FlowCleanup.stale(1, flow(FlowOwner.FIREWALL, icmp(H1, H2, 1)), ALLOW_1_TO_2, TOPOLOGY));
        assertFalse(FlowCleanup.stale(1, flow(FlowOwner.FIREWALL, icmp(H1, H3, 1)), ALLOW_1_TO_2, TOPOLOGY));
        var off = ALLOW_1_TO_2.with(new Module(false, FirewallState.DEFAULT_SUBNET_MASK));
        assertTrue(FlowCleanup.stale(1, flow(FlowOwner.FIREWALL, icmp(H1, H3, 1)), off, TOPOLOGY));
    }

    @Test
    void aFlowMatchingLessThanAPacketCannotBeJudgedAndGoes() {
        var dstMac = OFMatch.builder().dlDst(H2).dlVlan(OFMatch.VLAN_NONE).build();
        assertFalse(FlowCleanup.isWholePacket(dstMac));
        assertTrue(FlowCleanup.stale(1, flow(FlowOwner.ROUTING, dstMac), ALLOW_1_TO_2, TOPOLOGY));
        assertTrue(FlowCleanup.isWholePacket(icmp(H1, H2, 1)));
        var ipv6 = OFMatch.builder().inPort(1).dlSrc(H1).dlDst(H2).dlType(0x86dd).build();
        assertTrue(FlowCleanup.isWholePacket(ipv6), "Open vSwitch wildcards the fields that do not apply");
    }
}
