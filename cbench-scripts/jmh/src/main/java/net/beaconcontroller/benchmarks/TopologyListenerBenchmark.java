package net.beaconcontroller.benchmarks;

import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IScheduler;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.internal.DispatchHarness;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.topology.internal.LinkDiscovery;
import net.beaconcontroller.topology.internal.TopologyHarness;

/**
 * The topology's PACKET_IN listener ({@code LinkDiscovery}), first in the pipeline, through the controller's dispatch
 * ({@link DispatchHarness}): a non-LLDP frame, the common case, which it must pass on cheaply; one of its own probes
 * coming back over a known link (decode the LLDPDU, check the HMAC, refresh the link); and the dispatch with a
 * listener that does nothing, to subtract.
 *
 * <pre>
 * taskset -c 1 java -jar cbench-scripts/jmh/target/benchmarks.jar TopologyListener -f 1 -wi 2 -w 1 -i 3 -r 1 -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class TopologyListenerBenchmark {
    private static final long NOW = 1_000_000_000L;

    private final BenchSwitch s1 = new BenchSwitch(1, List.of(BenchSwitch.port(1, 1), BenchSwitch.port(1, 2)));
    private final BenchSwitch s2 = new BenchSwitch(2, List.of(BenchSwitch.port(2, 1), BenchSwitch.port(2, 2)));
    private DispatchHarness topology;
    private DispatchHarness nothing;
    private OFPacketIn udp;
    private OFPacketIn probe;

    @Setup
    public void setUp() {
        IBeaconProvider beacon = proxy(IBeaconProvider.class, Map.of());
        IScheduler scheduler = proxy(IScheduler.class, null);
        var discovery = TopologyHarness.discovery(beacon, scheduler,
                DeviceManagerFixture.defaults(LinkDiscovery.Config.class), NOW);
        discovery.addedSwitch(s1);
        discovery.addedSwitch(s2);
        topology = new DispatchHarness(discovery);
        nothing = new DispatchHarness(new Nothing());
        udp = DeviceManagerFixture.packetIn(1, 2);
        // The probe s1 sends out of port 2, arriving at port 1 of s2: the first one makes the link, later ones refresh.
        var frame = TopologyHarness.probeFrame(discovery, 1, 2, BenchSwitch.port(1, 2).hwAddr(), NOW);
        probe = new OFPacketIn(0, OFPacketIn.NO_BUFFER, frame.length, 1, OFPacketIn.Reason.ACTION,
                ByteBuffer.wrap(frame));
        topology.dispatch(s2, probe);
        if (!discovery.getLinks().keySet().stream().anyMatch(l -> l.src().dpid() == 1 && l.dst().dpid() == 2)) {
            throw new IllegalStateException("the probe made no link: " + discovery.getDiscoveryCounters());
        }
    }

    @Benchmark
    public Object nonLldp() {
        topology.dispatch(s1, udp);
        return udp;
    }

    @Benchmark
    public Object probe() {
        topology.dispatch(s2, probe);
        return probe;
    }

    @Benchmark
    public Object dispatchOnly() {
        nothing.dispatch(s1, udp);
        return udp;
    }

    /** The cheapest listener: what the dispatch alone costs. */
    private static final class Nothing implements net.beaconcontroller.core.IOFMessageListener {
        @Override
        public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
            return ctx.frame().isEthernet() ? Command.CONTINUE : Command.STOP;
        }
    }

    /** Every method returns {@code result} (or nothing). */
    static <T> T proxy(Class<T> type, Object result) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, m, args) ->
                m.getReturnType() == void.class ? null : result));
    }
}
