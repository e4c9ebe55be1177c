package net.beaconcontroller.benchmarks;

import java.nio.ByteBuffer;
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
import org.openjdk.jmh.infra.Blackhole;

import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessageReader;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFParseException;

/**
 * The controller's hot path under cbench: read one buffered PACKET_IN, answer with the learning switch's FLOW_MOD
 * (exact match from the packet, idle timeout 5 s, the packet's buffer id, one output action) written into the
 * output buffer. Target: at most 100 ns per operation.
 *
 * <p>Without Maven: compile with the JMH annotation processor ({@code javac -cp <openflow and util classes>:<jmh
 * jars> -processorpath <jmh jars> ...}), then {@code java -cp <all of them> org.openjdk.jmh.Main PacketInFlowMod
 * -prof gc} (the {@code gc} profiler reports the bytes allocated per operation).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PacketInFlowModBenchmark {
    private ByteBuffer in;
    private ByteBuffer out;

    @Setup
    public void setUp() {
        in = CbenchPacketIn.fill(ByteBuffer.allocate(CbenchPacketIn.LENGTH));
        out = ByteBuffer.allocate(256);
    }

    @Benchmark
    public int packetInToFlowMod(Blackhole bh) throws OFParseException {
        in.position(0);
        var pi = (OFPacketIn) OFMessageReader.read(in);
        ByteBuffer frame = pi.frame();
        long dst = ((frame.getShort(0) & 0xffffL) << 32) | (frame.getInt(2) & 0xffff_ffffL);
        long src = ((frame.getShort(6) & 0xffffL) << 32) | (frame.getInt(8) & 0xffff_ffffL);
        bh.consume(src);
        return CbenchPacketIn.writeFlowMod(pi, dst, OFMatch.fromPacket(frame, pi.inPort()), out);
    }
}
