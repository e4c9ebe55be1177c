package net.beaconcontroller.benchmarks;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessageReader;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.packet.Frame;

/**
 * {@link Frame} on the hot path: re-wrapping the I/O thread's one Frame and reading what a learning switch and a
 * router read, the exact match from it, and the whole PACKET_IN → FLOW_MOD of {@link PacketInFlowModBenchmark} done
 * with one Frame (run both in the same JMH invocation to compare them).
 *
 * <p>The frame is cbench's 60-byte Ethernet/IPv4/UDP frame after an 18-byte PACKET_IN header, as in the controller's
 * read buffer: {@code java -jar cbench-scripts/jmh/target/benchmarks.jar 'Frame|PacketInFlowMod' -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
// Operations of 15 to 100 ns settle within a second.
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FrameBenchmark {
    private final Frame frame = new Frame();
    private ByteBuffer in;
    private ByteBuffer view;
    private ByteBuffer out;

    /** The controller reads into a direct buffer; {@link PacketInFlowModBenchmark} uses a heap one. */
    @Param({"heap", "direct"})
    public String buffer;

    @Setup
    public void setUp() {
        int n = CbenchPacketIn.LENGTH;
        in = CbenchPacketIn.fill(buffer.equals("direct") ? ByteBuffer.allocateDirect(n) : ByteBuffer.allocate(n));
        view = in.duplicate().position(CbenchPacketIn.FRAME_OFFSET);
        out = ByteBuffer.allocate(256);
    }

    /** What a learning switch and an IPv4 router look at, through the reused Frame. */
    @Benchmark
    public long wrapAndRead() {
        frame.wrap(view);
        long sum = frame.dlDst() ^ frame.dlSrc();
        if (!frame.isMulticast() && frame.vlanId() == Frame.VLAN_NONE && frame.isIpv4()) {
            sum += frame.ipv4Dst() + frame.ipv4Src() + frame.tpDst();
        }
        return sum;
    }

    @Benchmark
    public OFMatch fromFrame() {
        return OFMatch.fromFrame(frame.wrap(view), 1);
    }

    /** {@link PacketInFlowModBenchmark#packetInToFlowMod} with the frame parsed once, by the reused Frame. */
    @Benchmark
    public int packetInToFlowModWithFrame(Blackhole bh) throws OFParseException {
        in.position(0);
        var pi = (OFPacketIn) OFMessageReader.read(in);
        frame.wrap(pi.frame());
        bh.consume(frame.dlSrc());
        return CbenchPacketIn.writeFlowMod(pi, frame.dlDst(), OFMatch.fromFrame(frame, pi.inPort()), out);
    }
}
