package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.FlowVerdict;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.LogCapture;
import net.beaconcontroller.core.test.Reconcilers;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.openflow.statistics.OFDescStatsRequest;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.openflow.statistics.OFFlowStatsReply;
import net.beaconcontroller.openflow.statistics.OFFlowStatsRequest;

/** What bounds reconciliation when many switches, big tables or slow switches come at once. */
class ReconciliationLimitsTest {
    private static final String RECONCILE = "controller.preExistingFlows=RECONCILE";
    private static final FlowOwner APP = new FlowOwner(0x80, "testapp");
    private static final Duration QUIET = Duration.ofMillis(300);

    private static OFFlowStatsEntry flow(int n) {
        return new OFFlowStatsEntry(0, OFMatch.parse("in_port=" + (n % 60_000 + 1)), 30, 0, n % 60_000, 0, 0,
                APP.cookie(n), 5, 500, List.of(new OFActionOutput(2, 0)));
    }

    private static List<OFFlowStatsEntry> flows(int from, int to) {
        var all = new ArrayList<OFFlowStatsEntry>();
        for (int n = from; n < to; n++) {
            all.add(flow(n));
        }
        return all;
    }

    /** The switch answers its description request but leaves its flow table request to the test: its xid. */
    private static CompletableFuture<Integer> withholdTable(FakeSwitch fake) {
        var xid = new CompletableFuture<Integer>();
        fake.answer(OFType.STATS_REQUEST, m -> {
            if (((OFStatsRequest) m).body() instanceof OFDescStatsRequest) {
                return new OFStatsReply(m.xid(), 0, FakeSwitch.DESCRIPTION).toByteArray();
            }
            xid.complete(m.xid());
            return null;
        });
        return xid;
    }

    private static OFStatsReply part(int xid, boolean more, List<OFFlowStatsEntry> entries) {
        return new OFStatsReply(xid, more ? OFStatsReply.FLAG_MORE : 0, new OFFlowStatsReply(entries));
    }

    private static boolean isFlowTableRequest(OFMessage m) {
        return m instanceof OFStatsRequest r && r.body() instanceof OFFlowStatsRequest;
    }

    private static int xid(CompletableFuture<Integer> xid) {
        return xid.orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
    }

    /** A reconnect storm: the switches beyond controller.reconcileInFlight wait before their tables are requested. */
    @Test
    void noMoreSwitchesHaveTheirTablesReadAtOnceThanAllowed() {
        try (var fx = ControllerFixture.start(RECONCILE, "controller.reconcileInFlight=1")) {
            var first = fx.connect(1, FakeSwitch.port(1, "eth1"));
            var firstXid = withholdTable(first);
            fx.handshake(first);
            int xid = xid(firstXid);
            var second = fx.connect(2, FakeSwitch.port(1, "eth1"));
            fx.handshake(second);
            second.expect(OFType.STATS_REQUEST, m -> !isFlowTableRequest(m), WAIT);
            second.expectNone(OFType.STATS_REQUEST, QUIET);

            first.send(part(xid, false, flows(0, 2)));
            second.expect(OFType.STATS_REQUEST, ReconciliationLimitsTest::isFlowTableRequest, WAIT);
            fx.awaitReconciliations(2);
        }
    }

    /** controller.reconcileTimeout bounds the silence before and between the parts, not the whole table. */
    @Test
    void aTableSentSlowlyPartByPartIsReadWhateverItTakesInAll() throws InterruptedException {
        try (var fx = ControllerFixture.start(RECONCILE, "controller.reconcileTimeout=1")) {
            var fake = fx.connect(1, FakeSwitch.port(1, "eth1"));
            var tableXid = withholdTable(fake);
            fx.handshake(fake);
            int xid = xid(tableXid);
            for (int n = 0; n < 4; n++) {
                Thread.sleep(600); // a switch busy with a big table: 2.4 s in all, never 1 s silent
                fake.send(part(xid, n < 3, flows(n, n + 1)));
            }
            fx.awaitReconciliations(1);
            var stats = fx.controller.getFlowReconciliationStats();
            assertEquals(0, stats.timeouts(), stats.toString());
            assertEquals(4, stats.kept(), stats.toString());
        }
    }

    /**
     * A table over controller.reconcileMaxFlows gets the fallback, logged with the switch and the reason; the rest of
     * the reply is dropped unread (no listener sees it) and the switch stays connected.
     */
    @Test
    void aTableLargerThanAllowedGetsTheFallback() {
        try (var fx = ControllerFixture.start(RECONCILE, "controller.reconcileMaxFlows=3",
                "controller.reconcileFallback=DELETE"); var log = LogCapture.of(SwitchReconciliation.class)) {
            var replies = new RecordingListener("stats");
            fx.controller.addOFMessageListener(OFType.STATS_REPLY, replies);
            var fake = fx.connect(1, FakeSwitch.port(1, "eth1"));
            var tableXid = withholdTable(fake);
            var sw = fx.handshake(fake);
            int xid = xid(tableXid);
            fake.send(part(xid, true, flows(0, 2)), part(xid, true, flows(2, 4)), part(xid, false, flows(4, 5)));
            fake.expect(OFType.FLOW_MOD, m -> m instanceof OFFlowMod fm && fm.command() == OFFlowMod.Command.DELETE
                    && fm.match().equals(OFMatch.ALL), WAIT);
            fx.awaitReconciliations(1);
            var stats = fx.controller.getFlowReconciliationStats();
            assertEquals(1, stats.tooLarge(), stats.toString());
            assertEquals(0, stats.timeouts(), stats.toString());
            var warnings = log.lines("WARN");
            assertEquals(1, warnings.size(), warnings.toString());
            var line = warnings.get(0).message();
            assertTrue(line.contains("00:00:00:00:00:00:00:01") && line.contains("more than 3 flows")
                    && line.contains("controller.reconcileMaxFlows"), line);
            replies.expectNone(QUIET);
            assertTrue(sw.isConnected());
        }
    }

    /**
     * Judging a big table takes long; stopping the controller meanwhile ends the reconciliation thread, even with a
     * reconciler that never looks at interrupts.
     */
    @Test
    void stoppingTheControllerEndsAReconciliationInTheMiddleOfABigTable() throws InterruptedException {
        var judging = new CountDownLatch(1);
        try (var fx = ControllerFixture.start(RECONCILE)) {
            fx.addFlowReconciler(Reconcilers.judging(APP, (sw, flow) -> {
                judging.countDown();
                long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1);
                while (System.nanoTime() < until) {
                    Thread.onSpinWait(); // 5000 flows: 5 s of work
                }
                return FlowVerdict.UNSURE;
            }));
            var fake = fx.connect(1, FakeSwitch.port(1, "eth1"));
            var tableXid = withholdTable(fake);
            fx.handshake(fake);
            int xid = xid(tableXid);
            for (int n = 0; n < 5000; n += 500) {
                fake.send(part(xid, n + 500 < 5000, flows(n, n + 500)));
            }
            assertTrue(judging.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            fx.controller.stop();
            // The thread signals its pool's end just before it ends itself: a moment to go.
            ControllerFixture.awaitTrue("the reconciliation thread gone with its controller", Duration.ofSeconds(1),
                    () -> Thread.getAllStackTraces().keySet().stream()
                            .noneMatch(t -> t.getName().equals("beacon-flow-reconciliation")));
        }
    }
}
