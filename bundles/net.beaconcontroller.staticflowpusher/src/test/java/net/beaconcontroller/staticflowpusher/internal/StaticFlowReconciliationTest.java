package net.beaconcontroller.staticflowpusher.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import net.beaconcontroller.core.FlowVerdict;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.Reconcilers;
import net.beaconcontroller.openflow.OFData;
import net.beaconcontroller.openflow.OFError;
import net.beaconcontroller.openflow.OFErrorCode;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFActions;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.staticflowpusher.StaticFlow;

/** The static flow pusher's part in reconciliation when things go wrong or tables are big. */
class StaticFlowReconciliationTest {
    @TempDir
    Path dir;

    private static StaticFlow flow(String name, long dpid, int inPort, int priority) {
        return new StaticFlow(name, dpid, OFMatch.parse("in_port=" + inPort), OFActions.parse("output:2"), priority,
                0x42, 0, 0, true);
    }

    /** A flow as the switch reports it: what the pusher wrote, with the static owner's cookie. */
    private static OFFlowStatsEntry entry(StaticFlow f) {
        return new OFFlowStatsEntry(0, f.match(), 12, 0, f.priority(), f.idleTimeout(), f.hardTimeout(),
                f.switchCookie(), 0, 0, f.actions());
    }

    private static boolean isAdd(Object m, StaticFlow f) {
        return m instanceof OFFlowMod fm && fm.command() == OFFlowMod.Command.ADD && fm.match().equals(f.match())
                && fm.priority() == f.priority() && fm.cookie() == f.switchCookie();
    }

    /**
     * Neither a failing reconciler of another application nor a static flow the switch refuses keeps the other static
     * flows off the switch.
     */
    @Test
    void everyStaticFlowReachesTheSwitchWhateverFailsBesideIt() throws IOException {
        var flows = List.of(flow("a", 1, 1, 100), flow("refused", 1, 2, 100), flow("c", 1, 3, 100));
        new FlowFile(dir.resolve("flows.txt")).write(flows);
        try (var fx = ControllerFixture.start("controller.preExistingFlows=RECONCILE")) {
            fx.addFlowReconciler(Reconcilers.broken()); // another application's
            fx.addFlowReconciler(new StaticFlowPusher(fx.controller, new FlowFile(dir.resolve("flows.txt")), null));
            var fake = fx.connect(1, FakeSwitch.port(1, "eth1"), FakeSwitch.port(2, "eth2"));
            fake.flowTable(List.of(new OFFlowStatsEntry(0, OFMatch.parse("in_port=9"), 1, 0, 5, 0, 0,
                    Reconcilers.BROKEN.cookie(), 0, 0, List.of())));
            fake.answer(OFType.FLOW_MOD, m -> isAdd(m, flows.get(1))
                    ? new OFError(m.xid(), OFErrorCode.BadAction.BAD_OUT_PORT, OFData.of()).toByteArray() : null);
            var sw = fx.handshake(fake);
            for (var f : flows) {
                fake.expect(OFType.FLOW_MOD, m -> isAdd(m, f), WAIT);
            }
            fx.awaitReconciliations(1);
            assertTrue(sw.isConnected());
            assertEquals(3, fx.controller.getFlowReconciliationStats().pushed());
        }
    }

    /** Judging a table and listing what it lacks take time linear in the table, not in its square. */
    @Test
    void aBigTableIsJudgedInLinearTime() throws IOException {
        int n = 20_000;
        var flows = new ArrayList<StaticFlow>();
        for (int i = 0; i < n; i++) {
            flows.add(flow("f" + i, 1, i + 1, 100));
        }
        new FlowFile(dir.resolve("flows.txt")).write(flows);
        var table = new ArrayList<OFFlowStatsEntry>();
        for (int i = 100; i < n; i++) {
            table.add(entry(flows.get(i)));
        }
        for (int i = 0; i < 100; i++) {
            table.add(entry(flow("removed" + i, 1, i + 1, 101)));
        }
        try (var fx = ControllerFixture.start()) {
            var pusher = new StaticFlowPusher(fx.controller, new FlowFile(dir.resolve("flows.txt")), null);
            var sw = switchOne();
            // Quadratic, this is 400 million comparisons (and 20,000 sorted copies of the flows): minutes.
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                long stale = table.stream().filter(e -> pusher.judge(sw, e) == FlowVerdict.STALE).count();
                assertEquals(100, stale);
                var missing = pusher.missing(sw, table.subList(0, n - 100));
                assertEquals(Set.copyOf(flows.subList(0, 100).stream().map(StaticFlow::add).toList()),
                        Set.copyOf(missing));
            });
        }
    }

    /**
     * A flow written with fields the switch ignores (a file's {@code nw_src} without {@code dl_type}, a priority for
     * untagged frames) comes back from the switch without them: it is the same flow, kept, and not written again.
     */
    @Test
    void aFlowTheSwitchNormalizedIsStillItsFlow() throws IOException {
        var written = List.of(
                new StaticFlow("no-type", 1, OFMatch.parse("in_port=1,nw_src=10.0.0.1"), OFActions.parse("output:2"),
                        100, 0x42, 0, 0, true),
                new StaticFlow("untagged", 1, OFMatch.parse("dl_vlan=0xffff,dl_vlan_pcp=3"),
                        OFActions.parse("output:2"), 100, 0x42, 0, 0, true));
        new FlowFile(dir.resolve("flows.txt")).write(written);
        var onSwitch = List.of(
                entryWith(written.get(0), OFMatch.parse("in_port=1")),
                entryWith(written.get(1), OFMatch.parse("dl_vlan=0xffff")));
        try (var fx = ControllerFixture.start()) {
            var pusher = new StaticFlowPusher(fx.controller, new FlowFile(dir.resolve("flows.txt")), null);
            var sw = switchOne();
            for (var e : onSwitch) {
                assertEquals(FlowVerdict.WANTED, pusher.judge(sw, e), e.match().toString());
            }
            assertEquals(List.of(), pusher.missing(sw, onSwitch));
        }
    }

    private static OFFlowStatsEntry entryWith(StaticFlow f, OFMatch asReported) {
        return new OFFlowStatsEntry(0, asReported, 12, 0, f.priority(), f.idleTimeout(), f.hardTimeout(),
                f.switchCookie(), 0, 0, f.actions());
    }

    private static IOFSwitch switchOne() {
        return (IOFSwitch) Proxy.newProxyInstance(IOFSwitch.class.getClassLoader(), new Class<?>[] {IOFSwitch.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getId" -> 1L;
                    case "getStringId" -> "00:00:00:00:00:00:00:01";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
