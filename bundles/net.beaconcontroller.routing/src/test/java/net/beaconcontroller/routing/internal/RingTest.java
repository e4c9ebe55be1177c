package net.beaconcontroller.routing.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.topology.Link;

/**
 * A ring of four switches (cables from port 1 of switch i to port 2 of switch i + 1), host A on 1/3, host C on 2/3.
 * The cable between 1 and 2 going down moves the flow the long way round; when it comes back, the flow takes the
 * direct (shortest) path again.
 */
class RingTest extends RoutingTestBase {
    static final long C = 0x0c;

    final FakeNetwork.BfsEngine engine = net.new BfsEngine();

    void ring() {
        net.cable(1, 1, 2, 2);
        net.cable(2, 1, 3, 2);
        net.cable(3, 1, 4, 2);
        net.cable(4, 1, 1, 2);
        net.host(A, 1, 3);
        net.host(C, 2, 3);
        start(net, new String[0], 1, 2, 3, 4).bindEngine(engine);
    }

    /** Sends a frame from A to C in at 1/3 and checks the flows along {@code path} (dpid, in, out) and the packet. */
    void routedAlong(long[][] path) {
        byte[] f = frame(C, A);
        packetIn(1, 3, f);
        for (int i = path.length - 1; i >= 0; i--) {
            var fm = added(path[i][0]);
            assertEquals(exact(f, (int) path[i][1]), fm.match(), "switch " + path[i][0]);
            assertEquals(out((int) path[i][2]), fm.actions(), "switch " + path[i][0]);
        }
        var po = (OFPacketOut) fake(1).expect(OFType.PACKET_OUT, WAIT);
        assertEquals(out((int) path[0][2]), po.actions());
    }

    void cableChanges(Runnable change, Link... down) {
        var before = engine.allPaths();
        change.run();
        for (var l : down) {
            routing.linkRemoved(l);
        }
        routing.routesChanged(engine, FakeNetwork.changes(before, engine.allPaths()));
    }

    OFFlowMod deleted(long dpid) {
        return fakes.get(dpid).expect(OFType.FLOW_MOD, m -> ((OFFlowMod) m).command() == OFFlowMod.Command.DELETE,
                WAIT);
    }

    @Test
    void aLinkDownOnThePathReroutesTheLongWayAndBackToTheShortestWhenItReturns() {
        ring();
        long[][] direct = {{1, 3, 1}, {2, 2, 3}};
        long[][] around = {{1, 3, 2}, {4, 1, 2}, {3, 1, 2}, {2, 1, 3}};
        routedAlong(direct);

        var down = Link.of(1, 1, 2, 2);
        cableChanges(() -> net.links.removeAll(Set.of(down, down.reverse())), down, down.reverse());
        // Switch 1: what forwarded into the dead link, then its flows towards C, whose route changed.
        assertEquals(1, deleted(1).outPort());
        assertEquals(RouteFlows.destinationMatch(C, Device.NO_VLAN), deleted(1).match());
        // Switch 2: what forwarded into the dead link, then its flows towards A.
        assertEquals(2, deleted(2).outPort());
        assertEquals(RouteFlows.destinationMatch(A, Device.NO_VLAN), deleted(2).match());
        routedAlong(around);

        cableChanges(() -> net.cable(1, 1, 2, 2));
        // The longer path's flows on 1 towards C go; the next frame takes the direct path again.
        assertEquals(RouteFlows.destinationMatch(C, Device.NO_VLAN), deleted(1).match());
        routedAlong(direct);
    }
}
