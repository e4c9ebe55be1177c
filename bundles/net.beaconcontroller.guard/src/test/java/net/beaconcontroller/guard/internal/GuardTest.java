package net.beaconcontroller.guard.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.FlowVerdict;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.LogCapture;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.guard.GuardCounters;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.packet.Ethernet;
import net.beaconcontroller.topology.ITopology;

/** The guard in a real controller on loopback with a scripted switch, its clock stopped (no token comes back). */
class GuardTest {
    private static final int LINK_PORT = 9;

    private final AtomicLong clock = new AtomicLong(42);

    /** Port 9 ends an inter-switch link; the guard asks nothing else of the topology. */
    private static ITopology topology() {
        return (ITopology) Proxy.newProxyInstance(ITopology.class.getClassLoader(), new Class<?>[] {ITopology.class},
                (p, m, a) -> switch (m.getName()) {
                    case "isEdgePort" -> (int) a[1] != LINK_PORT;
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }

    /** The guard, a listener after it, and switch 1 connected. */
    private record Rig(Guard guard, RecordingListener after, FakeSwitch fake, IOFSwitch sw) { }

    private Rig rig(ControllerFixture fx, String... settings) {
        var g = new Guard(fx.controller, topology(), Configs.of(Guard.Config.class, settings), clock::get);
        fx.controller.addOFMessageListener(OFType.PACKET_IN, g);
        var after = new RecordingListener("after");
        fx.controller.addOFMessageListener(OFType.PACKET_IN, after);
        var c = fx.connectActive(1);
        return new Rig(g, after, c.fake(), c.sw());
    }

    private static OFPacketIn[] packetIns(FakeSwitch fake, int port, int n) {
        var msgs = new OFPacketIn[n];
        for (int i = 0; i < n; i++) {
            msgs[i] = fake.packetIn(port, FakeSwitch.frame(64, i));
        }
        return msgs;
    }

    private static byte[] lldp() {
        var b = FakeSwitch.frame(64, 1);
        b[12] = (byte) (Ethernet.TYPE_LLDP >> 8);
        b[13] = (byte) Ethernet.TYPE_LLDP;
        return b;
    }

    /** The flows written (the controller's wipe of the table at connection left out). */
    private static List<OFFlowMod> adds(FakeSwitch fake) {
        return fake.received().stream().filter(m -> m instanceof OFFlowMod f && f.command() == OFFlowMod.Command.ADD)
                .map(m -> (OFFlowMod) m).toList();
    }

    private static int received(RecordingListener after, int n) {
        for (int i = 0; i < n; i++) {
            after.await(WAIT);
        }
        after.expectNone(Duration.ofMillis(200));
        return n;
    }

    @Test
    void aPortOverItsBudgetGetsOneDropFlowAndAnLldpFlowAndOneLogLine() {
        try (var fx = ControllerFixture.start(); var log = LogCapture.of(Guard.class)) {
            var r = rig(fx, "guard.portBurst=5", "guard.dropSeconds=3", "guard.priority=7");
            var after = r.after();
            var fake = r.fake();
            fake.send(packetIns(fake, 1, 30));
            received(after, 5);
            fake.expectReceived(OFType.FLOW_MOD, m -> ((OFFlowMod) m).priority() == 7, WAIT);
            var mods = adds(fake);
            assertEquals(2, mods.size(), "one block, however many PACKET_INs followed: " + mods);
            var lldp = mods.get(0);
            var drop = mods.get(1);
            assertEquals(OFMatch.builder().inPort(1).dlType(Ethernet.TYPE_LLDP).build(), lldp.match());
            assertEquals(List.of(new OFActionOutput(OFPort.CONTROLLER, 0xffff)), lldp.actions());
            assertEquals(8, lldp.priority());
            assertEquals(OFMatch.builder().inPort(1).build(), drop.match());
            assertEquals(List.of(), drop.actions());
            assertEquals(7, drop.priority());
            for (var m : mods) {
                assertEquals(FlowOwner.GUARD.cookie(), m.cookie());
                assertEquals(3, m.hardTimeout());
                assertEquals(0, m.idleTimeout());
            }

            // Blocked: its LLDP still goes on, as does another port's traffic.
            fake.send(fake.packetIn(1, lldp()), fake.packetIn(2, FakeSwitch.frame(64, 5)));
            received(after, 2);
            fake.send(packetIns(fake, 1, 10));
            after.expectNone(Duration.ofMillis(200));

            var warn = log.lines("WARN");
            assertEquals(1, warn.size(), warn.toString());
            assertTrue(warn.get(0).message().contains("switch 00:00:00:00:00:00:00:01 port 1:"), warn.toString());
            assertTrue(warn.get(0).message().contains("over its budget of 2000/s"), warn.toString());
        }
    }

    @Test
    void theCountersNameThePortAndTheBudget() {
        try (var fx = ControllerFixture.start()) {
            var r = rig(fx, "guard.portBurst=3", "guard.switchBurst=4");
            var g = r.guard();
            var after = r.after();
            var fake = r.fake();
            fake.send(packetIns(fake, 1, 10));
            received(after, 3);
            fake.send(packetIns(fake, 2, 3));
            received(after, 1);
            ControllerFixture.awaitTrue("counted", WAIT, () -> g.getCounters().dropped() == 9);
            var ports = g.getCounters().ports();
            assertEquals(2, ports.size(), ports.toString());
            assertEquals(new GuardCounters.Port(1, 1, 7, 0, 1, 1), ports.get(0));
            // Port 2 met the empty switch bucket: blocked as the busiest port not blocked yet; its next one arrived
            // blocked.
            assertEquals(new GuardCounters.Port(1, 2, 1, 1, 1, 1), ports.get(1));
        }
    }

    @Test
    void aLinkPortIsNotBlockedAndOffJudgesNothing() {
        try (var fx = ControllerFixture.start()) {
            var r = rig(fx, "guard.portBurst=2");
            r.fake().send(packetIns(r.fake(), LINK_PORT, 20));
            received(r.after(), 20);
            assertEquals(List.of(), adds(r.fake()));
        }
        try (var fx = ControllerFixture.start()) {
            var r = rig(fx, "guard.enabled=false", "guard.portBurst=1");
            r.fake().send(packetIns(r.fake(), 1, 20));
            received(r.after(), 20);
            assertEquals(List.of(), adds(r.fake()));
            assertEquals(0, r.guard().getCounters().dropped());
        }
    }

    @Test
    void aGuardFlowFoundOnASwitchIsKeptToExpireOnItsOwn() {
        try (var fx = ControllerFixture.start()) {
            var r = rig(fx);
            var g = r.guard();
            var drop = new OFFlowStatsEntry(0, OFMatch.builder().inPort(1).build(), 1, 0, 2, 0, 2,
                    FlowOwner.GUARD.cookie(), 0, 0, List.of());
            assertEquals(FlowVerdict.WANTED, g.judge(r.sw(), drop));
            var forever = new OFFlowStatsEntry(0, OFMatch.builder().inPort(1).build(), 1, 0, 2, 0, 0,
                    FlowOwner.GUARD.cookie(), 0, 0, List.of());
            assertEquals(FlowVerdict.STALE, g.judge(r.sw(), forever));
            assertEquals("guard", FlowOwner.describe(FlowOwner.GUARD.cookie()));
        }
    }
}
