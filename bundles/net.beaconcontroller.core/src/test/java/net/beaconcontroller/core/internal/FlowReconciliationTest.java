package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.FlowReconciliationStats;
import net.beaconcontroller.core.FlowVerdict;
import net.beaconcontroller.core.IFlowReconciler;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.openflow.statistics.OFDescStatsRequest;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.openflow.statistics.OFFlowStatsRequest;

/** Reconciliation of a connecting switch's flow table against a scripted switch on a real socket. */
class FlowReconciliationTest {
    /** The product's default; the fixture's is DELETE. */
    private static final String RECONCILE = "controller.preExistingFlows=RECONCILE";
    private static final FlowOwner APP = new FlowOwner(0x80, "testapp");

    private static OFFlowStatsEntry flow(long cookie, String match, int priority) {
        return new OFFlowStatsEntry(0, OFMatch.parse(match), 30, 0, priority, 0, 0, cookie, 5, 500,
                List.of(new OFActionOutput(2, 0)));
    }

    /** Keeps flows on in_port=1, calls everything else stale, and wants one more flow. */
    private static final class App implements IFlowReconciler {
        @Override
        public FlowOwner owner() {
            return APP;
        }

        @Override
        public FlowVerdict judge(IOFSwitch sw, OFFlowStatsEntry flow) {
            return flow.match().inPort() == 1 ? FlowVerdict.WANTED : FlowVerdict.STALE;
        }

        @Override
        public List<OFFlowMod> missing(IOFSwitch sw, List<OFFlowStatsEntry> present) {
            return present.size() == 1 ? List.of(OFFlowMod.builder().match(OFMatch.parse("in_port=9"))
                    .cookie(APP.cookie(9)).build()) : List.of();
        }
    }

    private static boolean isStrictDelete(Object m, OFFlowStatsEntry f) {
        return m instanceof OFFlowMod fm && fm.command() == OFFlowMod.Command.DELETE_STRICT
                && fm.match().equals(f.match()) && fm.priority() == f.priority();
    }

    private static boolean isWipe(Object m) {
        return m instanceof OFFlowMod fm && fm.command() == OFFlowMod.Command.DELETE && fm.match().equals(OFMatch.ALL);
    }

    @Test
    void ownersKeepWhatTheyWantStaleFlowsGoOneByOneAndForeignAndUnownedFlowsStay() {
        var wanted = flow(APP.cookie(1), "in_port=1", 100);
        var stale = flow(APP.cookie(2), "in_port=2", 200);
        var unowned = flow(FlowOwner.ROUTING.cookie(), "dl_dst=00:00:00:00:00:02", 300);
        var foreign = flow(0, "in_port=3", 400);
        try (var fx = ControllerFixture.start(RECONCILE)) {
            fx.addFlowReconciler(new App());
            var fake = fx.connect(1, FakeSwitch.port(1, "eth1"), FakeSwitch.port(2, "eth2"));
            fake.flowTable(List.of(wanted, stale, unowned, foreign));
            var sw = fx.handshake(fake);
            fake.expect(OFType.FLOW_MOD, m -> isStrictDelete(m, stale), WAIT);
            fake.expect(OFType.FLOW_MOD, m -> m instanceof OFFlowMod fm && fm.command() == OFFlowMod.Command.ADD
                    && fm.cookie() == APP.cookie(9), WAIT);
            sw.barrier(WAIT).join();
            var mods = fake.received().stream().filter(m -> m instanceof OFFlowMod).toList();
            assertEquals(2, mods.size(), "one delete, one push, no wipe: " + mods);
            assertEquals(new FlowReconciliationStats(1, 0, 2, 1, 1, 1), fx.controller.getFlowReconciliationStats());
        }
    }

    @Test
    void foreignFlowsAreDeletedOnlyWhenAskedTo() {
        var foreign = flow(0x1234, "in_port=3", 400);
        try (var fx = ControllerFixture.start(RECONCILE, "controller.foreignFlows=DELETE")) {
            var fake = fx.connect(1, FakeSwitch.port(1, "eth1"));
            fake.flowTable(List.of(foreign));
            fx.handshake(fake);
            fake.expect(OFType.FLOW_MOD, m -> isStrictDelete(m, foreign), WAIT);
            fx.awaitReconciliations(1);
            assertEquals(new FlowReconciliationStats(1, 0, 0, 1, 0, 1), fx.controller.getFlowReconciliationStats());
        }
    }

    @Test
    void aSwitchThatDoesNotAnswerGetsTheFallbackAndStaysConnected() {
        try (var fx = ControllerFixture.start(RECONCILE, "controller.reconcileTimeout=1", "controller.reconcileFallback=DELETE")) {
            var fake = fx.connect(1, FakeSwitch.port(1, "eth1"));
            fake.answer(OFType.STATS_REQUEST, m -> m instanceof OFStatsRequest r
                    && r.body() instanceof OFDescStatsRequest
                    ? new OFStatsReply(m.xid(), 0, FakeSwitch.DESCRIPTION).toByteArray()
                    : null);
            var sw = fx.handshake(fake);
            fake.expect(OFType.FLOW_MOD, FlowReconciliationTest::isWipe, Duration.ofSeconds(5));
            fx.awaitReconciliations(1);
            assertEquals(1, fx.controller.getFlowReconciliationStats().timeouts());
            assertTrue(sw.isConnected());
        }
    }

    @Test
    void keepTouchesNothingButStillLetsOwnersWriteWhatTheyMiss() {
        try (var fx = ControllerFixture.start("controller.preExistingFlows=KEEP")) {
            var fake = fx.connect(1, FakeSwitch.port(1, "eth1"));
            fake.flowTable(List.of(flow(APP.cookie(2), "in_port=2", 200)));
            var sw = fx.handshake(fake);
            fx.awaitReconciliations(1);
            sw.barrier(WAIT).join();
            assertFalse(fake.received().stream().anyMatch(m -> m instanceof OFStatsRequest r
                    && r.body() instanceof OFFlowStatsRequest));
            assertFalse(fake.received().stream().anyMatch(m -> m instanceof OFFlowMod));
        }
    }
}
