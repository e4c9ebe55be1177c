package net.beaconcontroller.benchmarks;

import java.nio.ByteBuffer;
import java.util.List;
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

import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessageReader;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.action.OFActionOutput;
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
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class FrameBenchmark {
    private static final long KNOWN_DST = 0x0000_0000_0002L;
    private static final int KNOWN_DST_PORT = 2;

    private final Frame frame = new Frame();
    private ByteBuffer in;
    private ByteBuffer view;
    private ByteBuffer out;

    /** The controller reads into a direct buffer; {@link PacketInFlowModBenchmark} uses a heap one. */
    @Param({"heap", "direct"})
    public String buffer;

    @Setup
    public void setUp() {
        in = buffer.equals("direct") ? ByteBuffer.allocateDirect(18 + 60) : ByteBuffer.allocate(18 + 60);
        in.put((byte) 1).put((byte) 10).putShort((short) 78).putInt(0x1234) // header: version, PACKET_IN, length, xid
                .putInt(0x100).putShort((short) 60).putShort((short) 1).put((byte) 0).put((byte) 0);
        in.put(new byte[] {0, 0, 0, 0, 0, 2}).put(new byte[] {0, 0, 0, 0, 0, 1}).putShort((short) 0x0800); // Ethernet
        in.put((byte) 0x45).put((byte) 0).putShort((short) 46).putInt(0).put((byte) 64).put((byte) 17) // IPv4
                .putShort((short) 0).putInt(0x0a00_0001).putInt(0x0a00_0002);
        in.putShort((short) 1234).putShort((short) 5678).putShort((short) 26).putShort((short) 0); // UDP
        in.put(new byte[18]); // payload up to 60 bytes
        in.flip();
        view = in.duplicate().position(18);
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
        int outPort = frame.dlDst() == KNOWN_DST ? KNOWN_DST_PORT : OFPort.FLOOD;
        OFFlowMod fm = OFFlowMod.builder()
                .xid(pi.xid())
                .match(OFMatch.fromFrame(frame, pi.inPort()))
                .idleTimeout(5)
                .bufferId(pi.bufferId())
                .actions(List.of(new OFActionOutput(outPort, 0)))
                .build();
        out.clear();
        fm.writeTo(out);
        return out.position();
    }
}
