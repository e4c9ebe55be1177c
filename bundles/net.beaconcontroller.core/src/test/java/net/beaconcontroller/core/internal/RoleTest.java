package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.FlowVerdict;
import net.beaconcontroller.core.IFlowReconciler;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IRoleArbiter;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.FixedRole;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.openflow.NiciraRoleReply;
import net.beaconcontroller.openflow.NiciraRoleRequest;
import net.beaconcontroller.openflow.OFBarrierRequest;
import net.beaconcontroller.openflow.OFData;
import net.beaconcontroller.openflow.OFError;
import net.beaconcontroller.openflow.OFErrorCode;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.openflow.statistics.OFFlowStatsRequest;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/** Switch roles chosen by an {@link IRoleArbiter}: what the controller does for a SLAVE and for a MASTER. */
class RoleTest {
    private static final Duration QUIET = Duration.ofMillis(300);

    @Test
    void aSlaveKeepsTheSwitchFlowsDropsItsPacketInsAndForwardsItsWrites() {
        try (var fx = ControllerFixture.start("controller.preExistingFlows=DELETE")) {
            var arbiter = new FixedRole(NiciraRole.SLAVE);
            fx.controller.setRoleArbiter(arbiter);
            var listener = new RecordingListener("recorder");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, listener);
            var fake = fx.connect(1).answeringRoles();
            var sw = fx.handshake(fake);
            NiciraRoleRequest request = fake.expect(OFType.VENDOR, WAIT);
            assertEquals(NiciraRole.SLAVE, request.role());
            assertEquals(NiciraRole.SLAVE, sw.getRole());
            fake.expectNone(OFType.FLOW_MOD, QUIET);

            fake.send(fake.packetIn(1, FakeSwitch.frame(64, 1)));
            listener.expectNone(QUIET);

            var flow = OFFlowMod.builder().xid(sw.nextXid()).match(OFMatch.ALL).build();
            sw.write(flow);
            sw.flush();
            fake.expectNone(OFType.FLOW_MOD, QUIET);
            assertEquals(List.of(flow), arbiter.forwarded);

            // A barrier answers once the master's barrier, behind the forwarded writes, has too.
            var barrier = sw.barrier(WAIT);
            fake.expect(OFType.BARRIER_REQUEST, WAIT);
            sleep(QUIET);
            assertFalse(barrier.isDone(), "answered before the master's barrier");
            assertTrue(arbiter.forwarded.get(1) instanceof OFBarrierRequest);
            arbiter.masterBarrier.complete(null);
            barrier.orTimeout(WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS).join();
        }
    }

    /**
     * Issue 23: a slave made master (fail-over, migration) reads the switch's flow table and reconciles it, as at a
     * connection, and never wipes it; a slave's connection reads nothing.
     */
    @Test
    void aSlaveMadeMasterReconcilesTheFlowTableAndNeverWipesIt() {
        try (var fx = ControllerFixture.start("controller.preExistingFlows=RECONCILE")) {
            fx.controller.setRoleArbiter(new FixedRole(NiciraRole.SLAVE));
            var fake = fx.connect(3).answeringRoles();
            var sw = fx.handshake(fake);
            fake.expect(OFType.VENDOR, WAIT);
            sleep(QUIET);
            assertFalse(fake.received().stream().anyMatch(RoleTest::isFlowTableRequest), "a slave reads no flows");
            assertEquals(NiciraRole.MASTER, sw.setRole(NiciraRole.MASTER, WAIT).join());
            fake.expect(OFType.STATS_REQUEST, RoleTest::isFlowTableRequest, WAIT);
            fx.awaitReconciliations(1);
            assertEquals(0, fake.count(OFType.FLOW_MOD), "no wipe, nothing stale: " + fake.types());
        }
    }

    /**
     * A member demoted while it judges a switch's flows (fail-over) writes none of its decisions, neither to the switch
     * nor through the new master: they were made from a table that is no longer its to judge.
     */
    @Test
    void aMemberDemotedWhileJudgingWritesNothingNotEvenThroughTheNewMaster() throws Exception {
        var stale = new OFFlowStatsEntry(0, OFMatch.parse("in_port=2"), 30, 0, 200, 0, 0, APP.cookie(2), 5, 500,
                List.of());
        try (var fx = ControllerFixture.start("controller.preExistingFlows=RECONCILE")) {
            var arbiter = new FixedRole(NiciraRole.MASTER);
            fx.controller.setRoleArbiter(arbiter);
            var judging = new CountDownLatch(1);
            var demoted = new CountDownLatch(1);
            fx.addFlowReconciler(new StaleAfter(judging, demoted));
            var fake = fx.connect(6).answeringRoles();
            fake.flowTable(List.of(stale));
            var sw = fx.handshake(fake);
            assertTrue(judging.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            assertEquals(NiciraRole.SLAVE, sw.setRole(NiciraRole.SLAVE, WAIT).join());
            demoted.countDown();
            awaitEnded(fx, 1);
            assertEquals(List.of(), arbiter.forwarded, "nothing written through the master");
            fake.expectNone(OFType.FLOW_MOD, QUIET);
        }
    }

    /** With reconcileFallback=DELETE, an old master whose table read timed out after its demotion wipes nothing. */
    @Test
    void aDemotedMemberWhoseTableReadTimesOutNeverWipesTheSwitch() {
        try (var fx = ControllerFixture.start("controller.preExistingFlows=RECONCILE", "controller.reconcileTimeout=1",
                "controller.reconcileFallback=DELETE")) {
            var arbiter = new FixedRole(NiciraRole.MASTER);
            fx.controller.setRoleArbiter(arbiter);
            var fake = fx.connect(7).answeringRoles();
            fake.answer(OFType.STATS_REQUEST, m -> isFlowTableRequest(m) ? null
                    : new OFStatsReply(m.xid(), 0, FakeSwitch.DESCRIPTION).toByteArray());
            var sw = fx.handshake(fake);
            fake.expect(OFType.STATS_REQUEST, RoleTest::isFlowTableRequest, WAIT);
            assertEquals(NiciraRole.SLAVE, sw.setRole(NiciraRole.SLAVE, WAIT).join());
            awaitEnded(fx, 1);
            assertEquals(List.of(), arbiter.forwarded, "no wipe through the master");
            fake.expectNone(OFType.FLOW_MOD, QUIET);
            assertEquals(0, fx.controller.getFlowReconciliationStats().runs());
        }
    }

    private static final FlowOwner APP = new FlowOwner(0x80, "testapp");

    /** Calls every flow stale, once the test has demoted the switch's member. */
    private record StaleAfter(CountDownLatch judging, CountDownLatch demoted) implements IFlowReconciler {
        @Override
        public FlowOwner owner() {
            return APP;
        }

        @Override
        public FlowVerdict judge(IOFSwitch sw, OFFlowStatsEntry flow) {
            judging.countDown();
            try {
                demoted.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return FlowVerdict.STALE;
        }

        @Override
        public List<OFFlowMod> missing(IOFSwitch sw, List<OFFlowStatsEntry> present) {
            return List.of(OFFlowMod.builder().match(OFMatch.parse("in_port=9")).cookie(APP.cookie(9)).build());
        }
    }

    private static void awaitEnded(ControllerFixture fx, long n) {
        ControllerFixture.awaitTrue(n + " reconciliation(s) over", WAIT, () -> fx.controller.reconciliationsEnded() >= n);
    }

    private static boolean isFlowTableRequest(OFMessage m) {
        return m instanceof OFStatsRequest r && r.body() instanceof OFFlowStatsRequest;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aMasterDeletesFlowsAndHandlesPacketInsAndARoleChangeTakesEffectWhenGranted() {
        try (var fx = ControllerFixture.start("controller.preExistingFlows=DELETE")) {
            fx.controller.setRoleArbiter(new FixedRole(NiciraRole.MASTER));
            var listener = new RecordingListener("recorder");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, listener);
            var fake = fx.connect(2).answeringRoles();
            var sw = fx.handshake(fake);
            assertEquals(NiciraRole.MASTER, sw.getRole());
            OFFlowMod delete = fake.expect(OFType.FLOW_MOD, WAIT);
            assertEquals(OFFlowMod.Command.DELETE, delete.command());
            fake.send(fake.packetIn(1, FakeSwitch.frame(64, 1)));
            listener.await(WAIT);

            assertEquals(NiciraRole.SLAVE, sw.setRole(NiciraRole.SLAVE, WAIT).join());
            assertEquals(NiciraRole.SLAVE, sw.getRole());
            fake.send(fake.packetIn(1, FakeSwitch.frame(64, 2)));
            listener.expectNone(QUIET);
        }
    }

    /**
     * A master stepping down (a migration's hand-over, the map naming another member): from its SLAVE request on, the
     * switch may already refuse its writes, so they go through the new master until the switch answers.
     */
    @Test
    void aMasterSteppingDownWritesThroughTheNewMasterFromItsRequestOn() {
        try (var fx = ControllerFixture.start()) {
            var arbiter = new FixedRole(NiciraRole.MASTER);
            fx.controller.setRoleArbiter(arbiter);
            var fake = fx.connect(3).answeringRoles();
            var sw = fx.handshake(fake);
            fake.expect(OFType.FLOW_MOD, m -> ((OFFlowMod) m).command() == OFFlowMod.Command.DELETE, WAIT);
            fx.awaitReconciliations(1);
            fake.answer(OFType.VENDOR, null);
            // A request that fails (here: unanswered) leaves the master writing to its switch.
            sw.setRole(NiciraRole.SLAVE, Duration.ofMillis(100));
            fake.expect(OFType.VENDOR, m -> m instanceof NiciraRoleRequest r && r.role() == NiciraRole.SLAVE, WAIT);
            sleep(QUIET);
            var kept = OFFlowMod.builder().xid(sw.nextXid()).match(OFMatch.ALL).priority(7).build();
            sw.write(kept);
            sw.flush();
            fake.expect(OFType.FLOW_MOD, m -> ((OFFlowMod) m).priority() == 7, WAIT);

            var demoted = sw.setRole(NiciraRole.SLAVE, WAIT);
            NiciraRoleRequest request = fake.expect(OFType.VENDOR, m -> m instanceof NiciraRoleRequest r
                    && r.role() == NiciraRole.SLAVE, WAIT);
            assertEquals(NiciraRole.MASTER, sw.getRole(), "not granted yet");
            var flow = OFFlowMod.builder().xid(sw.nextXid()).match(OFMatch.ALL).build();
            sw.write(flow);
            sw.flush();
            fake.expectNone(OFType.FLOW_MOD, QUIET);
            assertEquals(List.of(flow), arbiter.forwarded);
            fake.send(new NiciraRoleReply(request.xid(), NiciraRole.SLAVE));
            assertEquals(NiciraRole.SLAVE, demoted.orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join());
        }
    }

    @Test
    void aSwitchWithoutTheRoleExtensionIsHandledAsOursWhenTheClusterChoseMasterAndDroppedWhenSlave() {
        for (var chosen : List.of(NiciraRole.MASTER, NiciraRole.SLAVE)) {
            try (var fx = ControllerFixture.start()) {
                fx.controller.setRoleArbiter(new FixedRole(chosen));
                var fake = fx.connect(4).answer(OFType.VENDOR, m -> new OFError(m.xid(), OFErrorCode.BadRequest.BAD_VENDOR,
                        OFData.of()).toByteArray());
                if (chosen == NiciraRole.MASTER) {
                    var sw = fx.handshake(fake);
                    assertEquals(NiciraRole.OTHER, sw.getRole());
                    var refused = assertThrows(java.util.concurrent.CompletionException.class,
                            () -> sw.setRole(NiciraRole.SLAVE, WAIT).join());
                    assertTrue(refused.getCause() instanceof UnsupportedOperationException, refused.toString());
                } else {
                    fake.hello();
                    fake.awaitClosed(WAIT);
                }
            }
        }
    }

    @Test
    void switchesConnectedBeforeTheClusterStartsTakeItsRoles() {
        try (var fx = ControllerFixture.start()) {
            var fake = fx.connect(5).answeringRoles();
            var sw = fx.handshake(fake);
            assertEquals(NiciraRole.OTHER, sw.getRole());
            fx.controller.setRoleArbiter(new FixedRole(NiciraRole.SLAVE));
            NiciraRoleRequest request = fake.expect(OFType.VENDOR, WAIT);
            assertEquals(NiciraRole.SLAVE, request.role());
            ControllerFixture.awaitTrue("the role granted", WAIT, () -> sw.getRole() == NiciraRole.SLAVE);
        }
    }

    @Test
    void withoutAnArbiterNoRoleIsRequested() {
        try (var fx = ControllerFixture.start()) {
            var fake = fx.connect(3);
            var sw = fx.handshake(fake);
            assertEquals(NiciraRole.OTHER, sw.getRole());
            assertTrue(fake.received().stream().noneMatch(m -> m.type() == OFType.VENDOR));
        }
    }
}
