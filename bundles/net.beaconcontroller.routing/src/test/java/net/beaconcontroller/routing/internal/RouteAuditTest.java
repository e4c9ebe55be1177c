package net.beaconcontroller.routing.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.FlowVerdict;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPhysicalPort;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.routing.Hop;
import net.beaconcontroller.routing.IRoutingEngine;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/** Routing's verdicts at reconciliation: stale only on evidence that learning more cannot change. */
class RouteAuditTest {
    private static final long S1 = 1;
    private static final long S2 = 2;
    private static final long HOST = 0x0000_0000_0002L;
    private static final String TO_HOST = "in_port=1,dl_dst=00:00:00:00:00:02,dl_vlan=0xffff";

    private static OFPhysicalPort port(int n, boolean down) {
        return new OFPhysicalPort(n, n, "eth" + n, 0, down ? OFPhysicalPort.STATE_LINK_DOWN : 0, 0, 0, 0, 0);
    }

    /** Switch 1 with ports 1..3, port 3 without link. */
    private static IOFSwitch switch1() {
        var ports = Map.of(1, port(1, false), 2, port(2, false), 3, port(3, true));
        return (IOFSwitch) Proxy.newProxyInstance(RouteAuditTest.class.getClassLoader(), new Class<?>[] {IOFSwitch.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getId" -> S1;
                    case "getPort" -> ports.get((Integer) args[0]);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** Knows the host at {@code at}, or no host when it is null. */
    private static IDeviceManager devices(SwitchPort at) {
        var host = at == null ? null
                : new Device(HOST, Device.NO_VLAN, Set.of(), at, Instant.EPOCH, Instant.EPOCH);
        return (IDeviceManager) Proxy.newProxyInstance(RouteAuditTest.class.getClassLoader(),
                new Class<?>[] {IDeviceManager.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getDevice" -> Optional.ofNullable((Long) args[0] == HOST ? host : null);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** Paths from switch 1 to switch 2 leave by {@code port}. */
    private static IRoutingEngine engine(int port) {
        return new IRoutingEngine() {
            @Override
            public List<Hop> getRoute(SwitchPort src, SwitchPort dst) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Optional<List<Link>> getPath(long src, long dst) {
                return Optional.of(List.of(new Link(new SwitchPort(src, port), new SwitchPort(dst, 9))));
            }
        };
    }

    private static OFFlowStatsEntry flow(String match, int outPort) {
        return new OFFlowStatsEntry(0, OFMatch.parse(match), 3, 0, 0x8000, 5, 0, RouteFlows.COOKIE, 1, 1,
                List.of(new OFActionOutput(outPort, 0)));
    }

    /** Routing's judgement once discovery has probed every port: port 2 of switch 1 has a link, the others none. */
    private static FlowVerdict judge(IOFSwitch sw, OFFlowStatsEntry flow, IDeviceManager devices,
            IRoutingEngine engine) {
        return RouteAudit.judge(sw, flow, devices, engine, at -> !at.equals(new SwitchPort(S1, 2)));
    }

    @Test
    void whatIsNotLearntYetIsKept() {
        assertEquals(FlowVerdict.UNSURE, judge(switch1(), flow(TO_HOST, 2), devices(null), null));
        var elsewhere = devices(new SwitchPort(S2, 1));
        assertEquals(FlowVerdict.UNSURE, judge(switch1(), flow(TO_HOST, 2), elsewhere, null), "no engine");
        // A path through a topology still being discovered is no proof against a flow.
        assertEquals(FlowVerdict.UNSURE, RouteAudit.judge(switch1(), flow(TO_HOST, 1), elsewhere, engine(2),
                at -> false));
    }

    @Test
    void flowsAlongTheKnownPathAreWanted() {
        assertEquals(FlowVerdict.WANTED,
                judge(switch1(), flow(TO_HOST, 2), devices(new SwitchPort(S2, 1)), engine(2)));
        assertEquals(FlowVerdict.WANTED,
                judge(switch1(), flow(TO_HOST, 2), devices(new SwitchPort(S1, 2)), null));
    }

    @Test
    void aFlowIntoADeadPortOrPastAHostOnThisSwitchIsStale() {
        assertEquals(FlowVerdict.STALE, judge(switch1(), flow(TO_HOST, 3), devices(null), null),
                "port without link");
        assertEquals(FlowVerdict.STALE, judge(switch1(), flow(TO_HOST, 7), devices(null), null),
                "port gone");
        assertEquals(FlowVerdict.STALE,
                judge(switch1(), flow(TO_HOST, 2), devices(new SwitchPort(S1, 1)), null), "host moved");
    }

    @Test
    void aHostLearntAtAPortDiscoveryHasNotProbedYetProvesNothing() {
        // After a restart the host's frames came in over a cable to switch 2 that discovery has not found yet.
        var atCable = devices(new SwitchPort(S1, 1));
        assertEquals(FlowVerdict.UNSURE, RouteAudit.judge(switch1(), flow(TO_HOST, 2), atCable, null, at -> false));
        assertEquals(FlowVerdict.STALE, RouteAudit.judge(switch1(), flow(TO_HOST, 2), atCable, null, at -> true));
    }

    @Test
    void aFlowIntoAHostPortOfAHostThatIsNowElsewhereIsStale() {
        // The host was at switch 1 port 1 and moved to switch 2 while Beacon was down.
        var moved = devices(new SwitchPort(S2, 1));
        var fromCable = "in_port=2,dl_dst=00:00:00:00:00:02,dl_vlan=0xffff";
        assertEquals(FlowVerdict.STALE, judge(switch1(), flow(fromCable, 1), moved, null));
        assertEquals(FlowVerdict.UNSURE, RouteAudit.judge(switch1(), flow(fromCable, 1), moved, null, at -> false),
                "port 1 not probed yet: it may be a cable towards the host");
    }
}
