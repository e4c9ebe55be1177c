package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IRoleArbiter;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
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
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.statistics.OFFlowStatsRequest;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/** Switch roles chosen by an {@link IRoleArbiter}: what the controller does for a SLAVE and for a MASTER. */
class RoleTest {
    private static final Duration QUIET = Duration.ofMillis(300);

    /** Gives every switch one role, records what it is asked to forward, and lets every message through. */
    private static final class FixedRole implements IRoleArbiter {
        final NiciraRole role;
        final List<OFMessage> forwarded = new CopyOnWriteArrayList<>();
        /** Completes when the test says the master's barrier has. */
        final CompletableFuture<Void> masterBarrier = new CompletableFuture<>();

        FixedRole(NiciraRole role) {
            this.role = role;
        }

        @Override
        public CompletionStage<NiciraRole> initialRole(IOFSwitch sw) {
            return CompletableFuture.completedFuture(role);
        }

        @Override
        public boolean handles(IOFSwitch sw, OFMessage msg) {
            return true;
        }

        @Override
        public void writeThroughMaster(IOFSwitch sw, OFMessage msg) {
            forwarded.add(msg);
        }

        @Override
        public CompletionStage<Void> barrierThroughMaster(IOFSwitch sw, Duration timeout) {
            forwarded.add(new OFBarrierRequest(0));
            return masterBarrier;
        }
    }

    private static FakeSwitch answeringRoles(FakeSwitch fake) {
        return fake.answer(OFType.VENDOR, m -> new NiciraRoleReply(m.xid(), ((NiciraRoleRequest) m).role()).toByteArray());
    }

    @Test
    void aSlaveKeepsTheSwitchFlowsDropsItsPacketInsAndForwardsItsWrites() {
        try (var fx = ControllerFixture.start("controller.preExistingFlows=DELETE")) {
            var arbiter = new FixedRole(NiciraRole.SLAVE);
            fx.controller.setRoleArbiter(arbiter);
            var listener = new RecordingListener("recorder");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, listener);
            var fake = answeringRoles(fx.connect(1));
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
            var fake = answeringRoles(fx.connect(3));
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
            var fake = answeringRoles(fx.connect(2));
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
            var fake = answeringRoles(fx.connect(5));
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
