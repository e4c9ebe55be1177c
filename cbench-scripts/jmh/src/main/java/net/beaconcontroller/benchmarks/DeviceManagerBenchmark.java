package net.beaconcontroller.benchmarks;

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

import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The device manager with 100,000 known hosts: the cost of its PACKET_IN listener for a known host talking to a known
 * host (the steady state: look up both, leave them in the context, nothing changes), and of the look-ups by every
 * key. Run with {@code -prof gc} to see the bytes allocated per operation:
 *
 * <pre>
 * java -jar cbench-scripts/jmh/target/benchmarks.jar DeviceManager -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DeviceManagerBenchmark {
    static final int HOSTS = 100_000;
    /** PACKET_INs made in advance, so the host looked up changes from one operation to the next. */
    private static final int PACKETS = 4096;

    private DeviceManagerFixture fx;
    private DeviceManagerFixture.Dispatch[] packets;
    private int[] hosts;
    private int next;

    @Setup
    public void setUp() {
        fx = new DeviceManagerFixture(HOSTS);
        packets = new DeviceManagerFixture.Dispatch[PACKETS];
        hosts = new int[PACKETS];
        var random = new java.util.SplittableRandom(1);
        for (int i = 0; i < PACKETS; i++) {
            int host = random.nextInt(HOSTS);
            hosts[i] = host;
            packets[i] = fx.dispatch(host, random.nextInt(HOSTS));
        }
    }

    private int nextIndex() {
        return next = (next + 1) & (PACKETS - 1);
    }

    @Benchmark
    public Object packetInKnownHosts() {
        return fx.receive(packets[nextIndex()]);
    }

    @Benchmark
    public Object getDeviceByMacAndVlan() {
        return fx.dm.getDevice(DeviceManagerFixture.mac(hosts[nextIndex()]), Device.NO_VLAN);
    }

    @Benchmark
    public Object getDevicesByIpv4() {
        return fx.dm.getDevicesByIpv4(DeviceManagerFixture.ip(hosts[nextIndex()]));
    }

    @Benchmark
    public Object getDevicesAtPort() {
        int host = hosts[nextIndex()];
        return fx.dm.getDevicesAt(new SwitchPort(DeviceManagerFixture.dpid(host), DeviceManagerFixture.port(host)));
    }
}
