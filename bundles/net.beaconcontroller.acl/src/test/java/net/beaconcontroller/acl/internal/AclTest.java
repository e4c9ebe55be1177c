package net.beaconcontroller.acl.internal;

import static net.beaconcontroller.acl.internal.FakeDevices.host;
import static net.beaconcontroller.acl.internal.FakeDevices.rule;
import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import net.beaconcontroller.acl.AclCounters;
import net.beaconcontroller.acl.IAcl;
import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.MemorySharedState;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.acl.AclRule;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFType;

/** The ACL against a real controller with connected switches: rules kept, enforced and withdrawn as static flows. */
class AclTest {
    private static final int H1 = 0x0a00_0001;
    private static final int H4 = 0x0a00_0004;

    @TempDir
    Path dir;

    private final FakePusher pusher = new FakePusher();
    private final FakeDevices devices = new FakeDevices();

    private Acl acl(ControllerFixture fx, Path file, ISharedState cluster) {
        return new Acl(pusher, devices, fx.controller, new AclFile(file), cluster, 40000, 3600);
    }

    private static int added(IAcl.Added a) {
        return assertInstanceOf(IAcl.Added.Kept.class, a).rule().id();
    }

    /** Also: the flows the drop flow covers (routing's exact ones would beat it) are deleted from that switch. */
    @Test
    void aDenyIsOnTheSourceHostsSwitchWhenAddedReturnsAndGoneWhenDeletedReturns() {
        try (var fx = ControllerFixture.start()) {
            var s1 = fx.connectActive(1);
            fx.connectActive(4);
            devices.hosts.addAll(List.of(host(H1, 1), host(H4, 4)));
            var acl = acl(fx, dir.resolve("acl.txt"), null);
            try {
                int id = added(acl.add(rule(0, "src-ip", "10.0.0.1/32", "dst-ip", "10.0.0.4/32", "nw-proto",
                        "ICMP")));
                assertEquals(1, id, "ids start at 1");
                assertEquals(List.of("ACLRule_1_00:00:00:00:00:00:00:01"), pusher.names());
                var drop = pusher.getFlows().get(0);
                s1.fake().expectReceived(OFType.FLOW_MOD, m -> m instanceof OFFlowMod f
                        && f.command() == OFFlowMod.Command.DELETE && f.match().equals(drop.match()), WAIT);
                assertEquals(2, added(acl.add(rule(0, "src-ip", "10.0.0.4/32", "dst-ip", "10.0.0.1/32"))));
                assertEquals(2, pusher.names().size());

                assertTrue(acl.remove(1).isPresent());
                assertEquals(List.of("ACLRule_2_00:00:00:00:00:00:00:04"), pusher.names());
                assertTrue(acl.remove(1).isEmpty(), "gone already");
                assertEquals(new AclCounters(1, 2, 1), acl.getCounters());

                assertEquals(1, acl.clear());
                assertEquals(List.of(), pusher.names());
                assertEquals(List.of(), acl.getRules());
                assertEquals(1, added(acl.add(rule(0, "dst-ip", "10.0.0.4/32"))), "a clear starts ids at 1 again");
            } finally {
                acl.deactivate();
            }
        }
    }

    private static final int PROTO = 23;
    private static final int DST = 30;

    private static ByteBuffer frameOf(RecordingListener.Call call) {
        return ByteBuffer.wrap(((OFPacketIn) call.msg()).frameBytes());
    }

    /** An IPv4 frame from {@code src} to {@code dst} of protocol {@code proto}, with a TCP/UDP port of 80. */
    private static byte[] frame(int src, int dst, int proto) {
        var b = ByteBuffer.allocate(64);
        b.put(new byte[] {0, 0, 0, 0, 0, (byte) dst}).put(new byte[] {0, 0, 0, 0, 0, (byte) src});
        b.putShort((short) 0x0800).put((byte) 0x45).put((byte) 0).putShort((short) 40).putInt(0).put((byte) 64)
                .put((byte) proto).putShort((short) 0).putInt(src).putInt(dst);
        b.putShort((short) 40000).putShort((short) 80);
        return b.array();
    }

    /**
     * PACKET_INs a DENY is about stop before forwarding, the first matching rule deciding: routing's exact flow for one
     * already on its way when the drop flow is written would beat that flow for as long as the traffic lasts.
     */
    @Test
    void aPacketTheFirstMatchingRuleDeniesGoesNoFurther() {
        try (var fx = ControllerFixture.start()) {
            var acl = acl(fx, dir.resolve("acl.txt"), null);
            var after = new RecordingListener("routing");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, acl);
            fx.controller.addOFMessageListener(OFType.PACKET_IN, after);
            try {
                var c = fx.connectActive(1);
                added(acl.add(rule(0, "src-ip", "10.0.0.1/32", "dst-ip", "10.0.0.4/32", "nw-proto", "TCP",
                        "tp-dst", "80", "action", "allow")));
                added(acl.add(rule(0, "src-ip", "10.0.0.0/24", "dst-ip", "10.0.0.4/32")));
                c.fake().send(c.fake().packetIn(1, frame(H1, H4, AclRule.UDP)));
                c.fake().send(c.fake().packetIn(1, frame(H1, H4, AclRule.TCP)));
                assertEquals(AclRule.TCP, frameOf(after.await(WAIT)).get(PROTO), "the ALLOW before the DENY wins");
                c.fake().send(c.fake().packetIn(1, frame(H4, H1, AclRule.UDP)));
                assertEquals(H1, frameOf(after.await(WAIT)).getInt(DST), "no rule: forwarded");
                after.expectNone(Duration.ofMillis(200));
            } finally {
                acl.deactivate();
            }
        }
    }

    @Test
    void aHostThatAppearsLaterGetsTheFlowAndARuleAnEarlierOneCoversIsRefused() {
        try (var fx = ControllerFixture.start()) {
            fx.connectActive(1);
            var acl = acl(fx, dir.resolve("acl.txt"), null);
            try {
                added(acl.add(rule(0, "src-ip", "10.0.0.0/24", "nw-proto", "TCP")));
                assertEquals(List.of(), pusher.names(), "no host inside it yet");
                var h1 = host(H1, 1);
                devices.hosts.add(h1);
                acl.deviceAdded(h1);
                ControllerFixture.awaitTrue("the new host's switch gets the flow", WAIT,
                        () -> pusher.names().equals(List.of("ACLRule_1_00:00:00:00:00:00:00:01")));

                var covered = acl.add(rule(0, "src-ip", "10.0.0.1/32", "nw-proto", "TCP", "tp-dst", "22",
                        "action", "allow"));
                assertEquals(new IAcl.Added.Covered(acl.getRules().get(0)), covered);
                assertEquals(1, acl.getRules().size());
            } finally {
                acl.deactivate();
            }
        }
    }

    /** A spray of spoofed sources makes thousands of hosts, each asking for a run: only DENY rules need their list. */
    @Test
    void hostsAreListedOnlyForDenyRules() {
        try (var fx = ControllerFixture.start()) {
            fx.connectActive(1);
            devices.hosts.add(host(H1, 1));
            var acl = acl(fx, dir.resolve("acl.txt"), null);
            try {
                added(acl.add(rule(0, "src-ip", "10.0.1.0/24", "action", "allow")));
                assertEquals(0, devices.listed.get(), "no DENY rule: the hosts are not listed");
                added(acl.add(rule(0, "src-ip", "10.0.0.0/24", "nw-proto", "TCP")));
                assertTrue(devices.listed.get() > 0, "a DENY rule: they are");
                assertEquals(List.of("ACLRule_2_00:00:00:00:00:00:00:01"), pusher.names());
            } finally {
                acl.deactivate();
            }
        }
    }

    @Test
    void rulesAreKeptInTheFileAndFlowsOfRulesDeletedWhileStoppedGoWhenItStarts() throws IOException {
        var file = dir.resolve("acl.txt");
        try (var fx = ControllerFixture.start()) {
            fx.connectActive(1);
            devices.hosts.add(host(H1, 1));
            var acl = acl(fx, file, null);
            added(acl.add(rule(0, "src-ip", "10.0.0.1/32", "nw-proto", "UDP", "tp-dst", "53")));
            added(acl.add(rule(0, "src-ip", "10.0.0.1/32", "nw-proto", "ICMP")));
            acl.deactivate();
            assertEquals(2, pusher.names().size(), "a stopped ACL leaves its DENY flows: they must not lapse");

            var state = new AclFile(file).read();
            assertEquals(acl.getRules(), state.rules());
            Files.writeString(file, Files.readString(file).replaceAll("(?m)^rule\t1\t.*\n", ""));
            var again = acl(fx, file, null);
            try {
                ControllerFixture.awaitTrue("rule 1's flow removed at start", WAIT,
                        () -> pusher.names().equals(List.of("ACLRule_2_00:00:00:00:00:00:00:01")));
                assertEquals(3, added(again.add(rule(0, "dst-ip", "10.0.0.9/32"))), "ids are not reused");
            } finally {
                again.deactivate();
            }
        }
    }

    @Test
    void aRuleThatCannotBeSavedIsNotKept() throws IOException {
        Files.writeString(dir.resolve("blocker"), ""); // a file where the directory should be: every write fails
        try (var fx = ControllerFixture.start()) {
            var acl = acl(fx, dir.resolve("blocker/acl.txt"), null);
            try {
                assertThrows(UncheckedIOException.class, () -> acl.add(rule(0, "src-ip", "10.0.0.1/32")));
                assertEquals(List.of(), acl.getRules());
            } finally {
                acl.deactivate();
            }
        }
    }

    @Test
    void twoMembersShareTheRules() throws IOException {
        try (var fx = ControllerFixture.start(); var cluster = new MemorySharedState()) {
            var one = acl(fx, dir.resolve("one.txt"), cluster);
            var two = acl(fx, dir.resolve("two.txt"), cluster);
            try {
                assertEquals(1, added(one.add(rule(0, "src-ip", "10.0.0.1/32"))));
                cluster.settle();
                assertEquals(one.getRules(), two.getRules());
                assertEquals(2, added(two.add(rule(0, "src-ip", "10.0.0.2/32"))), "the id is claimed in the cluster");
                cluster.settle();
                assertEquals(2, one.getRules().size());
                assertTrue(one.remove(2).isPresent());
                cluster.settle();
                assertEquals(one.getRules(), two.getRules());
                assertEquals(two.getRules(), new AclFile(dir.resolve("two.txt")).read().rules(), "kept in its file");
            } finally {
                one.deactivate();
                two.deactivate();
            }
        }
    }
}
