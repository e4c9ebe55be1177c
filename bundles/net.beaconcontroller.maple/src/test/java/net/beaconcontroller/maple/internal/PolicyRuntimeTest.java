package net.beaconcontroller.maple.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.FlowVerdict;
import net.beaconcontroller.maple.Policy;
import net.beaconcontroller.maple.Route;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;
import net.beaconcontroller.topology.SwitchPort;

class PolicyRuntimeTest {
    private static final long A = 0x0a;
    private static final long B = 0x0b;
    private static final long C = 0x0c;
    private static final long EPOCH = 7;
    private static final long COOKIE = FlowOwner.MAPLE.cookie(EPOCH);
    /** Drops telnet, routes the rest between known hosts, floods to unknown ones: the example bundle's policy. */
    private static final Policy NO_TELNET = (p, env) -> {
        if (p.isIpv4() && p.nwProtoIs(6) && p.tpDstIs(23)) {
            return Route.DROP;
        }
        var dst = env.hostLocation(p.dlDst());
        if (dst.isEmpty()) {
            return Route.FLOOD;
        }
        var src = env.hostLocation(p.dlSrc());
        return env.route(src.isPresent() ? src.get() : p.inPort(), dst.get()).orElse(Route.DROP);
    };

    private record Sent(long dpid, OFMessage msg) {
    }

    private final List<Sent> sent = new ArrayList<>();
    private final Set<Long> connected = new HashSet<>(Set.of(1L, 2L, 3L));
    /** s1 - s2 - s3 (port 1 to the next switch, port 2 to the previous), A on s1/3, B on s3/3, C on s2/3. */
    private final FakeNetwork net = line();
    private final PolicyRuntime runtime = new PolicyRuntime(NO_TELNET, net, new FakeTopology(net), (dpid, msgs) -> {
        if (!connected.contains(dpid)) {
            return false;
        }
        msgs.forEach(m -> sent.add(new Sent(dpid, m)));
        return true;
    }, EPOCH);

    private static FakeNetwork line() {
        var net = new FakeNetwork();
        net.switches.addAll(List.of(1L, 2L, 3L));
        net.cable(1, 1, 2, 2);
        net.cable(2, 1, 3, 2);
        net.hosts.put(A, new SwitchPort(1, 3));
        net.hosts.put(B, new SwitchPort(3, 3));
        net.hosts.put(C, new SwitchPort(2, 3));
        return net;
    }

    PolicyRuntimeTest() {
        net.switches.forEach(runtime::switchAdded);
    }

    private List<Sent> take() {
        var out = List.copyOf(sent);
        sent.clear();
        return out;
    }

    private static List<Sent> flowMods(List<Sent> msgs, OFFlowMod.Command command) {
        return msgs.stream().filter(s -> s.msg() instanceof OFFlowMod m && m.command() == command).toList();
    }

    private static List<Sent> packetOuts(List<Sent> msgs) {
        return msgs.stream().filter(s -> s.msg() instanceof OFPacketOut).toList();
    }

    private static OFFlowMod mod(Sent s) {
        return (OFFlowMod) s.msg();
    }

    private static List<OFAction> out(int port) {
        return List.of(OFActionOutput.to(port));
    }

    @Test
    void aMissInstallsThePathLastHopFirstThenSendsThePacketOn() {
        runtime.packetIn(1, 3, OFMessage.NO_BUFFER, Frames.tcp(A, B, 1000, 80));
        var msgs = take();
        var adds = flowMods(msgs, OFFlowMod.Command.ADD);
        var forward = adds.stream().filter(s -> mod(s).match().equals(OFMatch.parse(
                "tcp,dl_src=00:00:00:00:00:0a,dl_dst=00:00:00:00:00:0b"))).toList();
        assertEquals(List.of(3L, 2L, 1L), forward.stream().map(Sent::dpid).toList(), "last hop first: " + msgs);
        assertEquals(List.of(out(3), out(1), out(1)), forward.stream().map(s -> mod(s).actions()).toList());
        for (var s : adds) {
            assertEquals(COOKIE, mod(s).cookie(), "every rule carries Maple's cookie with the epoch");
            assertEquals(0, mod(s).idleTimeout() + mod(s).hardTimeout(), "rules live as long as the tree");
            assertEquals(OFFlowMod.FLAG_SEND_FLOW_REM, mod(s).flags(), "their deletion is reported");
            assertTrue(mod(s).priority() >= PolicyRuntime.MIN_PRIORITY && mod(s).priority()
                    <= PolicyRuntime.MAX_PRIORITY);
        }
        var last = msgs.get(msgs.size() - 1);
        assertEquals(1L, last.dpid(), "the packet goes on after the rules");
        assertEquals(out(1), ((OFPacketOut) last.msg()).actions());
        assertEquals(3, ((OFPacketOut) last.msg()).inPort());
        assertEquals(1, runtime.counted(PolicyRuntime.Event.MISS));
    }

    @Test
    void aHitSendsThePacketOnWithNoRule() {
        runtime.packetIn(1, 3, OFMessage.NO_BUFFER, Frames.tcp(A, B, 1000, 80));
        take();
        // Another connection of the same pair, and a packet that reached s2 before its rule did.
        runtime.packetIn(1, 3, OFMessage.NO_BUFFER, Frames.tcp(A, B, 1001, 443));
        runtime.packetIn(2, 2, OFMessage.NO_BUFFER, Frames.tcp(A, B, 1002, 8080));
        var msgs = take();
        assertEquals(List.of(), flowMods(msgs, OFFlowMod.Command.ADD), "wildcard rules cover new connections");
        assertEquals(List.of(1L, 2L), packetOuts(msgs).stream().map(Sent::dpid).toList());
        assertEquals(out(1), ((OFPacketOut) packetOuts(msgs).get(1).msg()).actions(),
                "at s2 the route's hop there, found from where A is attached");
        assertEquals(2, runtime.counted(PolicyRuntime.Event.HIT));
    }

    @Test
    void telnetIsDroppedByARuleAndNotSentOn() {
        runtime.packetIn(1, 3, OFMessage.NO_BUFFER, Frames.tcp(A, B, 1000, 23));
        var msgs = take();
        assertEquals(List.of(), packetOuts(msgs));
        var drops = flowMods(msgs, OFFlowMod.Command.ADD).stream()
                .filter(s -> mod(s).match().equals(OFMatch.parse("tcp,tp_dst=23"))).toList();
        assertEquals(Set.of(1L, 2L, 3L), drops.stream().map(Sent::dpid).collect(Collectors.toSet()));
        drops.forEach(s -> assertEquals(List.of(), mod(s).actions()));
    }

    @Test
    void aFloodGoesToTheControllerOnTheSwitchesAndOutOfTheSpanningTreeFromHere() {
        runtime.packetIn(2, 3, OFMessage.NO_BUFFER, Frames.arpRequest(C));
        var msgs = take();
        for (var s : flowMods(msgs, OFFlowMod.Command.ADD)) {
            assertFalse(mod(s).actions().contains(OFActionOutput.to(OFPort.FLOOD)),
                    "no OFPP_FLOOD: on a loop it never ends");
        }
        var po = (OFPacketOut) packetOuts(msgs).get(0).msg();
        assertEquals(List.of(OFActionOutput.to(1), OFActionOutput.to(2)), po.actions(), "all but the in port");

        // The copy s1 gets from s2 is flooded on from s1 (its host port), never back.
        runtime.packetIn(1, 1, OFMessage.NO_BUFFER, Frames.arpRequest(C));
        assertEquals(List.of(new Sent(1, OFPacketOut.unbuffered(0, 1, out(3), java.nio.ByteBuffer.wrap(
                Frames.arpRequest(C))))), take());
    }

    @Test
    void aPacketFromALinkWithAnUnknownSenderIsDropped() {
        runtime.packetIn(2, 2, OFMessage.NO_BUFFER, Frames.tcp(0x99, B, 1000, 80));
        assertEquals(List.of(), take());
        assertEquals(1, runtime.counted(PolicyRuntime.Event.NO_INGRESS));
    }

    @Test
    void aHostMoveDeletesExactlyTheRulesThatReadIt() {
        runtime.packetIn(1, 3, OFMessage.NO_BUFFER, Frames.tcp(A, B, 1000, 80));
        runtime.packetIn(1, 3, OFMessage.NO_BUFFER, Frames.tcp(A, C, 1000, 80));
        var toB = flowMods(take(), OFFlowMod.Command.ADD).stream()
                .filter(s -> mod(s).match().dlDst() == B && mod(s).match().dlSrc() == A).toList();

        net.hosts.put(B, new SwitchPort(2, 4));
        runtime.hostChanged(B);
        var msgs = take();
        var deletes = flowMods(msgs, OFFlowMod.Command.DELETE_STRICT);
        var firstHopFirst = new ArrayList<>(toB);
        java.util.Collections.reverse(firstHopFirst);
        assertEquals(firstHopFirst.stream().map(s -> s.dpid() + " " + mod(s).match() + " " + mod(s).priority())
                .toList(),
                deletes.stream().map(s -> s.dpid() + " " + mod(s).match() + " " + mod(s).priority()).toList(),
                "the rules to B go, first hop first; those to C stay");
        assertEquals(deletes.size(), msgs.size());

        runtime.packetIn(1, 3, OFMessage.NO_BUFFER, Frames.tcp(A, B, 1000, 80));
        var again = flowMods(take(), OFFlowMod.Command.ADD).stream()
                .filter(s -> mod(s).match().dlDst() == B && mod(s).match().dlSrc() == A).toList();
        assertEquals(List.of(2L, 1L), again.stream().map(Sent::dpid).toList(), "the new path, to s2's port 4");
        assertEquals(out(4), mod(again.get(0)).actions());
    }

    @Test
    void aLinkDownDeletesThePathsOverIt() {
        runtime.packetIn(1, 3, OFMessage.NO_BUFFER, Frames.tcp(A, B, 1000, 80));
        runtime.packetIn(1, 3, OFMessage.NO_BUFFER, Frames.tcp(A, C, 1000, 80));
        take();
        for (var end : net.cut(new SwitchPort(2, 1))) {
            runtime.portChanged(end);
        }
        var deletes = flowMods(take(), OFFlowMod.Command.DELETE_STRICT);
        assertEquals(Set.of(B), deletes.stream().map(s -> mod(s).match().dlDst()).collect(Collectors.toSet()),
                "only A -> B crossed s2 - s3");
        assertEquals(3, deletes.size());
    }

    @Test
    void reconciliationKeepsWhatIsWantedAndDeletesAnEarlierRunsLeftoversAfterTheirGrace() {
        runtime.packetIn(1, 3, OFMessage.NO_BUFFER, Frames.tcp(A, B, 1000, 80));
        var rule = mod(flowMods(take(), OFFlowMod.Command.ADD).stream().filter(s -> s.dpid() == 1
                && mod(s).match().dlDst() == B).findFirst().orElseThrow());
        assertEquals(FlowVerdict.WANTED, runtime.judge(1, entry(rule.match(), rule.priority(), COOKIE,
                rule.actions()), 0));
        assertEquals(FlowVerdict.STALE, runtime.judge(1, entry(rule.match(), rule.priority(), COOKIE, out(2)), 0),
                "other actions than the tree's");
        assertEquals(FlowVerdict.STALE, runtime.judge(2, entry(OFMatch.parse("udp"), 50_000, COOKIE, out(2)), 0));

        long earlier = FlowOwner.MAPLE.cookie(EPOCH - 1);
        var replaced = entry(rule.match(), rule.priority(), earlier, rule.actions());
        var leftover = entry(OFMatch.parse("udp"), 50_000, earlier, out(2));
        assertEquals(FlowVerdict.UNSURE, runtime.judge(1, replaced, 0));
        assertEquals(FlowVerdict.UNSURE, runtime.judge(1, leftover, 0));
        runtime.tick(PolicyRuntime.LEFTOVER_GRACE_NANOS - 1);
        assertEquals(List.of(), take(), "kept during the grace period");
        runtime.tick(PolicyRuntime.LEFTOVER_GRACE_NANOS);
        var msgs = take();
        assertEquals(1, msgs.size(), "only the leftover no rule of this run replaced: " + msgs);
        assertEquals(OFFlowMod.Command.DELETE_STRICT, mod(msgs.get(0)).command());
        assertEquals(OFMatch.parse("udp"), mod(msgs.get(0)).match());
        assertEquals(50_000, mod(msgs.get(0)).priority());
    }

    @Test
    void aRuleSomethingElseDeletedIsWrittenAgainButNotOneTheRuntimeDeleted() {
        runtime.packetIn(1, 3, OFMessage.NO_BUFFER, Frames.tcp(A, B, 1000, 80));
        runtime.packetIn(1, 3, OFMessage.NO_BUFFER, Frames.tcp(A, C, 1000, 80));
        var adds = flowMods(take(), OFFlowMod.Command.ADD);
        var toB = mod(adds.stream().filter(s -> s.dpid() == 1 && mod(s).match().dlDst() == B).findFirst()
                .orElseThrow());
        var toC = mod(adds.stream().filter(s -> s.dpid() == 1 && mod(s).match().dlDst() == C).findFirst()
                .orElseThrow());

        runtime.flowRemoved(1, toB.match(), toB.priority(), COOKIE);
        assertEquals(List.of(new Sent(1, toB)), take(), "the same ADD again");
        runtime.flowRemoved(1, toB.match(), toB.priority(), FlowOwner.MAPLE.cookie(EPOCH - 1));
        assertEquals(List.of(), take(), "an earlier run's flow is not this run's to restore");

        net.hosts.put(C, new SwitchPort(2, 4));
        runtime.hostChanged(C);
        take();
        runtime.flowRemoved(1, toC.match(), toC.priority(), COOKIE);
        assertEquals(List.of(), take(), "the report of the runtime's own delete");
        assertEquals(1, runtime.counted(PolicyRuntime.Event.RESTORED));
    }

    @Test
    void aSwitchThatReconnectsGetsItsRulesAgain() {
        runtime.packetIn(1, 3, OFMessage.NO_BUFFER, Frames.tcp(A, B, 1000, 80));
        var onS3 = flowMods(take(), OFFlowMod.Command.ADD).stream().filter(s -> s.dpid() == 3)
                .map(s -> mod(s).match() + " " + mod(s).priority()).collect(Collectors.toSet());
        runtime.switchAdded(3);
        var again = take();
        assertEquals(onS3, again.stream().map(s -> mod(s).match() + " " + mod(s).priority())
                .collect(Collectors.toSet()));
        again.forEach(s -> assertEquals(OFFlowMod.Command.ADD, mod(s).command()));
    }

    @Test
    void closingDeletesEveryRule() {
        runtime.packetIn(1, 3, OFMessage.NO_BUFFER, Frames.tcp(A, B, 1000, 80));
        runtime.packetIn(2, 3, OFMessage.NO_BUFFER, Frames.arpRequest(C));
        var added = flowMods(take(), OFFlowMod.Command.ADD).stream()
                .map(s -> s.dpid() + " " + mod(s).match() + " " + mod(s).priority()).collect(Collectors.toSet());
        runtime.close();
        var deleted = take();
        deleted.forEach(s -> assertEquals(OFFlowMod.Command.DELETE_STRICT, mod(s).command()));
        assertEquals(added, deleted.stream().map(s -> s.dpid() + " " + mod(s).match() + " " + mod(s).priority())
                .collect(Collectors.toSet()));
    }

    private static OFFlowStatsEntry entry(OFMatch match, int priority, long cookie, List<OFAction> actions) {
        return new OFFlowStatsEntry(0, match, 1, 0, priority, 0, 0, cookie, 0, 0, actions);
    }
}
