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
    /** The learning switch has seen this destination on port 2. */
    private static final long KNOWN_DST = 0x0000_0000_0002L;
    private static final int KNOWN_DST_PORT = 2;

    private ByteBuffer in;
    private ByteBuffer out;

    @Setup
    public void setUp() {
        // A PACKET_IN as cbench sends it: buffered, from port 1, carrying a 60-byte Ethernet/IPv4/UDP frame.
        in = ByteBuffer.allocate(18 + 60);
        in.put((byte) 1).put((byte) 10).putShort((short) 78).putInt(0x1234) // header: version, PACKET_IN, length, xid
                .putInt(0x100).putShort((short) 60).putShort((short) 1).put((byte) 0).put((byte) 0);
        in.put(new byte[] {0, 0, 0, 0, 0, 2}).put(new byte[] {0, 0, 0, 0, 0, 1}).putShort((short) 0x0800); // Ethernet
        in.put((byte) 0x45).put((byte) 0).putShort((short) 46).putInt(0).put((byte) 64).put((byte) 17) // IPv4
                .putShort((short) 0).putInt(0x0a00_0001).putInt(0x0a00_0002);
        in.putShort((short) 1234).putShort((short) 5678).putShort((short) 26).putShort((short) 0); // UDP
        in.put(new byte[18]); // payload up to 60 bytes
        in.flip();
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
        int outPort = dst == KNOWN_DST ? KNOWN_DST_PORT : OFPort.FLOOD;
        OFFlowMod fm = OFFlowMod.builder()
                .xid(pi.xid())
                .match(OFMatch.fromPacket(frame, pi.inPort()))
                .idleTimeout(5)
                .bufferId(pi.bufferId())
                .actions(List.of(new OFActionOutput(outPort, 0)))
                .build();
        out.clear();
        fm.writeTo(out);
        return out.position();
    }
}
