package net.beaconcontroller.benchmarks;

import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import net.beaconcontroller.routing.Hop;
import net.beaconcontroller.routing.RouteChanges;
import net.beaconcontroller.routing.apsp.internal.ApspEngine;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The all-pairs shortest-path engine on a random connected network of 1,000 switches and 2,000 cables (4,000 links):
 * a route lookup between random hosts (what the routing application does per new flow), a full recompute, and one
 * random link going down or coming back up, each including finding the pairs whose route changed.
 *
 * <pre>
 * taskset -c 1 java -jar cbench-scripts/jmh/target/benchmarks.jar RoutingEngine -f 1 -wi 2 -i 3
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RoutingEngineBenchmark {
    @State(Scope.Thread)
    public static class Network {
        @Param("1000")
        int switches;

        @Param("2000")
        int cables;

        List<Link> links;
        ApspEngine engine;
        SwitchPort[] hosts;
        int nextPair;
        final Random random = new Random(42);

        @Setup
        public void setUp() {
            var network = RandomNetwork.of(switches, cables, 1);
            links = network.links();
            engine = new ApspEngine();
            engine.reset(network.linkSet());
            hosts = new SwitchPort[1024];
            for (int i = 0; i < hosts.length; i++) {
                hosts[i] = new SwitchPort(RandomNetwork.dpid(random.nextInt(switches)), 0xff00); // a port no cable uses
            }
        }

        Link randomLink() {
            return links.get(random.nextInt(links.size()));
        }
    }

    /** The network and a link to take down, the one taken down before back up first (not measured). */
    @State(Scope.Thread)
    public static class LinkToTakeDown extends Network {
        Link link;

        @Setup(Level.Invocation)
        public void pick() {
            if (link != null) {
                engine.add(link);
            }
            link = randomLink();
        }
    }

    /** The network with a link down that is to come back up (taking it down is not measured). */
    @State(Scope.Thread)
    public static class LinkToBringUp extends Network {
        Link link;

        @Setup(Level.Invocation)
        public void takeDown() {
            link = randomLink();
            engine.remove(link);
        }
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public List<Hop> routeLookup(Network network) {
        int i = network.nextPair++ & (network.hosts.length - 1);
        return network.engine.getRoute(network.hosts[i], network.hosts[(i * 7 + 1) & (network.hosts.length - 1)]);
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public ApspEngine fullRecompute(Network network) {
        network.engine.reset(network.links);
        return network.engine;
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public RouteChanges linkDown(LinkToTakeDown network) {
        return network.engine.remove(network.link);
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public RouteChanges linkUp(LinkToBringUp network) {
        return network.engine.add(network.link);
    }
}
