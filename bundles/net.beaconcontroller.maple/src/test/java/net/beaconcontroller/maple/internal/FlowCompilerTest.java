package net.beaconcontroller.maple.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.maple.Policy;
import net.beaconcontroller.maple.Route;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.topology.SwitchPort;

class FlowCompilerTest {
    private static final Policy NO_SSH = (p, env) -> p.tpDstIs(22) ? Route.DROP : Route.FLOOD;

    private static Header tcp(SwitchPort in, long src, long dst, int tpDst) {
        return Header.of(in, src, dst, Field.VLAN_NONE, 0, Field.ETH_IPV4, 0, 6, 1, 2, 1000, tpDst);
    }

    private static MapleEngine engine(Policy policy, FakeNetwork net, int max) {
        var engine = new MapleEngine(policy, net, 10, max);
        net.switches.forEach(engine::switchAdded);
        return engine;
    }

    @Test
    void aTestGetsABarrierUntilItsTrueBranchIsKnown() {
        var engine = engine(NO_SSH, FakeNetwork.oneSwitch(2), 1000);
        var in = new SwitchPort(1, 1);
        List<FlowChange> first = engine.decide(tcp(in, 1, 2, 80)).changes();
        assertEquals(2, first.size(), first.toString());
        Rule barrier = first.get(0).rule();
        Rule flood = first.get(1).rule();
        assertEquals(FlowChange.Kind.ADD, first.get(0).kind());
        assertEquals(Actions.TO_CONTROLLER, barrier.actions(), "the barrier goes in first");
        assertEquals(OFMatch.parse("tcp,tp_dst=22"), barrier.match());
        assertEquals(OFMatch.parse("tcp"), flood.match(), "the false branch matches no tp_dst");
        assertEquals(List.of(OFActionOutput.to(OFPort.FLOOD)), flood.actions());
        assertTrue(barrier.priority() > flood.priority());

        List<FlowChange> second = engine.decide(tcp(in, 1, 2, 22)).changes();
        assertEquals(2, second.size(), second.toString());
        assertEquals(FlowChange.Kind.ADD, second.get(0).kind());
        Rule drop = second.get(0).rule();
        assertEquals(OFMatch.parse("tcp,tp_dst=22"), drop.match());
        assertEquals(List.of(), drop.actions());
        assertTrue(drop.priority() > barrier.priority());
        assertEquals(new FlowChange(FlowChange.Kind.DELETE, barrier), second.get(1),
                "a complete true branch makes the barrier useless; it goes after the rule that replaces it");
        assertEquals(2, engine.tables().get(1L).size());
    }

    private static FakeNetwork line() {
        var net = new FakeNetwork();
        for (long s = 1; s <= 3; s++) {
            net.switches.add(s);
        }
        net.cable(1, 1, 2, 2);
        net.cable(2, 1, 3, 2);
        net.hosts.put(0xaL, new SwitchPort(1, 3));
        net.hosts.put(0xbL, new SwitchPort(3, 3));
        return net;
    }

    @Test
    void aRouteIsInstalledFromItsLastHopAndRemovedFromItsFirst() {
        var net = line();
        var engine = engine(TestPolicies::l2, net, 1000);
        var decision = engine.decide(tcp(new SwitchPort(1, 3), 0xa, 0xb, 80));
        assertEquals(List.of(3L, 2L, 1L), decision.changes().stream().map(c -> c.rule().dpid()).toList());
        decision.changes().forEach(c -> {
            assertEquals(FlowChange.Kind.ADD, c.kind());
            assertEquals(OFMatch.parse("dl_src=00:00:00:00:00:0a,dl_dst=00:00:00:00:00:0b"), c.rule().match());
        });
        assertEquals(List.of(OFActionOutput.to(3)), decision.changes().get(0).rule().actions());
        assertEquals(List.of(OFActionOutput.to(1)), decision.changes().get(2).rule().actions());

        assertTrue(engine.decide(tcp(new SwitchPort(1, 3), 0xa, 0xb, 443)).changes().isEmpty(), "a hit");
        List<FlowChange> gone = engine.hostChanged(0xb);
        assertEquals(List.of(1L, 2L, 3L), gone.stream().map(c -> c.rule().dpid()).toList());
        gone.forEach(c -> assertEquals(FlowChange.Kind.DELETE, c.kind()));
        assertTrue(engine.tables().isEmpty());
        assertNull(engine.lookup(tcp(new SwitchPort(1, 3), 0xa, 0xb, 80)));
    }

    @Test
    void rulesThatMovePriorityMoveUnderACover() {
        var net = FakeNetwork.oneSwitch(2);
        // Each true branch first gets one level; its second test needs more, so the layout must be re-spaced.
        Policy ports = (p, env) -> {
            for (int port = 1; port <= 4; port++) {
                if (p.tpDstIs(port)) {
                    return p.tpSrcIs(7) ? Route.DROP : Route.FLOOD;
                }
            }
            return Route.TO_CONTROLLER;
        };
        var engine = engine(ports, net, 10 + 12);
        var in = new SwitchPort(1, 1);
        engine.decide(tcp(in, 1, 2, 5));
        List<FlowChange> moved = null;
        for (int port = 4; port >= 1 && moved == null; port--) {
            List<Rule> before = engine.tables().get(1L);
            List<FlowChange> changes = engine.decide(tcp(in, 1, 2, port)).changes();
            List<Rule> after = engine.tables().get(1L);
            if (before.stream().anyMatch(old -> !after.contains(old) && after.stream().anyMatch(
                    now -> now.match().equals(old.match()) && now.actions().equals(old.actions())))) {
                moved = changes;
            }
        }
        assertTrue(moved != null, "a true branch that grows beyond its one level moves rules");
        FlowChange cover = moved.get(0);
        assertEquals(FlowChange.Kind.ADD, cover.kind());
        assertEquals(Actions.TO_CONTROLLER, cover.rule().actions());
        int highest = moved.stream().mapToInt(c -> c.rule().priority()).max().getAsInt();
        assertEquals(highest, cover.rule().priority(), "the cover is above every rule that moves");
        assertEquals(new FlowChange(FlowChange.Kind.DELETE, cover.rule()), moved.get(moved.size() - 1));
        assertTrue(engine.tables().get(1L).stream().noneMatch(r -> r.equals(cover.rule())));
    }

    @Test
    void aTreeTooDeepForTheBandIsRefusedAndLeftAsItWas() {
        var engine = engine(NO_SSH, FakeNetwork.oneSwitch(2), 10);
        var in = new SwitchPort(1, 1);
        assertThrows(Priorities.ExhaustedException.class, () -> engine.decide(tcp(in, 1, 2, 80)));
        assertNull(engine.lookup(tcp(in, 1, 2, 80)));
        assertTrue(engine.tables().isEmpty());
        assertEquals(0, engine.leafCount());
        Policy flat = (p, env) -> Route.FLOOD;
        engine.replacePolicy(flat);
        assertEquals(1, engine.decide(tcp(in, 1, 2, 80)).changes().size());
    }

    @Test
    void aSwitchThatConnectsLaterGetsTheRulesOfWhatIsKnown() {
        var net = FakeNetwork.oneSwitch(2);
        var engine = engine(NO_SSH, net, 1000);
        var in = new SwitchPort(1, 1);
        engine.decide(tcp(in, 1, 2, 80));
        engine.decide(tcp(in, 1, 2, 22));
        List<FlowChange> joined = engine.switchAdded(9);
        assertEquals(2, joined.size());
        var tables = engine.tables();
        assertEquals(tables.get(1L).stream().map(r -> r.match()).toList(),
                tables.get(9L).stream().map(r -> r.match()).toList());
        engine.switchRemoved(9);
        assertNull(engine.tables().get(9L));
    }

    @Test
    void anIngressTestBecomesInPortOnlyAtTheIngressSwitch() {
        var net = line();
        var watched = new SwitchPort(1, 3);
        var engine = engine(TestPolicies.blockIngress(watched), net, 1000);
        List<FlowChange> changes = engine.decide(tcp(watched, 0xa, 0xb, 80)).changes();
        assertEquals(1, changes.size(), "a drop at the ingress switch only: " + changes);
        Rule drop = changes.get(0).rule();
        assertEquals(1L, drop.dpid());
        assertEquals(OFMatch.parse("in_port=3"), drop.match());
        assertEquals(List.of(), drop.actions());
    }
}
