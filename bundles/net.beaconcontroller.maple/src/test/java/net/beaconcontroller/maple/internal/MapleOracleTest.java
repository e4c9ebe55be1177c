package net.beaconcontroller.maple.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import net.beaconcontroller.maple.Policy;
import net.beaconcontroller.maple.Route;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The oracle: random packets go through the simulated switches, fed only with the compiler's flow changes.
 * Every switch must do what the policy says or send the packet to the controller, never anything else; a miss
 * runs the engine (as the runtime will) and the new rules go to the switches. After the traces of a set of packets
 * are in, none of those packets may reach the controller. Between rounds the network changes (a host moves, a
 * link goes down, comes back) and the engine is told, as the runtime will tell it.
 */
class MapleOracleTest {
    private static final int ROUNDS = 4;
    private static final int PACKETS_PER_ROUND = 750;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void l2ShortestPathsOnARing(long seed) {
        var net = FakeNetwork.ringWithChord(3);
        var stats = run(seed, net, TestPolicies::l2, true);
        assertTrue(stats.hits > stats.misses, "wildcard rules should serve most packets: " + stats);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void fieldsReadWithoutChecksOnARing(long seed) {
        run(seed, FakeNetwork.ringWithChord(3), TestPolicies::filtered, true);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void mtRouteTenants(long seed) {
        var net = FakeNetwork.ringWithChord(3);
        var tenants = new HashMap<Long, Integer>();
        net.hosts.keySet().forEach(mac -> tenants.put(mac, (int) (mac % 3)));
        run(seed, net, TestPolicies.mtRoute(tenants), true);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void firstMatchAclOnOneSwitch(long seed) {
        run(seed, FakeNetwork.oneSwitch(8), TestPolicies.acl(localAcl(seed)), true);
    }

    /** Priorities re-spaced again and again: the moved rules keep the tables right, even mid-update. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void firstMatchAclInATightPriorityBand(long seed) {
        var stats = run(seed, FakeNetwork.oneSwitch(8), TestPolicies.acl(localAcl(seed)), true, 100 + 24);
        assertTrue(stats.moved() > 0, "the band is tight enough to force re-spacing: " + stats);
    }

    /** Random ACL entries about the hosts of {@link FakeNetwork#oneSwitch} (10.0.1.x). */
    private static List<TestPolicies.AclEntry> localAcl(long seed) {
        return TestPolicies.randomAcl(new Random(seed * 7919), 12).stream()
                .map(e -> new TestPolicies.AclEntry(e.src() & ~0x0000ff00 | 0x100, e.srcLen(),
                        e.dst() & ~0x0000ff00 | 0x100, e.dstLen(), e.proto(), e.portLo(), e.portHi(), e.permit()))
                .toList();
    }

    /** The ACL reads the ingress: exact at the ingress switch, to the controller at later ones, never wrong. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2})
    void aclReadingTheIngressOnARing(long seed) {
        var net = FakeNetwork.ringWithChord(3);
        run(seed, net, TestPolicies.acl(TestPolicies.randomAcl(new Random(seed), 10)), false);
    }

    /** A test on one ingress port: barriers on the other switches catch what they cannot tell apart. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2})
    void blockingOneIngressOnARing(long seed) {
        var net = FakeNetwork.ringWithChord(3);
        run(seed, net, TestPolicies.blockIngress(new SwitchPort(2, 4)), false);
    }

    /** Traffic from one port diverted to a monitor: the other switches must not mistake it for ordinary traffic. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void divertingOneIngressOnARing(long seed) {
        var net = FakeNetwork.ringWithChord(3);
        var watched = new SwitchPort(1, 3);
        long monitor = net.hosts.keySet().stream().filter(m -> net.hosts.get(m).dpid() == 3).findFirst().get();
        var stats = run(seed, net, TestPolicies.divertIngress(watched, monitor), false);
        assertTrue(stats.hits > 0, "some packets served by rules: " + stats);
    }

    /** {@code moved}: rules an augment gave a new priority (re-spacing). */
    record Stats(int walks, int hits, int misses, int rules, int moved) {
    }

    /**
     * @param strong whether, once a packet's trace is in, the packet must never reach the controller again (true
     *               for policies that do not read the ingress, and on one switch)
     */
    private static Stats run(long seed, FakeNetwork net, Policy policy, boolean strong) {
        return run(seed, net, policy, strong, 65000);
    }

    private static Stats run(long seed, FakeNetwork net, Policy policy, boolean strong, int maxPriority) {
        var rnd = new Random(seed);
        var engine = new MapleEngine(policy, net, 100, maxPriority);
        var switches = new SwitchTables();
        var oracle = new Oracle(switches, net);
        var packets = new Packets(rnd, net);
        net.switches.forEach(s -> switches.apply(engine.switchAdded(s)));
        int walks = 0;
        int hits = 0;
        int misses = 0;
        int moves = 0;
        for (int round = 0; round < ROUNDS; round++) {
            var seen = new ArrayList<Header>();
            var probes = new ArrayList<Header>(); // never decided: they meet the barriers of what is not known
            var probeSource = new Packets(new Random(seed * 31 + round), net);
            for (int i = 0; i < 48; i++) {
                probes.add(probeSource.anywhere());
            }
            for (int i = 0; i < PACKETS_PER_ROUND; i++) {
                Header h = rnd.nextInt(5) == 0 ? packets.anywhere() : packets.next();
                Route expected = policy.apply(new PlainPacket(h), net);
                Route cached = engine.lookup(h);
                if (cached != null) {
                    assertEquals(expected, cached, "the trace tree's cached route for " + h);
                }
                walks++;
                if (oracle.walk(policy, h).missed()) {
                    misses++;
                    var decision = engine.decide(h);
                    TreeInvariants.check(engine.root(), 100, maxPriority);
                    assertEquals(expected, decision.route(), "the route the engine gives for " + h);
                    applyOneByOne(decision.changes(), switches, oracle, policy, recent(seen, probes, h));
                    moves += (int) decision.changes().stream().filter(c -> c.kind() == FlowChange.Kind.DELETE
                            && !c.rule().actions().equals(Actions.TO_CONTROLLER)).count();
                } else {
                    hits++;
                }
                seen.add(h);
            }
            switches.assertSameAs(engine.tables());
            assertAllServed(engine, switches, oracle, policy, net, seen, strong);
            change(round, net, engine, switches, rnd);
            switches.assertSameAs(engine.tables());
            assertAllServed(engine, switches, oracle, policy, net, seen, strong);
        }
        int rules = engine.tables().values().stream().mapToInt(List::size).sum();
        return new Stats(walks, hits, misses, rules, moves);
    }

    /**
     * Applies the changes one at a time, as a switch would, walking the packets after each: the order must never
     * let a half-updated network do something wrong.
     */
    private static void applyOneByOne(List<FlowChange> changes, SwitchTables switches, Oracle oracle,
            Policy policy, List<Header> packets) {
        for (FlowChange c : changes) {
            switches.apply(List.of(c));
            packets.forEach(p -> oracle.walk(policy, p));
        }
    }

    /** The packet, the last 32 before it and the probes. */
    private static List<Header> recent(List<Header> seen, List<Header> probes, Header h) {
        var some = new ArrayList<>(seen.subList(Math.max(0, seen.size() - 32), seen.size()));
        some.addAll(probes);
        some.add(h);
        return some;
    }

    /** Adds the traces of all {@code seen} packets; then each must go through without the controller. */
    private static void assertAllServed(MapleEngine engine, SwitchTables switches, Oracle oracle, Policy policy,
            FakeNetwork net, List<Header> seen, boolean strong) {
        for (Header h : seen) {
            switches.apply(engine.decide(h).changes());
        }
        for (Header h : seen) {
            var walk = oracle.walk(policy, h);
            boolean atItsHost = h.ingress().equals(net.hosts.get(h.dlSrc()));
            boolean wanted = policy.apply(new PlainPacket(h), net) instanceof Route.ToController;
            if (strong && !wanted && (atItsHost || net.switches.size() == 1)) {
                assertFalse(walk.missed(), "after its trace was added, " + h + " still reaches the controller");
            }
        }
    }

    /** Round 0: a host moves; 1: a link goes down; 2: it comes back; 3: another host moves. */
    private static void change(int round, FakeNetwork net, MapleEngine engine, SwitchTables switches, Random rnd) {
        var macs = new ArrayList<>(net.hosts.keySet());
        if (round == 1 || round == 2) {
            if (net.switches.size() == 1) {
                return;
            }
            if (round == 1) {
                for (SwitchPort end : net.cut(new SwitchPort(1, 6))) {
                    switches.apply(engine.portChanged(end));
                }
            } else {
                net.cable(1, 6, 3, 6);
                switches.apply(engine.portChanged(new SwitchPort(1, 6)));
                switches.apply(engine.portChanged(new SwitchPort(3, 6)));
                switches.apply(engine.topologyChanged());
            }
            return;
        }
        long mac = macs.get(rnd.nextInt(macs.size()));
        long to = net.switches.toArray(new Long[0])[rnd.nextInt(net.switches.size())];
        net.hosts.put(mac, new SwitchPort(to, 20 + round));
        switches.apply(engine.hostChanged(mac));
    }

    @ParameterizedTest
    @ValueSource(longs = {4, 5})
    void aPolicyChangeReplacesEveryRule(long seed) {
        var net = FakeNetwork.ringWithChord(2);
        var rnd = new Random(seed);
        var engine = new MapleEngine(TestPolicies::l2, net, 100, 65000);
        var switches = new SwitchTables();
        net.switches.forEach(s -> switches.apply(engine.switchAdded(s)));
        var packets = new Packets(rnd, net);
        for (int i = 0; i < 300; i++) {
            switches.apply(engine.decide(packets.next()).changes());
        }
        var tenants = Map.<Long, Integer>of();
        Policy dropAll = TestPolicies.mtRoute(tenants);
        switches.apply(engine.replacePolicy(dropAll));
        assertTrue(switches.snapshot().isEmpty(), "the old policy's rules are gone");
        var oracle = new Oracle(switches, net);
        for (int i = 0; i < 300; i++) {
            Header h = packets.next();
            if (oracle.walk(dropAll, h).missed()) {
                switches.apply(engine.decide(h).changes());
            }
            assertEquals(Route.DROP, engine.lookup(h));
        }
        switches.assertSameAs(engine.tables());
    }
}
