package net.beaconcontroller.routing.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.FlowVerdict;
import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.packet.Arp;
import net.beaconcontroller.packet.Ethernet;
import net.beaconcontroller.routing.internal.Counters.Event;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;
import net.beaconcontroller.util.MacAddress;

/**
 * Routing against a real controller on loopback and scripted switches: a line 1 - 2 - 3 (cables 1/2-2/1, 2/2-3/1,
 * and a redundant 2/4-3/4 off the spanning tree), host A on 1/3, host B on 3/3.
 */
class RoutingTest extends RoutingTestBase {
    /** The line, routing with {@code settings} and no engine yet. */
    Routing line(String... settings) {
        net.cable(1, 2, 2, 1);
        net.cable(2, 2, 3, 1);
        net.cable(2, 4, 3, 4);
        net.broadcastPorts.put(1L, Set.of(2, 3));
        net.broadcastPorts.put(2L, Set.of(1, 2, 3));
        net.broadcastPorts.put(3L, Set.of(1, 3));
        net.host(A, 1, 3, IP_A);
        net.host(B, 3, 3, IP_B);
        return start(net, settings, 1, 2, 3);
    }

    @Test
    void aKnownDestinationGetsFlowsOnEverySwitchLastHopFirstThenOnePacketOut() {
        line().bindEngine(net.new BfsEngine());
        byte[] f = frame(B, A);
        packetIn(1, 3, f);

        var po = (OFPacketOut) fake(1).expect(OFType.PACKET_OUT, WAIT);
        assertEquals(out(2), po.actions());
        assertEquals(3, po.inPort());
        assertEquals(ByteBuffer.wrap(f), po.data());
        var f3 = added(3);
        var f2 = added(2);
        var f1 = added(1);
        assertEquals(exact(f, 1), f3.match());
        assertEquals(out(3), f3.actions());
        assertEquals(exact(f, 1), f2.match());
        assertEquals(out(2), f2.actions());
        assertEquals(exact(f, 3), f1.match());
        assertEquals(out(2), f1.actions());
        for (var fm : List.of(f1, f2, f3)) {
            assertEquals(RouteFlows.COOKIE, fm.cookie());
            assertEquals(5, fm.idleTimeout());
            assertEquals(0, fm.hardTimeout());
            assertEquals(OFFlowMod.DEFAULT_PRIORITY, fm.priority());
            assertEquals(OFMessage.NO_BUFFER, fm.bufferId());
        }
        // Across switches: each downstream flow was written and sent off before the first hop's flow and packet.
        assertEquals(List.of("3 FLOW_MOD", "3 flush", "2 FLOW_MOD", "2 flush", "1 FLOW_MOD", "1 PACKET_OUT"),
                net.writes);
        // On the first switch: the flow arrived before the packet.
        var types = fake(1).types();
        assertTrue(types.indexOf(OFType.FLOW_MOD) < types.indexOf(OFType.PACKET_OUT), types.toString());
        assertEquals(1, routing.counters().get(Event.ROUTED));
        assertEquals(1, routing.getCounters().routed(), "the counters routing publishes");
    }

    @Test
    void twoHostsOnOneSwitchAreOneHop() {
        line().bindEngine(net.new BfsEngine());
        net.host(0x0c, 1, 4);
        byte[] f = frame(0x0c, A);
        packetIn(1, 3, f);
        assertEquals(out(4), ((OFPacketOut) fake(1).expect(OFType.PACKET_OUT, WAIT)).actions());
        assertEquals(exact(f, 3), added(1).match());
        assertEquals(List.of("1 FLOW_MOD", "1 PACKET_OUT"), net.writes);
    }

    @Test
    void withDstMacTwoHostsBehindOnePortGetNoFlowThatWouldDropOtherTrafficToThem() {
        line("routing.match=DST_MAC").bindEngine(net.new BfsEngine());
        net.host(0x0c, 1, 3);
        packetIn(1, 3, frame(0x0c, A));
        assertEquals(List.of(), net.writes, "the frame already reached its destination");
        packetIn(3, 3, frame(0x0c, B));
        assertEquals(out(3), added(1).actions(), "traffic from elsewhere still reaches it");
    }

    @Test
    void dstMacGranularityMatchesDestinationAndVlanOnly() {
        line("routing.match=DST_MAC", "routing.idleTimeout=7", "routing.hardTimeout=60", "routing.priority=100")
                .bindEngine(net.new BfsEngine());
        packetIn(1, 3, frame(B, A));
        var expected = OFMatch.builder().dlDst(B).dlVlan(OFMatch.VLAN_NONE).build();
        assertEquals(OFMatch.OFPFW_ALL & ~(OFMatch.OFPFW_DL_DST | OFMatch.OFPFW_DL_VLAN), expected.wildcards());
        for (long dpid : List.of(3L, 2L, 1L)) {
            var fm = added(dpid);
            assertEquals(expected, fm.match());
            assertEquals(7, fm.idleTimeout());
            assertEquals(60, fm.hardTimeout());
            assertEquals(100, fm.priority());
        }
    }

    @Test
    void anUnknownDestinationIsFloodedOutOfTheBroadcastPortsButTheInPort() {
        line().bindEngine(net.new BfsEngine());
        packetIn(2, 3, frame(0x0c, 0x0d));
        var po = (OFPacketOut) fake(2).expect(OFType.PACKET_OUT, WAIT);
        assertEquals(outs(1, 2), new HashSet<>(po.actions()));
        assertEquals(2, po.actions().size());

        packetIn(2, 1, frame(MacAddress.BROADCAST, A));
        po = fake(2).expect(OFType.PACKET_OUT, WAIT);
        assertEquals(outs(2, 3), new HashSet<>(po.actions()));
        assertEquals(0, fake(2).count(OFType.FLOW_MOD));
        assertEquals(2, routing.counters().get(Event.FLOODED));
    }

    /** A loop discovery does not know brings a flooded frame back to the switch: it is flooded once, not again. */
    @Test
    void theSameFrameBackAtASwitchMomentsLaterWentRoundALoopAndIsDropped() {
        line().bindEngine(net.new BfsEngine());
        var arp = frame(MacAddress.BROADCAST, A);
        packetIn(2, 3, arp);
        fake(2).expect(OFType.PACKET_OUT, WAIT);
        packetIn(2, 1, arp);
        awaitCount(Event.DROPPED_REPEAT, 1);
        fake(2).expectNone(OFType.PACKET_OUT, Duration.ofMillis(200));
        packetIn(2, 3, frame(MacAddress.BROADCAST, B));
        fake(2).expect(OFType.PACKET_OUT, WAIT);
        assertEquals(2, routing.counters().get(Event.FLOODED));
    }

    /**
     * 1/5 and 3/5 face one unmanaged bridge, which closes a loop with the line; 1/5 carries the domain's broadcasts.
     * What comes in at 3/5 the bridge has delivered through 1/5 too, or to its destination behind it.
     */
    @Test
    void whatComesInFromABroadcastDomainThatTheBridgesDeliverThemselvesIsDropped() {
        line().bindEngine(net.new BfsEngine());
        net.broadcastPorts.put(1L, Set.of(2, 3, 5));
        net.domainPorts.addAll(List.of(new SwitchPort(1, 5), new SwitchPort(3, 5)));
        packetIn(3, 5, frame(MacAddress.BROADCAST, 0x0c));
        awaitCount(Event.DROPPED_LOOP_COPY, 1);
        fake(3).expectNone(OFType.PACKET_OUT, Duration.ofMillis(200));
        // To a host behind the bridge: a route from 3/5 would send it back into the bridge.
        net.host(0x0d, 1, 5);
        packetIn(3, 5, frame(0x0d, 0x0c));
        awaitCount(Event.DROPPED_LOOP_COPY, 2);
        fake(3).expectNone(OFType.PACKET_OUT, Duration.ofMillis(200));
        assertEquals(0, fake(3).count(OFType.FLOW_MOD));
        // The designated port floods.
        packetIn(1, 5, frame(MacAddress.BROADCAST, 0x0c));
        assertEquals(outs(2, 3), new HashSet<>(((OFPacketOut) fake(1).expect(OFType.PACKET_OUT, WAIT)).actions()));
    }

    @Test
    void aBroadcastOnAnInterSwitchPortOffTheSpanningTreeIsALoopCopyAndDropped() {
        line().bindEngine(net.new BfsEngine());
        packetIn(2, 4, frame(MacAddress.BROADCAST, A));
        awaitCount(Event.DROPPED_LOOP_COPY, 1);
        fake(2).expectNone(OFType.PACKET_OUT, Duration.ofMillis(200));
    }

    @Test
    void aKnownDestinationWithoutAnEngineIsFlooded() {
        var e = net.new BfsEngine();
        line().bindEngine(e);
        routing.unbindEngine(e);
        packetIn(1, 3, frame(B, A));
        var po = (OFPacketOut) fake(1).expect(OFType.PACKET_OUT, WAIT);
        assertEquals(out(2), po.actions());
        assertEquals(1, routing.counters().get(Event.NO_ENGINE));
        assertEquals(0, fake(1).count(OFType.FLOW_MOD));

        routing.bindEngine(e);
        packetIn(1, 3, frame(B, A));
        added(3);
    }

    @Test
    void aDestinationInAnotherIslandIsFlooded() {
        line().bindEngine(net.new BfsEngine());
        net.host(0x0e, 9, 1);
        packetIn(1, 3, frame(0x0e, A));
        assertEquals(out(2), ((OFPacketOut) fake(1).expect(OFType.PACKET_OUT, WAIT)).actions());
        assertEquals(1, routing.counters().get(Event.NO_ROUTE));
    }

    @Test
    void anArpRequestForAKnownHostIsAnsweredByTheController() throws Exception {
        line().bindEngine(net.new BfsEngine());
        byte[] request = Ethernet.of(MacAddress.BROADCAST, A, Arp.request(A, IP_A, IP_B)).padded().serialize();
        packetIn(1, 3, request);
        var po = (OFPacketOut) fake(1).expect(OFType.PACKET_OUT, WAIT);
        assertEquals(out(3), po.actions());
        assertEquals(OFPort.NONE, po.inPort());
        var reply = Ethernet.parse(po.data());
        assertEquals(A, reply.destination());
        assertEquals(B, reply.source());
        assertEquals(Arp.reply(B, IP_B, A, IP_A), reply.payload());
        assertEquals(1, routing.counters().get(Event.PROXY_ARP_REPLY));
    }

    @Test
    void anArpRequestIsFloodedWhenProxyArpIsOffOrTheHostUnknown() {
        line("routing.proxyArp=false").bindEngine(net.new BfsEngine());
        packetIn(1, 3, Ethernet.of(MacAddress.BROADCAST, A, Arp.request(A, IP_A, IP_B)).padded().serialize());
        assertEquals(out(2), ((OFPacketOut) fake(1).expect(OFType.PACKET_OUT, WAIT)).actions());
        routing.modified(Configs.of(Routing.Config.class));
        packetIn(1, 3, Ethernet.of(MacAddress.BROADCAST, A, Arp.request(A, IP_A, IP_A + 7)).padded().serialize());
        assertEquals(out(2), ((OFPacketOut) fake(1).expect(OFType.PACKET_OUT, WAIT)).actions());
        assertEquals(0, routing.counters().get(Event.PROXY_ARP_REPLY));
    }

    @Test
    void aLinkGoingDownDeletesTheFlowsForwardingIntoIt() {
        line().bindEngine(net.new BfsEngine());
        routing.linkRemoved(Link.of(2, 2, 3, 1));
        OFFlowMod del = fake(2).expect(OFType.FLOW_MOD, WAIT);
        assertEquals(OFFlowMod.Command.DELETE, del.command());
        assertEquals(OFMatch.ALL, del.match());
        assertEquals(2, del.outPort());
        fake(3).expectNone(OFType.FLOW_MOD, Duration.ofMillis(100));
    }

    /**
     * A packet for B that switch 3 sent back to switch 2 (by a flow kept from before B's move, say): its route from
     * there leaves by the port it came in on. Sent back it would bounce between the two; a flow dropping it would be
     * kept alive by the traffic it drops. It is dropped, and the flows towards B go from every switch, once a second.
     */
    @Test
    void aPacketWhoseRouteLeavesByItsInPortDeletesTheFlowsTowardsItsDestination() {
        line().bindEngine(net.new BfsEngine());
        byte[] f = frame(B, A);
        packetIn(2, 2, f);
        var towardsB = OFMatch.builder().dlDst(B).dlVlan(OFMatch.VLAN_NONE).build();
        for (long dpid = 1; dpid <= 3; dpid++) {
            OFFlowMod del = fake(dpid).expect(OFType.FLOW_MOD, WAIT);
            assertEquals(OFFlowMod.Command.DELETE, del.command());
            assertEquals(towardsB, del.match());
        }
        awaitCount(Event.DROPPED_BOUNCE, 1);
        packetIn(2, 2, f);
        awaitCount(Event.DROPPED_BOUNCE, 2);
        fake(2).expectNone(OFType.FLOW_MOD, Duration.ofMillis(200));
        fake(2).expectNone(OFType.PACKET_OUT, Duration.ofMillis(100));
        assertEquals(0, routing.counters().get(Event.ROUTED));
        assertEquals(2, routing.getCounters().droppedBounce());
    }

    /**
     * After a restart: flows towards a host not known yet are kept, and judged again when the host is learnt. The
     * host moved from switch 2 port 1 to switch 1 port 4 while the controller was away: the flow on switch 2 into its
     * old port goes, the one on switch 1 towards the cable to switch 2 goes too, a flow on a path through the host's
     * new switch stays.
     */
    @Test
    void flowsKeptForAnUnknownHostAreJudgedAgainWhenItIsLearnt() {
        net.cable(1, 2, 2, 2);
        net.cable(2, 3, 3, 2);
        start(net, new String[0], 1, 2, 3);
        var toOldPort = entry(2, "in_port=2,dl_dst=00:00:00:00:00:0b,dl_vlan=0xffff", 1);
        var towardsOld = entry(1, "in_port=1,dl_dst=00:00:00:00:00:0b,dl_vlan=0xffff", 2);
        var throughNew = entry(3, "in_port=1,dl_dst=00:00:00:00:00:0b,dl_vlan=0xffff", 2);
        var judged = List.of(routing.judge(fx.controller.getSwitches().get(2L), toOldPort),
                routing.judge(fx.controller.getSwitches().get(1L), towardsOld),
                routing.judge(fx.controller.getSwitches().get(3L), throughNew));
        assertEquals(List.of(FlowVerdict.UNSURE, FlowVerdict.UNSURE, FlowVerdict.UNSURE), judged, "B is not known yet");

        routing.deviceAdded(net.host(B, 1, 4));
        fake(2).expect(OFType.FLOW_MOD, m -> isStrictDelete(m, toOldPort), WAIT);
        fake(1).expect(OFType.FLOW_MOD, m -> isStrictDelete(m, towardsOld), WAIT);
        fake(3).expectNone(OFType.FLOW_MOD, Duration.ofMillis(200));
        // Judged once: a move then deletes its flows by match (FlowCleanupTest), none of those kept strictly.
        routing.deviceMoved(net.hosts.get(B), net.host(B, 1, 3));
        for (int i = 0; i < 2; i++) {
            assertEquals(OFFlowMod.Command.DELETE, ((OFFlowMod) fake(1).expect(OFType.FLOW_MOD, WAIT)).command());
        }
        fake(1).expectNone(OFType.FLOW_MOD, Duration.ofMillis(200));
    }

    private static OFFlowStatsEntry entry(long dpid, String match, int out) {
        return new OFFlowStatsEntry(0, OFMatch.parse(match), 3, 0, OFFlowMod.DEFAULT_PRIORITY, 5, 0, RouteFlows.COOKIE,
                1, 1, out(out));
    }

    private static boolean isStrictDelete(Object m, OFFlowStatsEntry e) {
        return m instanceof OFFlowMod fm && fm.command() == OFFlowMod.Command.DELETE_STRICT
                && fm.match().equals(e.match()) && fm.priority() == e.priority();
    }
}
