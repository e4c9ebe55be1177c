package net.beaconcontroller.benchmarks;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
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
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.internal.DispatchHarness;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPhysicalPort;
import net.beaconcontroller.routing.apsp.internal.ApspRoutingService;
import net.beaconcontroller.routing.internal.Counters;
import net.beaconcontroller.routing.internal.Routing;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The routing application's PACKET_IN listener for a frame to a known host, through the controller's dispatch
 * ({@link DispatchHarness}): the route from the real all-pairs engine ({@link ApspRoutingService}) on a line of four
 * switches, one exact-match FLOW_MOD per hop (built and serialized into each switch's direct output buffer) and the
 * PACKET_OUT. The device manager's part (finding the destination) is replaced by a listener that puts a fixed
 * {@link Device} in the context; its own cost is {@link DeviceManagerBenchmark}'s.
 *
 * <pre>
 * taskset -c 1 java -jar cbench-scripts/jmh/target/benchmarks.jar RoutingListener -f 1 -wi 2 -w 1 -i 3 -r 1 -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RoutingListenerBenchmark {
    /** Switches 1..4 in a line, port 2 of each cabled to port 1 of the next; hosts on port 3. */
    static final int SWITCHES = 4;
    private static final int SRC_HOST = 2000;
    private static final int DST_HOST = 2001;

    private final Map<Long, IOFSwitch> switches = new HashMap<>();
    private DispatchHarness dispatcher;
    private OFPacketIn packetIn;
    private IOFSwitch first;

    @Setup
    public void setUp() {
        var links = new HashMap<Link, Instant>();
        for (int i = 1; i <= SWITCHES; i++) {
            var ports = new ArrayList<OFPhysicalPort>();
            for (int p = 1; p <= 3; p++) {
                ports.add(BenchSwitch.port(i, p));
            }
            switches.put((long) i, new BenchSwitch(i, ports));
            if (i < SWITCHES) {
                var link = Link.of(i, 2, i + 1, 1);
                links.put(link, Instant.EPOCH);
                links.put(link.reverse(), Instant.EPOCH);
            }
        }
        ITopology topology = new Links(Map.copyOf(links));
        IBeaconProvider beacon = TopologyListenerBenchmark.proxy(IBeaconProvider.class, Map.copyOf(switches));
        IDeviceManager devices = TopologyListenerBenchmark.proxy(IDeviceManager.class, null);
        var routing = new Routing(beacon, topology, devices, DeviceManagerFixture.defaults(Routing.Config.class));
        routing.bindEngine(new ApspRoutingService(topology));
        // The frame comes in at port 3 of switch 1, to a host at port 3 of switch 4.
        packetIn = DeviceManagerFixture.packetIn(SRC_HOST, DST_HOST);
        first = switches.get(1L);
        var dst = new Device(DeviceManagerFixture.mac(DST_HOST), Device.NO_VLAN,
                Set.of(DeviceManagerFixture.ip(DST_HOST)), new SwitchPort(SWITCHES, 3), Instant.EPOCH, Instant.EPOCH);
        dispatcher = new DispatchHarness(new KnownDestination(dst), routing);
        dispatcher.dispatch(first, packetIn);
        if (routing.counters().get(Counters.Event.ROUTED) != 1) {
            throw new IllegalStateException("not routed: " + routing.counters());
        }
    }

    @Benchmark
    public Object knownDestination() {
        dispatcher.dispatch(first, packetIn);
        return packetIn;
    }

    /** The device manager's result for this frame, as it leaves it in the context. */
    private record KnownDestination(Device dst) implements IOFMessageListener {
        @Override
        public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
            ctx.put(IDeviceManager.DST_DEVICE, dst);
            return Command.CONTINUE;
        }
    }

    /** A settled topology with these links and no others. */
    private record Links(Map<Link, Instant> links) implements ITopology {
        @Override
        public Map<Link, Instant> getLinks() {
            return links;
        }

        @Override
        public boolean isEdgePort(long dpid, int port) {
            return links.keySet().stream().noneMatch(l -> l.src().equals(new SwitchPort(dpid, port)));
        }

        @Override
        public Set<Set<Long>> getIslands() {
            return Set.of();
        }

        @Override
        public Set<Integer> getBroadcastPorts(long dpid) {
            return Set.of();
        }

        @Override
        public boolean isSettled() {
            return true;
        }
    }
}
