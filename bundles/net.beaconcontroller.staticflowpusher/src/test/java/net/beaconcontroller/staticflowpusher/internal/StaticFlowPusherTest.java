package net.beaconcontroller.staticflowpusher.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.core.FlowReconciliationStats;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.ControllerFixture.Kind;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.FixedRole;
import net.beaconcontroller.core.test.MemorySharedState;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFFlowRemoved;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.openflow.action.OFActions;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.openflow.vendor.NiciraRole;
import net.beaconcontroller.staticflowpusher.StaticFlow;

/** Static flows against a real controller and scripted switches, kept in a real file. */
class StaticFlowPusherTest {
    @TempDir
    Path dir;

    private static StaticFlow flow(String name, long dpid, String match, String actions, int priority) {
        return new StaticFlow(name, dpid, OFMatch.parse(match), OFActions.parse(actions), priority, 0x42, 0, 0, true);
    }

    private static boolean isAdd(Object m, StaticFlow f) {
        return m instanceof OFFlowMod fm && fm.command() == OFFlowMod.Command.ADD && fm.match().equals(f.match())
                && fm.priority() == f.priority() && fm.actions().equals(f.actions()) && fm.cookie() == f.switchCookie();
    }

    private static boolean isDelete(Object m, StaticFlow f) {
        return m instanceof OFFlowMod fm && fm.command() == OFFlowMod.Command.DELETE_STRICT
                && fm.match().equals(f.match()) && fm.priority() == f.priority();
    }

    private static long adds(FakeSwitch fake) {
        return fake.received().stream()
                .filter(m -> m instanceof OFFlowMod fm && fm.command() == OFFlowMod.Command.ADD).count();
    }

    private static OFFlowRemoved removed(StaticFlow f, OFFlowRemoved.Reason reason) {
        return new OFFlowRemoved(0, f.match(), f.switchCookie(), f.priority(), reason, 1, 0, 0, 0, 0);
    }

    /**
     * A static flow that another application's cleanup deletes (routing's when a link goes, the device manager's when
     * a host moves: OpenFlow 1.0 deletes by match, whoever owns the flow) is written again; one that timed out is not;
     * one that keeps being deleted is given up after a few tries.
     */
    @Test
    void aStaticFlowDeletedBySomethingElseIsWrittenAgain() {
        try (var fx = ControllerFixture.start()) {
            var c = fx.connectActive(1);
            // The connection's own reconciliation over first: one still running when the pusher comes would ask it
            // for its flows as well, and the flow added below would reach the switch twice.
            fx.awaitReconciliations(1);
            var pusher = fx.addFlowReconciler(new StaticFlowPusher(fx.controller, new FlowFile(dir.resolve("flows.txt")),
                    null));
            fx.controller.addOFMessageListener(OFType.FLOW_REMOVED, pusher);
            c.fake().expect(OFType.FLOW_MOD, m -> ((OFFlowMod) m).command() == OFFlowMod.Command.DELETE, WAIT);
            var f = flow("f", 1, "in_port=1", "output:2", 100);
            assertTrue(pusher.add(f));
            var first = c.fake().<OFFlowMod>expect(OFType.FLOW_MOD, m -> isAdd(m, f), WAIT);
            assertEquals(OFFlowMod.FLAG_SEND_FLOW_REM, first.flags() & OFFlowMod.FLAG_SEND_FLOW_REM,
                    "the switch tells when it goes");

            c.fake().send(removed(f, OFFlowRemoved.Reason.DELETE));
            c.fake().expect(OFType.FLOW_MOD, m -> isAdd(m, f), WAIT);

            c.fake().send(removed(f, OFFlowRemoved.Reason.IDLE_TIMEOUT));
            c.sw().barrier(WAIT).join();
            c.fake().expectNone(OFType.FLOW_MOD, Duration.ofMillis(200));

            // Deleted again and again: written again up to LIMIT times in all, then left off.
            for (int i = 0; i < Restores.LIMIT + 2; i++) {
                c.fake().send(removed(f, OFFlowRemoved.Reason.DELETE));
            }
            c.sw().barrier(WAIT).join();
            for (int i = 1; i < Restores.LIMIT; i++) {
                c.fake().expect(OFType.FLOW_MOD, m -> isAdd(m, f), WAIT);
            }
            c.fake().expectNone(OFType.FLOW_MOD, Duration.ofMillis(200));

            // Deleted by the pusher itself: gone for good.
            var other = flow("other", 1, "in_port=3", "output:2", 100);
            assertTrue(pusher.add(other));
            c.fake().expect(OFType.FLOW_MOD, m -> isAdd(m, other), WAIT);
            pusher.remove("other");
            c.fake().expect(OFType.FLOW_MOD, m -> isDelete(m, other), WAIT);
            c.fake().send(removed(other, OFFlowRemoved.Reason.DELETE));
            c.sw().barrier(WAIT).join();
            c.fake().expectNone(OFType.FLOW_MOD, Duration.ofMillis(200));
        }
    }

    @Test
    void addedFlowsGoToTheirSwitchNowAndAgainOnEveryConnection() {
        try (var fx = ControllerFixture.start()) {
            var c = fx.connectActive(1);
            var pusher = fx.addFlowReconciler(new StaticFlowPusher(fx.controller, new FlowFile(dir.resolve("flows.txt")),
                    null));
            var f1 = flow("f1", 1, "in_port=1,dl_type=0x800,nw_dst=10.0.0.2", "output:2", 100);
            var f2 = flow("f2", 2, "in_port=2", "drop", 200);
            assertTrue(pusher.add(f1));
            assertFalse(pusher.add(f2), "switch 2 is not connected yet");
            c.fake().expect(OFType.FLOW_MOD, m -> isAdd(m, f1), WAIT);

            var s2 = fx.connectActive(2);
            s2.fake().expect(OFType.FLOW_MOD, m -> isAdd(m, f2), WAIT);

            // Switch 1 reconnects: its flow is written again (after the controller's own start-up messages).
            c.fake().close();
            fx.awaitEvent(Kind.REMOVED, 1);
            var again = fx.connectActive(1);
            again.fake().expect(OFType.FLOW_MOD, m -> isAdd(m, f1), WAIT);
            // A barrier answered means everything written before it has arrived: f1 only, once.
            again.sw().barrier(WAIT).join();
            assertEquals(1, adds(again.fake()));
        }
    }

    @Test
    void replacingRemovingAndClearingTakeFlowsOffTheSwitch() {
        try (var fx = ControllerFixture.start()) {
            var c = fx.connectActive(1);
            var pusher = new StaticFlowPusher(fx.controller, new FlowFile(dir.resolve("flows.txt")), null);
            var old = flow("f", 1, "in_port=1", "output:2", 100);
            pusher.add(old);
            c.fake().expect(OFType.FLOW_MOD, m -> isAdd(m, old), WAIT);
            var replacement = flow("f", 1, "in_port=2", "output:1", 100);
            pusher.add(replacement);
            c.fake().expect(OFType.FLOW_MOD, m -> isDelete(m, old), WAIT);
            c.fake().expect(OFType.FLOW_MOD, m -> isAdd(m, replacement), WAIT);
            assertEquals(List.of(replacement), pusher.getFlows());

            assertEquals(replacement, pusher.remove("f").orElseThrow());
            c.fake().expect(OFType.FLOW_MOD, m -> isDelete(m, replacement), WAIT);
            assertTrue(pusher.remove("f").isEmpty());

            var a = flow("a", 1, "in_port=1", "output:2", 1);
            var b = flow("b", 7, "in_port=1", "output:2", 1);
            pusher.add(a);
            pusher.add(b);
            assertEquals(1, pusher.clear(1));
            c.fake().expect(OFType.FLOW_MOD, m -> isDelete(m, a), WAIT);
            assertEquals(List.of(b), pusher.getFlows());
            assertEquals(1, pusher.clearAll());
            assertTrue(pusher.getFlows().isEmpty());
        }
    }

    @Test
    void flowsSurviveARestartInTheFileAndInactiveOnesStayOffTheSwitch() throws IOException {
        var path = dir.resolve("flows.txt");
        var kept = new StaticFlow("web server\u00e9", 0xfedcba9876543210L,
                OFMatch.parse("dl_vlan=10,dl_type=0x800,nw_proto=6,nw_src=10.1.0.0/16,tp_dst=80"),
                OFActions.parse("mod_vlan_vid:20,output:3,enqueue:4:7"), 65535, 0xffff_ffff_ffffL, 30, 600, true);
        var inactive = new StaticFlow("off", 1, OFMatch.ALL, List.of(), 0, 0, 0, 0, false);
        try (var fx = ControllerFixture.start()) {
            var pusher = new StaticFlowPusher(fx.controller, new FlowFile(path), null);
            pusher.add(kept);
            pusher.add(inactive);
        }
        assertEquals(List.of(kept, inactive), new FlowFile(path).read());
        try (var fx = ControllerFixture.start()) {
            var pusher = fx.addFlowReconciler(new StaticFlowPusher(fx.controller, new FlowFile(path), null));
            assertEquals(List.of(inactive, kept), pusher.getFlows());
            var c = fx.connectActive(1);
            c.sw().barrier(WAIT).join();
            assertEquals(0, adds(c.fake()));
        }
    }

    @Test
    void aDamagedFileStopsStartUpNamingTheSettingAndTheLine() throws IOException {
        var path = dir.resolve("flows.txt");
        Files.writeString(path, "# comment\nf1\t1\t100\t0\t0\t0\ttrue\tin_port=1\toutput:2\nf2\t1\t100\n");
        try (var fx = ControllerFixture.start()) {
            var e = assertThrows(SettingException.class,
                    () -> new StaticFlowPusher(fx.controller, new FlowFile(path), null));
            assertEquals("staticflowpusher.file", e.key());
            assertTrue(e.getMessage().contains("line 3"), e.getMessage());
        }
    }

    @Test
    void anUnwritableFileRefusesTheChangeAndKeepsTheOldFlows() throws IOException {
        var blocker = dir.resolve("not-a-dir");
        Files.writeString(blocker, "");
        try (var fx = ControllerFixture.start()) {
            var pusher = new StaticFlowPusher(fx.controller, new FlowFile(blocker.resolve("flows.txt")),
                    null);
            var e = assertThrows(RuntimeException.class, () -> pusher.add(flow("f", 1, "in_port=1", "drop", 1)));
            assertTrue(e.getMessage().contains("cannot write the static flows"), e.getMessage());
            assertTrue(pusher.getFlows().isEmpty());
        }
    }

    /**
     * Two members of a cluster sharing their flows, each with its own connection to switch 1 (a fake switch per
     * member): one is its SLAVE, two its MASTER. Whoever changes a flow, the master writes it, even when the slave's
     * write through the master is lost; the slave's connection gets none.
     */
    @Test
    void inAClusterEveryMemberKeepsEveryFlowAndTheSwitchsMasterWritesEveryChange() throws IOException {
        var oneFile = dir.resolve("one.txt");
        var twoFile = dir.resolve("two.txt");
        var old = flow("old", 1, "in_port=3", "drop", 5);
        new FlowFile(twoFile).write(List.of(old));
        try (var cluster = new MemorySharedState(); var fx1 = ControllerFixture.start();
                var fx2 = ControllerFixture.start()) {
            var slave = new FixedRole(NiciraRole.SLAVE);
            slave.masterBarrier.complete(null);
            fx1.controller.setRoleArbiter(slave);
            fx2.controller.setRoleArbiter(new FixedRole(NiciraRole.MASTER));
            var s1 = fx1.connect(1).answeringRoles();
            var slaveConnection = fx1.handshake(s1);
            var s2 = fx2.connect(1).answeringRoles();
            fx2.handshake(s2);
            fx2.awaitReconciliations(1);
            var one = fx1.addFlowReconciler(new StaticFlowPusher(fx1.controller, new FlowFile(oneFile), cluster));
            // Two joins with a flow of its own: the cluster takes it, one keeps it too, and two, the master, writes it.
            var two = fx2.addFlowReconciler(new StaticFlowPusher(fx2.controller, new FlowFile(twoFile), cluster));
            s2.expect(OFType.FLOW_MOD, m -> isAdd(m, old), WAIT);
            cluster.settle();
            assertEquals(List.of(old), one.getFlows());

            // Added on the slave: its write through the master is lost, and the master writes it when it hears of it.
            var f1 = flow("f1", 1, "in_port=1", "output:2", 100);
            assertTrue(one.add(f1));
            s2.expect(OFType.FLOW_MOD, m -> isAdd(m, f1), WAIT);
            assertTrue(slave.forwarded.stream().anyMatch(m -> isAdd(m, f1)), "the slave wrote through the master too");
            cluster.settle();
            assertEquals(List.of(f1, old), two.getFlows());
            assertEquals(Set.of(f1, old), Set.copyOf(new FlowFile(twoFile).read()),
                    "kept in the other member's file too");

            // Replaced on the master, then cleared on the slave: the master writes it all, the slave keeps the list.
            var f1b = flow("f1", 1, "in_port=1", "output:3", 100);
            two.add(f1b);
            s2.expect(OFType.FLOW_MOD, m -> isDelete(m, f1), WAIT);
            s2.expect(OFType.FLOW_MOD, m -> isAdd(m, f1b), WAIT);
            cluster.settle();
            assertEquals(2, one.clearAll());
            s2.expect(OFType.FLOW_MOD, m -> isDelete(m, f1b), WAIT);
            s2.expect(OFType.FLOW_MOD, m -> isDelete(m, old), WAIT);
            cluster.settle();
            assertEquals(List.of(), two.getFlows());
            assertEquals(List.of(), new FlowFile(twoFile).read());
            slaveConnection.barrier(WAIT).join();
            s1.expectNone(OFType.FLOW_MOD, Duration.ofMillis(200));
            one.deactivate();
            two.deactivate();
        }
    }

    @Test
    void aMemberJoiningWithAnotherVersionOfAFlowTakesTheClustersAndPutsItOnTheSwitch() throws IOException {
        var theirs = flow("x", 1, "in_port=5", "output:1", 7);
        var mine = flow("x", 1, "in_port=5", "output:2", 7);
        new FlowFile(dir.resolve("one.txt")).write(List.of(theirs));
        new FlowFile(dir.resolve("two.txt")).write(List.of(mine));
        try (var cluster = new MemorySharedState(); var fx1 = ControllerFixture.start();
                var fx2 = ControllerFixture.start()) {
            var s2 = fx2.connectActive(1);
            fx2.awaitReconciliations(1);
            var one = fx1.addFlowReconciler(new StaticFlowPusher(fx1.controller, new FlowFile(dir.resolve("one.txt")),
                    cluster));
            var two = fx2.addFlowReconciler(new StaticFlowPusher(fx2.controller, new FlowFile(dir.resolve("two.txt")),
                    cluster));
            assertEquals(List.of(theirs), two.getFlows());
            assertEquals(List.of(theirs), new FlowFile(dir.resolve("two.txt")).read());
            s2.fake().expect(OFType.FLOW_MOD, m -> isDelete(m, mine), WAIT);
            s2.fake().expect(OFType.FLOW_MOD, m -> isAdd(m, theirs), WAIT);
            one.deactivate();
            two.deactivate();
        }
    }

    @Test
    void aPusherThatStartsWhileItsSwitchIsConnectedWritesItsFlowsOnce() throws IOException {
        var f1 = flow("f1", 1, "in_port=1", "output:2", 100);
        new FlowFile(dir.resolve("flows.txt")).write(List.of(f1));
        try (var fx = ControllerFixture.start()) {
            var c = fx.connectActive(1);
            fx.awaitReconciliations(1); // the switch's connection is over before the pusher starts
            var pusher = fx.addFlowReconciler(new StaticFlowPusher(fx.controller, new FlowFile(dir.resolve("flows.txt")),
                    null));
            c.fake().expect(OFType.FLOW_MOD, m -> isAdd(m, f1), WAIT);
            c.sw().barrier(WAIT).join();
            assertEquals(1, adds(c.fake()), "once");
            pusher.deactivate();
        }
    }

    /** Issue 28, finding 5: refused when made, so no list, file or switch ever holds them. */
    @Test
    void aFlowTooBigForOpenFlowOrNamedLikeACommentCannotBeMade() {
        // 72 bytes of FLOW_MOD and 8 per output action: 8182 fit in 65535 bytes, 8183 do not.
        var fits = new StaticFlow("big", 1, OFMatch.ALL, outputs(8182), 1, 0, 0, 0, true);
        assertEquals(65528, fits.add().length());
        var e = assertThrows(IllegalArgumentException.class,
                () -> new StaticFlow("huge", 1, OFMatch.ALL, outputs(9000), 1, 0, 0, 0, true));
        assertTrue(e.getMessage().contains("65535"), e.getMessage());
        var comment = assertThrows(IllegalArgumentException.class, () -> flow("#x", 1, "*", "drop", 1));
        assertTrue(comment.getMessage().contains("#"), comment.getMessage());
        assertEquals("a#b", flow("a#b", 1, "*", "drop", 1).name());
        var half = assertThrows(IllegalArgumentException.class, () -> flow("\ud800", 1, "*", "drop", 1));
        assertTrue(half.getMessage().contains("Unicode"), half.getMessage());
        assertEquals("\ud83d\ude00", flow("\ud83d\ude00", 1, "*", "drop", 1).name());
    }

    /** CI's fuzzer, 2026-12-07: a 70 KB name was stored here, then refused by the cluster's table with a 500. */
    @Test
    void aFlowOfAnySizeOpenFlowTakesReachesTheOtherMembersAndTheFile() throws IOException {
        var big = new StaticFlow("n".repeat(70_000), 1, OFMatch.ALL, outputs(8182), 1, 0, 0, 0, true);
        try (var cluster = new MemorySharedState(); var fx1 = ControllerFixture.start();
                var fx2 = ControllerFixture.start()) {
            var one = fx1.addFlowReconciler(new StaticFlowPusher(fx1.controller, new FlowFile(dir.resolve("one.txt")),
                    cluster));
            var two = fx2.addFlowReconciler(new StaticFlowPusher(fx2.controller, new FlowFile(dir.resolve("two.txt")),
                    cluster));
            cluster.settle();
            one.add(big);
            cluster.settle();
            assertEquals(List.of(big), two.getFlows());
            assertEquals(List.of(big), new FlowFile(dir.resolve("two.txt")).read());
            one.deactivate();
            two.deactivate();
        }
    }

    private static List<OFAction> outputs(int n) {
        return java.util.Collections.nCopies(n, new OFActionOutput(1, 0));
    }

    /**
     * Reconciliation after a restart: the switch's copy of a wanted flow stays (no second ADD, which would reset its
     * counters), a static flow removed while Beacon was down is deleted, a missing one is written.
     */
    @Test
    void reconciliationKeepsWantedFlowsDeletesRemovedOnesAndWritesMissingOnes() {
        var kept = flow("kept", 1, "in_port=1", "output:2", 100);
        var missing = flow("missing", 1, "in_port=2", "output:1", 100);
        var removed = flow("removed", 1, "in_port=3", "output:1", 100);
        try (var fx = ControllerFixture.start("controller.preExistingFlows=RECONCILE")) {
            var pusher = fx.addFlowReconciler(new StaticFlowPusher(fx.controller,
                    new FlowFile(dir.resolve("flows.txt")), null));
            pusher.add(kept);
            pusher.add(missing);
            var fake = fx.connect(1, FakeSwitch.port(1, "eth1"), FakeSwitch.port(2, "eth2"));
            fake.flowTable(List.of(entry(kept), entry(removed)));
            var sw = fx.handshake(fake);
            fake.expect(OFType.FLOW_MOD, m -> isAdd(m, missing), WAIT);
            fx.awaitReconciliations(1);
            sw.barrier(WAIT).join();
            assertEquals(1, adds(fake), "only the missing flow is written");
            assertTrue(fake.received().stream().anyMatch(m -> isDelete(m, removed)));
            assertFalse(fake.received().stream().anyMatch(m -> isDelete(m, kept)));
            var stats = fx.controller.getFlowReconciliationStats();
            assertEquals(new FlowReconciliationStats(1, 0, 1, 1, 1, 0, 0), stats);
        }
    }

    /** A flow as the switch reports it: what the pusher wrote, with the static owner's cookie. */
    private static OFFlowStatsEntry entry(StaticFlow f) {
        return new OFFlowStatsEntry(0, f.match(), 12, 0, f.priority(), f.idleTimeout(), f.hardTimeout(),
                f.switchCookie(), 0, 0, f.actions());
    }

    @Test
    void cookiesKeepTheUsersBitsUnderTheOwnersAndRefuseMore() {
        var f = flow("f", 1, "*", "drop", 1);
        assertEquals(0xbe03_0000_0000_0042L, f.switchCookie());
        var legacy = new StaticFlow("l", 1, OFMatch.ALL, List.of(), 0, 0x7374_6174_0000_0000L, 0, 0, true);
        assertEquals(0, legacy.cookie(), "the default cookie of earlier versions");
        var pasted = new StaticFlow("p", 1, OFMatch.ALL, List.of(), 0, 0xbe03_0000_0000_0007L, 0, 0, true);
        assertEquals(7, pasted.cookie(), "a cookie copied from a flow dump");
        var e = assertThrows(IllegalArgumentException.class,
                () -> new StaticFlow("x", 1, OFMatch.ALL, List.of(), 0, 0x0001_0000_0000_0000L, 0, 0, true));
        assertTrue(e.getMessage().contains("48 bits"), e.getMessage());
    }

    @Test
    void namesMustBeText() {
        assertThrows(IllegalArgumentException.class, () -> flow(" ", 1, "*", "drop", 1));
        assertThrows(IllegalArgumentException.class, () -> flow("a\tb", 1, "*", "drop", 1));
        assertThrows(IllegalArgumentException.class, () -> flow("a", 1, "*", "drop", 70000));
    }
}
