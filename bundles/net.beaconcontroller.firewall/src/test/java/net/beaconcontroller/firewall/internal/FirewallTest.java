package net.beaconcontroller.firewall.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static net.beaconcontroller.firewall.internal.Packets.H1;
import static net.beaconcontroller.firewall.internal.Packets.H2;
import static net.beaconcontroller.firewall.internal.Packets.H3;
import static net.beaconcontroller.firewall.internal.Packets.icmp;
import static net.beaconcontroller.firewall.internal.Packets.ip;
import static net.beaconcontroller.firewall.internal.Packets.rule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.firewall.IFirewall;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.packet.Ethernet;
import net.beaconcontroller.packet.Icmp;
import net.beaconcontroller.packet.Ipv4;
import net.beaconcontroller.packet.Data;

/** The firewall against a real controller on loopback and a scripted switch, and its file. */
class FirewallTest {
    @TempDir
    Path dir;

    private Firewall firewall(IBeaconProvider beacon, Path file) {
        return new Firewall(beacon, new StubTopology(9), new RuleFile(file), null, new Firewall.DropFlows(5, 0x8000));
    }

    private static byte[] ping(long src, long dst) {
        return Ethernet.builder().destination(dst).source(src).payload(Ipv4.builder().protocol(Ipv4.PROTOCOL_ICMP)
                .source(ip(src)).destination(ip(dst)).ttl(64).payload(Icmp.echoRequest(1, 1, Data.EMPTY)).build())
                .build().padded().serialize();
    }

    private static boolean isDelete(Object m, OFMatch match) {
        return m instanceof OFFlowMod f && f.command() == OFFlowMod.Command.DELETE_STRICT && f.match().equals(match);
    }

    @Test
    void offItJudgesNothingOnARefusedPacketGetsADropFlowAsNarrowAsThePacket() {
        try (var fx = ControllerFixture.start()) {
            var fw = firewall(fx.controller, dir.resolve("firewall.txt"));
            fx.controller.addOFMessageListener(OFType.PACKET_IN, fw);
            var after = new RecordingListener("after");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, after);
            var c = fx.connectActive(1);
            c.fake().send(c.fake().packetIn(1, ping(H1, H3)));
            // Enabled once that packet went through the firewall, or it may be judged too (a race of the test).
            after.await(WAIT);
            fw.setEnabled(true);
            fw.add(rule("src-ip", "10.0.0.1", "dst-ip", "10.0.0.2"));
            c.fake().send(c.fake().packetIn(1, ping(H1, H2)), c.fake().packetIn(9, ping(H1, H3)),
                    c.fake().packetIn(1, ping(H1, H3)));
            OFFlowMod drop = c.fake().expect(OFType.FLOW_MOD, m -> ((OFFlowMod) m).command() == OFFlowMod.Command.ADD,
                    WAIT);
            assertEquals(FlowOwner.FIREWALL.cookie(), drop.cookie());
            assertEquals(List.of(), drop.actions());
            assertEquals(5, drop.idleTimeout());
            assertEquals(icmp(H1, H3, 1).inPort(), drop.match().inPort());
            assertEquals(ip(H3), drop.match().nwDst(), "the first packet, sent while off, was not judged");
            assertFalse(drop.match().isWildcarded(OFMatch.OFPFW_NW_PROTO));
            var counters = fw.getCounters();
            assertEquals(1, counters.defaultDropped(), "the packet from a link port was judged at its first switch");
            assertEquals(List.of(1L), List.copyOf(counters.byRule().values()));
        }
    }

    @Test
    void aChangeRemovesTheFlowsItReversesAndNothingElse() {
        try (var fx = ControllerFixture.start()) {
            var c = fx.connectActive(1);
            var toH3 = icmp(H1, H3, 1);
            var toH2 = icmp(H1, H2, 1);
            c.fake().flowTable(List.of(
                    new OFFlowStatsEntry(0, toH3, 1, 0, 0x8000, 5, 0, FlowOwner.ROUTING.cookie(), 1, 98, List.of()),
                    new OFFlowStatsEntry(0, toH2, 1, 0, 0x8000, 5, 0, FlowOwner.ROUTING.cookie(), 1, 98, List.of()),
                    new OFFlowStatsEntry(0, icmp(H2, H1, 1), 1, 0, 0x8000, 5, 0, FlowOwner.FIREWALL.cookie(), 1, 98,
                            List.of())));
            var fw = firewall(fx.controller, dir.resolve("firewall.txt"));
            fw.add(rule("src-ip", "10.0.0.1", "dst-ip", "10.0.0.2"));
            fw.add(rule("src-ip", "10.0.0.2", "dst-ip", "10.0.0.1"));
            fw.setEnabled(true);
            c.fake().expectReceived(OFType.FLOW_MOD, m -> isDelete(m, toH3), WAIT);
            c.fake().expectReceived(OFType.FLOW_MOD, m -> isDelete(m, icmp(H2, H1, 1)), WAIT);
            ControllerFixture.awaitTrue("the deletions counted", WAIT, () -> fw.getCounters().flowsDeleted() >= 2);
            assertFalse(c.fake().received().stream().anyMatch(m -> isDelete(m, toH2)), "an allowed flow stays");
        }
    }

    @Test
    void rulesAndStateOutliveARestartAndAChangeThatCannotBeSavedChangesNothing() throws IOException {
        var path = dir.resolve("firewall.txt");
        try (var fx = ControllerFixture.start()) {
            var fw = firewall(fx.controller, path);
            var added = fw.add(rule("dl-type", "ARP", "priority", "3"));
            assertInstanceOf(IFirewall.Added.Kept.class, added);
            var kept = ((IFirewall.Added.Kept) added).rule();
            assertEquals(new IFirewall.Added.Similar(kept), fw.add(rule("dl-type", "ARP", "priority", "1")));
            fw.add(rule("nw-proto", "ICMP", "action", "DENY"));
            fw.setEnabled(true);
            assertTrue(fw.remove(12345).isEmpty());

            var again = firewall(fx.controller, path);
            assertTrue(again.isEnabled());
            assertEquals(fw.getRules(), again.getRules());

            Files.delete(path);
            Files.createDirectory(path); // now the file cannot be written
            assertThrows(UncheckedIOException.class, () -> again.add(rule("src-ip", "10.0.0.9")));
            assertThrows(UncheckedIOException.class, () -> again.remove(kept.id()));
            assertThrows(UncheckedIOException.class, () -> again.setEnabled(false));
            assertEquals(fw.getRules(), again.getRules());
            assertTrue(again.isEnabled());
        }
    }
}
