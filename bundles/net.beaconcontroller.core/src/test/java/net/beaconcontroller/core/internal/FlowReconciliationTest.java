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
import net.beaconcontroller.core.test.LogCapture;
import net.beaconcontroller.core.test.Reconcilers;
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
    private static class App implements IFlowReconciler {
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
            fx.awaitReconciliations(1);
            sw.barrier(WAIT).join();
            var mods = fake.received().stream().filter(m -> m instanceof OFFlowMod).toList();
            assertEquals(2, mods.size(), "one delete, one push, no wipe: " + mods);
            assertEquals(new FlowReconciliationStats(1, 0, 2, 1, 1, 1, 0), fx.controller.getFlowReconciliationStats());
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
            assertEquals(new FlowReconciliationStats(1, 0, 0, 1, 0, 1, 0), fx.controller.getFlowReconciliationStats());
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

    /**
     * A stale flow's strict delete is built from the dump; if the owner has written the right flow with the same match
     * and priority since the table was requested (routing after a host moved), the delete would take that flow off: it
     * is left out. Other stale flows still go.
     */
    @Test
    void aStaleFlowWrittenAgainSinceTheTableWasReadIsNotDeleted() {
        var rewritten = flow(APP.cookie(2), "in_port=2", 200);
        var stale = flow(APP.cookie(3), "in_port=3", 300);
        var right = OFFlowMod.builder().match(rewritten.match()).priority(rewritten.priority()).cookie(APP.cookie(2))
                .actions(List.of(new OFActionOutput(1, 0))).build();
        try (var fx = ControllerFixture.start(RECONCILE)) {
            fx.addFlowReconciler(Reconcilers.judging(APP, (sw, flow) -> {
                if (flow.equals(rewritten)) {
                    sw.write(right); // as the owner would on its own thread, after the table was requested
                }
                return FlowVerdict.STALE;
            }));
            var fake = fx.connect(1, FakeSwitch.port(1, "eth1"));
            fake.flowTable(List.of(rewritten, stale));
            var sw = fx.handshake(fake);
            fx.awaitReconciliations(1);
            sw.barrier(WAIT).join();
            assertTrue(fake.received().stream().anyMatch(m -> isStrictDelete(m, stale)), "the other stale flow goes");
            assertFalse(fake.received().stream().anyMatch(m -> isStrictDelete(m, rewritten)), "the new flow stays");
            assertTrue(fake.received().contains(right));
            assertEquals(1, fx.controller.getFlowReconciliationStats().deleted());
        }
    }

    /** Issue 23 review: 0xac is the cluster's, inside the range open to outside applications. */
    @Test
    void noReconcilerJudgesTheClustersMarkerFlows() {
        var marker = flow(FlowOwner.CLUSTER.cookie(7), "dl_type=0x88b5", 0xffff);
        try (var fx = ControllerFixture.start(RECONCILE)) {
            fx.addFlowReconciler(new App() {
                @Override
                public FlowOwner owner() {
                    return FlowOwner.CLUSTER; // calls the marker stale
                }
            });
            var fake = fx.connect(1, FakeSwitch.port(1, "eth1"));
            fake.flowTable(List.of(marker));
            var sw = fx.handshake(fake);
            fx.awaitReconciliations(1);
            sw.barrier(WAIT).join();
            assertFalse(fake.received().stream().anyMatch(m -> m instanceof OFFlowMod), "the marker stays");
        }
    }

    /**
     * One failing reconciler costs its own flows only (kept), is logged once per switch naming it and the switch, and
     * the other reconcilers' work and the next switches go on.
     */
    @Test
    void aFailingReconcilerIsLoggedOncePerSwitchAndEverythingElseGoesOn() {
        var broken = List.of(flow(Reconcilers.BROKEN.cookie(1), "in_port=1", 1), flow(Reconcilers.BROKEN.cookie(2), "in_port=2", 2),
                flow(Reconcilers.BROKEN.cookie(3), "in_port=3", 3));
        var stale = flow(APP.cookie(4), "in_port=4", 4);
        var table = new java.util.ArrayList<>(broken);
        table.add(flow(APP.cookie(1), "in_port=1", 100));
        table.add(stale);
        try (var fx = ControllerFixture.start(RECONCILE); var log = LogCapture.of(FlowAudit.class)) {
            fx.addFlowReconciler(Reconcilers.broken());
            fx.addFlowReconciler(new App());
            for (long dpid = 1; dpid <= 2; dpid++) {
                var fake = fx.connect(dpid, FakeSwitch.port(1, "eth1"));
                fake.flowTable(table);
                fx.handshake(fake);
                fake.expect(OFType.FLOW_MOD, m -> isStrictDelete(m, stale), WAIT);
                fake.expect(OFType.FLOW_MOD, m -> m instanceof OFFlowMod fm && fm.cookie() == APP.cookie(9), WAIT);
            }
            fx.awaitReconciliations(2);
            var warnings = log.lines("WARN");
            assertEquals(2, warnings.size(), "once per switch: " + warnings);
            for (var w : warnings) {
                assertTrue(w.message().contains("broken") && w.message().contains("3 of its flows")
                        && w.message().contains("misses"), w.message());
                assertEquals(NoClassDefFoundError.class.getName(), w.thrown());
            }
            assertTrue(warnings.get(0).message().contains("00:00:00:00:00:00:00:01"), warnings.get(0).message());
            assertTrue(warnings.get(1).message().contains("00:00:00:00:00:00:00:02"), warnings.get(1).message());
            assertEquals(8, fx.controller.getFlowReconciliationStats().kept(), "per switch 3 of the broken owner, 1 wanted");
        }
    }

    /** A null among the flows an owner misses keeps none of its other flows off the switch. */
    @Test
    void oneUnusableMissingFlowKeepsNoOtherOffTheSwitch() {
        var first = OFFlowMod.builder().match(OFMatch.parse("in_port=7")).cookie(APP.cookie(7)).build();
        var last = OFFlowMod.builder().match(OFMatch.parse("in_port=8")).cookie(APP.cookie(8)).build();
        try (var fx = ControllerFixture.start(RECONCILE)) {
            fx.addFlowReconciler(new App() {
                @Override
                public List<OFFlowMod> missing(IOFSwitch sw, List<OFFlowStatsEntry> present) {
                    return java.util.Arrays.asList(first, null, last);
                }
            });
            var fake = fx.connect(1, FakeSwitch.port(1, "eth1"));
            var sw = fx.handshake(fake);
            fx.awaitReconciliations(1);
            sw.barrier(WAIT).join();
            assertTrue(fake.received().contains(first) && fake.received().contains(last), fake.types().toString());
            assertEquals(2, fx.controller.getFlowReconciliationStats().pushed());
        }
    }
}
