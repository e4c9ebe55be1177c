package net.beaconcontroller.benchmarks;

import java.lang.annotation.Annotation;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.internal.DispatchHarness;
import net.beaconcontroller.guard.internal.Guard;
import net.beaconcontroller.learningswitch.internal.LearningSwitch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFMessageReader;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.topology.ITopology;

/**
 * The whole per-PACKET_IN path of the learning switch without sockets, old platform against new in one run: a batch
 * of cbench PACKET_INs (source MAC rotating over {@code macs} values, destination known on port 2) in a direct read
 * buffer, each parsed with {@link OFMessageReader}, then
 * <ul>
 * <li>{@code platform}: dispatched as {@code Dispatch.run} does (reused {@code DispatchContext}, try/finally)
 * to the real {@link LearningSwitch} ({@code ctx.frame()}, {@code OFMatch.fromFrame}, {@code SwitchLocal} table);
 * <li>{@code previous}: the pre-platform loop and learning switch ({@link OldLearningSwitch});
 * <li>{@code guarded}: {@code platform} with the PACKET_IN guard in front, on with budgets no PACKET_IN reaches
 * (1e9/s), so that every one pays the whole check (its switch's state, two token buckets, the window count) and none
 * is dropped: the guard's cost per PACKET_IN is {@code guarded - platform}.
 * </ul>
 * The answer (a FLOW_MOD) is serialized into the switch's direct output buffer. Per operation: one PACKET_IN.
 *
 * <pre>
 * taskset -c 1 java -jar cbench-scripts/jmh/target/benchmarks.jar PacketInPath -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PacketInPathBenchmark {
    private static final int BATCH = 256;
    private static final long DST = 0x0000_0000_0002L;

    /** Source MACs the packets rotate over: 4096 fits the caches (CPU cost); cbench's is 100,000 per switch. */
    @Param({"4096"})
    public int macs;

    private final ByteBuffer in = ByteBuffer.allocateDirect(BATCH * CbenchPacketIn.LENGTH);
    private final BenchSwitch sw = new BenchSwitch();
    private final BenchSwitch oldSw = new BenchSwitch();
    private final BenchSwitch guardedSw = new BenchSwitch();
    private DispatchHarness dispatcher;
    private DispatchHarness guarded;
    private OldLearningSwitch old;
    private int nextMac;

    @Setup
    public void setUp() throws OFParseException {
        var learning = new LearningSwitch(unused(IBeaconProvider.class), config());
        dispatcher = new DispatchHarness(learning);
        var huge = Map.<String, Object>of("portRate", 1_000_000_000, "portBurst", 1_000_000_000, "switchRate",
                1_000_000_000, "switchBurst", 1_000_000_000);
        guarded = new DispatchHarness(new Guard(unused(IBeaconProvider.class), unused(ITopology.class),
                settings(Guard.Config.class, huge)), new LearningSwitch(unused(IBeaconProvider.class), config()));
        old = new OldLearningSwitch(1 << 20);
        // Both learn the destination host on port 2, as from cbench's gratuitous ARP.
        var arp = packetIn(0xffff_ffff_ffffL, DST, 2);
        dispatcher.dispatch(sw, arp);
        guarded.dispatch(guardedSw, arp);
        old.packetIn(oldSw, (OFPacketIn) arp);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long platform() throws OFParseException {
        return dispatchBatch(dispatcher, sw);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long guarded() throws OFParseException {
        return dispatchBatch(guarded, guardedSw);
    }

    private long dispatchBatch(DispatchHarness harness, BenchSwitch to) throws OFParseException {
        fill();
        OFMessage msg;
        while ((msg = OFMessageReader.read(in)) != null) {
            harness.dispatch(to, msg);
        }
        return to.written;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long previous() throws OFParseException {
        fill();
        OFMessage msg;
        while ((msg = OFMessageReader.read(in)) != null) {
            if (msg instanceof OFPacketIn pi) {
                old.packetIn(oldSw, pi);
            }
        }
        return oldSw.written;
    }

    /** The next batch of PACKET_INs into the read buffer, source MACs rotating; only the MAC bytes change. */
    private void fill() {
        if (in.getShort(2) == 0) {
            var one = CbenchPacketIn.fill(ByteBuffer.allocate(CbenchPacketIn.LENGTH));
            for (int i = 0; i < BATCH; i++) {
                in.put(i * CbenchPacketIn.LENGTH, one, 0, CbenchPacketIn.LENGTH);
            }
        }
        for (int i = 0; i < BATCH; i++) {
            long src = 0x0000_1000_0000L + nextMac;
            nextMac = nextMac + 1 == macs ? 0 : nextMac + 1;
            int at = i * CbenchPacketIn.LENGTH + CbenchPacketIn.FRAME_OFFSET + 6;
            in.putShort(at, (short) (src >>> 32)).putInt(at + 2, (int) src);
        }
        in.position(0).limit(BATCH * CbenchPacketIn.LENGTH);
    }

    private static OFMessage packetIn(long dst, long src, int inPort) throws OFParseException {
        var b = CbenchPacketIn.fill(ByteBuffer.allocate(CbenchPacketIn.LENGTH));
        int f = CbenchPacketIn.FRAME_OFFSET;
        b.putShort(f, (short) (dst >>> 32)).putInt(f + 2, (int) dst);
        b.putShort(f + 6, (short) (src >>> 32)).putInt(f + 8, (int) src);
        b.putShort(14, (short) inPort);
        return OFMessageReader.read(b);
    }

    /** A service the benchmarked path never calls. */
    private static <T> T unused(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> {
            throw new UnsupportedOperationException(m.getName());
        }));
    }

    /** A component's settings as Declarative Services would hand them over: {@code values}, else the defaults. */
    private static <A> A settings(Class<A> type, Map<String, Object> values) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (p, m, a) -> values.getOrDefault(m.getName(), m.getDefaultValue())));
    }

    /** The learning switch's defaults, as Declarative Services would hand them over. */
    static LearningSwitch.Config config() {
        return new LearningSwitch.Config() {
            @Override
            public Class<? extends Annotation> annotationType() {
                return LearningSwitch.Config.class;
            }

            @Override
            public int idleTimeout() {
                return 5;
            }

            @Override
            public int hardTimeout() {
                return 0;
            }

            @Override
            public int tableSize() {
                return 1 << 20;
            }

            @Override
            public int macAge() {
                return 300;
            }
        };
    }
}
