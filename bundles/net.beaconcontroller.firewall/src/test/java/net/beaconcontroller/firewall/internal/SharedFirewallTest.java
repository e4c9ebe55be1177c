package net.beaconcontroller.firewall.internal;

import static net.beaconcontroller.firewall.internal.Packets.rule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.MemorySharedState;
import net.beaconcontroller.firewall.FirewallRule;
import net.beaconcontroller.firewall.IFirewall;

/** Two members sharing the firewall: a change on either is the other's too, and kept in its file. */
class SharedFirewallTest {
    @TempDir
    Path dir;

    private static Firewall member(ControllerFixture fx, Path file, MemorySharedState cluster) {
        return new Firewall(fx.controller, new StubTopology(9), new RuleFile(file), cluster,
                new Firewall.DropFlows(5, 0x8000));
    }

    private static FirewallRule kept(IFirewall.Added added) {
        return ((IFirewall.Added.Kept) added).rule();
    }

    @Test
    void aChangeOnOneMemberIsEnforcedAndKeptByTheOther() throws IOException {
        try (var fx = ControllerFixture.start(); var cluster = new MemorySharedState()) {
            var one = member(fx, dir.resolve("one.txt"), cluster);
            var two = member(fx, dir.resolve("two.txt"), cluster);
            var r = kept(one.add(rule("src-ip", "10.0.0.1", "nw-proto", "ICMP", "priority", "2")));
            one.setEnabled(true);
            cluster.settle();
            assertEquals(List.of(r), two.getRules());
            assertTrue(two.isEnabled());
            assertEquals(two.getRules(), new RuleFile(dir.resolve("two.txt")).read().ruleList(), "kept in its file");

            assertEquals(new IFirewall.Added.Similar(r), two.add(rule("src-ip", "10.0.0.1", "nw-proto", "ICMP")),
                    "the same rule is known on the other member");
            assertTrue(two.remove(r.id()).isPresent());
            two.setSubnetMask(0xffff_0000);
            cluster.settle();
            assertEquals(List.of(), one.getRules());
            assertEquals(0xffff_0000, one.getSubnetMask());
        }
    }

    @Test
    void aJoiningMemberOffersItsRulesAndTakesTheClustersModule() throws IOException {
        try (var fx = ControllerFixture.start(); var cluster = new MemorySharedState()) {
            var one = member(fx, dir.resolve("one.txt"), cluster);
            one.setEnabled(true);
            var alone = member(fx, dir.resolve("two.txt"), null);
            var offered = kept(alone.add(rule("dl-type", "ARP")));
            assertFalse(alone.isEnabled());

            var two = member(fx, dir.resolve("two.txt"), cluster);
            cluster.settle();
            assertTrue(two.isEnabled(), "the cluster's on/off state wins over the file's");
            assertEquals(List.of(offered), two.getRules());
            assertEquals(List.of(offered), one.getRules(), "the file's rule offered to the cluster");
            assertTrue(new RuleFile(dir.resolve("two.txt")).read().enabled());
        }
    }
}
