package net.beaconcontroller.routing.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.test.FixedRole;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.vendor.NiciraRole;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The flows a host leaves behind: switches 1, 2 and 3 (no links unless a test cables them), host B on VLAN 7, moving
 * from 3/3 to 1/4.
 */
class FlowCleanupTest extends RoutingTestBase {
    static final int VLAN = 7;
    static final Device AT_3_3 = at(3, 3);
    static final Device AT_1_4 = at(1, 4);

    static Device at(long dpid, int port) {
        return new Device(B, VLAN, Set.of(), new SwitchPort(dpid, port), Instant.EPOCH, Instant.EPOCH);
    }

    static final OFMatch TOWARDS_B = OFMatch.builder().dlDst(B).dlVlan(VLAN).build();
    static final OFMatch FROM_B = OFMatch.builder().dlSrc(B).dlVlan(VLAN).build();

    void start(String... settings) {
        start(net, settings, 1, 2, 3);
    }

    /** The non-strict DELETEs the switch received, in order, after which nothing more comes. */
    List<OFMatch> deletes(long dpid, int count) {
        var matches = new ArrayList<OFMatch>();
        for (int i = 0; i < count; i++) {
            OFFlowMod fm = fake(dpid).expect(OFType.FLOW_MOD, WAIT);
            assertEquals(OFFlowMod.Command.DELETE, fm.command(), fm::toString);
            assertEquals(OFPort.NONE, fm.outPort(), fm::toString);
            matches.add(fm.match());
        }
        fake(dpid).expectNone(OFType.FLOW_MOD, Duration.ofMillis(100));
        return matches;
    }

    /** What routing wrote to the switch, and its flushes: see {@link FakeNetwork#writes}. */
    List<String> writesTo(long dpid) {
        return net.writes.stream().filter(w -> w.startsWith(dpid + " ")).toList();
    }

    @Test
    void aMoveDeletesTheFlowsTowardsAndFromTheHostOnEverySwitch() {
        start();
        routing.deviceMoved(AT_3_3, AT_1_4);
        for (long dpid = 1; dpid <= 3; dpid++) {
            // From it too: an exact flow from its old port would hide its return there from the controller.
            assertEquals(List.of(TOWARDS_B, FROM_B), deletes(dpid, 2), "switch " + dpid);
            assertEquals(List.of(dpid + " FLOW_MOD", dpid + " FLOW_MOD", dpid + " flush"), writesTo(dpid));
        }
    }

    @Test
    void withDstMacAMoveDeletesTheFlowsTowardsTheHostOnly() {
        start("routing.match=DST_MAC");
        routing.deviceMoved(AT_3_3, AT_1_4);
        for (long dpid = 1; dpid <= 3; dpid++) {
            assertEquals(List.of(TOWARDS_B), deletes(dpid, 1), "switch " + dpid);
        }
    }

    /**
     * Every member is told of the move and deletes on the switches it masters: a write to a switch it is SLAVE of
     * would go through the master, another member, which deletes there itself.
     */
    @Test
    void inAClusterAMoveDeletesOnTheSwitchesThisMemberMastersAndWritesNothingToASlaveSwitch() {
        var roles = new FixedRole(NiciraRole.MASTER);
        arbiter = roles;
        start();
        assertEquals(NiciraRole.SLAVE, fx.controller.getSwitches().get(3L).setRole(NiciraRole.SLAVE, WAIT).join());
        routing.deviceMoved(AT_3_3, AT_1_4);
        for (long dpid = 1; dpid <= 2; dpid++) {
            assertEquals(List.of(TOWARDS_B, FROM_B), deletes(dpid, 2), "switch " + dpid);
        }
        assertEquals(List.of(), writesTo(3));
        assertEquals(List.of(), roles.forwarded, "nothing through the master");
        fake(3).expectNone(OFType.FLOW_MOD, Duration.ofMillis(100));
    }

    @Test
    void aSlaveOfEverySwitchWritesNothingAtAMove() {
        var roles = new FixedRole(NiciraRole.SLAVE);
        arbiter = roles;
        start();
        routing.deviceMoved(AT_3_3, AT_1_4);
        assertEquals(List.of(), net.writes);
        assertEquals(List.of(), roles.forwarded);
    }

    /**
     * A frame that crossed a link before discovery knew it placed the host at the link's end; the device manager
     * forgets it when the link is found, and the flows towards it go, or they would drop its traffic there, kept
     * alive by the very packets they drop. A host that aged out at its edge port leaves flows that still fit.
     */
    @Test
    void aHostForgottenAtAPortThatEndsALinkTakesItsFlowsAlongButOneThatAgedOutDoesNot() {
        start();
        routing.deviceRemoved(AT_1_4);
        fake(1).expectNone(OFType.FLOW_MOD, Duration.ofMillis(100));
        assertEquals(List.of(), net.writes);

        net.cable(1, 4, 2, 4);
        routing.deviceRemoved(AT_1_4);
        for (long dpid = 1; dpid <= 3; dpid++) {
            assertEquals(List.of(TOWARDS_B, FROM_B), deletes(dpid, 2), "switch " + dpid);
        }
    }
}
