package net.beaconcontroller.benchmarks;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import net.beaconcontroller.maple.Environment;
import net.beaconcontroller.maple.Policy;
import net.beaconcontroller.maple.Route;
import net.beaconcontroller.maple.internal.MapleHarness;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * Maple's core on the paper's mt-route policy (Table 2, first row): hosts in tenants, traffic within a tenant on
 * shortest paths, the rest dropped; a ring of 10 switches with 20 hosts each and 4 tenants (39,800 host pairs). One thread, as in the paper. Rates per second: augments (a miss: the policy runs, the trace joins the
 * tree, the rules of every switch on its path are compiled), lookups in a tree holding every pair of hosts, and
 * host and port invalidations on that full tree (each with its rule deletions compiled).
 *
 * <pre>
 * taskset -c 1 java -jar cbench-scripts/jmh/target/benchmarks.jar Maple -f 1 -wi 2 -i 3
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class MapleBenchmark {
    private static final int SWITCHES = 10;
    private static final int HOSTS_PER_SWITCH = 20;
    private static final int HOSTS = SWITCHES * HOSTS_PER_SWITCH;
    private static final int LINK_PORTS = 2 * SWITCHES;

    /** The ring, an engine for mt-route on it, and a packet for every ordered pair of hosts. */
    static final class Fixture {
        final Ring ring = new Ring(SWITCHES, HOSTS_PER_SWITCH);
        final MapleHarness maple = new MapleHarness(mtRoute(ring.tenants), ring, ring.switches);
        final List<Object> packets = ring.allPairs();
        int next;

        Object nextPacket() {
            if (next == packets.size()) {
                next = 0;
            }
            return packets.get(next++);
        }
    }

    /** An engine whose tree starts empty. */
    @State(Scope.Thread)
    public static class Empty {
        Fixture f;

        @Setup(Level.Iteration)
        public void setUp() {
            f = new Fixture();
        }
    }

    /** An engine whose tree holds every pair of hosts. */
    @State(Scope.Thread)
    public static class Full {
        Fixture f;

        @Setup(Level.Iteration)
        public void setUp() {
            f = new Fixture();
            f.packets.forEach(f.maple::decide);
        }
    }

    /** Every packet a different pair of hosts: each a miss; the tree starts again once it holds them all. */
    @Benchmark
    public int augment(Empty s) {
        if (s.f.next == s.f.packets.size()) {
            s.f.maple.reset();
            s.f.next = 0;
        }
        return s.f.maple.decide(s.f.nextPacket());
    }

    @Benchmark
    public boolean lookup(Full s) {
        return s.f.maple.lookup(s.f.nextPacket());
    }

    /** Every host invalidated once, from a full tree. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @OperationsPerInvocation(HOSTS)
    @Warmup(iterations = 5)
    @Measurement(iterations = 10)
    public int hostInvalidation(Full s) {
        int changes = 0;
        for (long mac : s.f.ring.hosts.keySet()) {
            changes += s.f.maple.hostChanged(mac);
        }
        return changes;
    }

    /** Every port that ends a link invalidated once, from a full tree. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @OperationsPerInvocation(LINK_PORTS)
    @Warmup(iterations = 5)
    @Measurement(iterations = 10)
    public int portInvalidation(Full s) {
        int changes = 0;
        for (SwitchPort port : s.f.ring.links.keySet()) {
            changes += s.f.maple.portChanged(port);
        }
        return changes;
    }

    static Policy mtRoute(Map<Long, Integer> tenantOf) {
        return (p, env) -> {
            Integer src = tenantOf.get(p.dlSrc());
            Integer dst = tenantOf.get(p.dlDst());
            if (src == null || !src.equals(dst)) {
                return Route.DROP;
            }
            Optional<SwitchPort> from = env.hostLocation(p.dlSrc());
            Optional<SwitchPort> to = env.hostLocation(p.dlDst());
            if (from.isEmpty() || to.isEmpty()) {
                return Route.DROP;
            }
            return env.route(from.get(), to.get()).orElse(Route.DROP);
        };
    }

    /** A ring (port 1 to the next switch, port 2 to the previous), hosts on ports 3.., tenants by MAC. */
    static final class Ring implements Environment {
        final TreeSet<Long> switches = new TreeSet<>();
        final Map<SwitchPort, Link> links = new HashMap<>();
        final Map<Long, SwitchPort> hosts = new HashMap<>();
        final Map<Long, Integer> tenants = new HashMap<>();

        Ring(int n, int hostsPerSwitch) {
            for (long s = 1; s <= n; s++) {
                switches.add(s);
                for (int k = 0; k < hostsPerSwitch; k++) {
                    long mac = 0x0a00_0000_0000L + (s - 1) * hostsPerSwitch + k; // consecutive, as a NIC vendor numbers them
                    hosts.put(mac, new SwitchPort(s, 3 + k));
                    tenants.put(mac, (int) (mac % 4));
                }
            }
            for (long s = 1; s <= n; s++) {
                Link l = Link.of(s, 1, s % n + 1, 2);
                links.put(l.src(), l);
                links.put(l.dst(), l.reverse());
            }
        }

        /** A packet for every ordered pair of hosts, shuffled. */
        List<Object> allPairs() {
            var packets = new ArrayList<Object>();
            for (var src : hosts.entrySet()) {
                for (long dst : hosts.keySet()) {
                    if (dst != src.getKey()) {
                        packets.add(MapleHarness.packet(src.getValue(), src.getKey(), dst, 0x0a000001, 0x0a000002,
                                80));
                    }
                }
            }
            Collections.shuffle(packets, new Random(42));
            return packets;
        }

        @Override
        public Optional<SwitchPort> hostLocation(long mac) {
            return Optional.ofNullable(hosts.get(mac));
        }

        /** Breadth first from {@code dst}, so all paths towards one switch form a tree. */
        @Override
        public Optional<List<Link>> path(long src, long dst) {
            var towards = new HashMap<Long, Link>();
            var queue = new ArrayDeque<Long>();
            queue.add(dst);
            towards.put(dst, null);
            while (!queue.isEmpty()) {
                long at = queue.poll();
                for (Link in : links.values()) {
                    if (in.dst().dpid() == at && !towards.containsKey(in.src().dpid())) {
                        towards.put(in.src().dpid(), in);
                        queue.add(in.src().dpid());
                    }
                }
            }
            if (!towards.containsKey(src)) {
                return Optional.empty();
            }
            var path = new ArrayList<Link>();
            for (long at = src; at != dst; at = towards.get(at).dst().dpid()) {
                path.add(towards.get(at));
            }
            return Optional.of(path);
        }
    }
}
