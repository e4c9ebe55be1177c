package net.beaconcontroller.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import net.beaconcontroller.packet.Views.Kind;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link Frame} on well-formed and on broken frames: it agrees with the packet library's decode wherever that
 * succeeds, never throws, and reads nothing outside its view (a view in the middle of garbage, of any kind of
 * buffer, says exactly what the frame alone says; a read past the limit would throw).
 */
class FramePropertiesTest {
    private final Frame reused = new Frame();

    @Provide
    Arbitrary<byte[]> builtFrames() {
        return Arbitraries.oneOf(PacketArbitraries.frames(), PacketArbitraries.rawFrames()).map(Ethernet::serialize);
    }

    @Property(tries = 600, edgeCases = EdgeCasesMode.NONE)
    void agreesWithTheFullDecodeOfBuiltFrames(@ForAll("builtFrames") byte[] frame, @ForAll Kind kind) {
        assertTrue(FrameAgreement.check(reused.wrap(ByteBuffer.wrap(frame))), "built frames decode");
        assertSameInAnyView(frame, kind);
    }

    @Provide
    Arbitrary<byte[]> seeds() {
        return Arbitraries.of(PacketArbitraries.referenceFrames()).map(byte[]::clone);
    }

    @Property(tries = 3000)
    void mutatedFrames(@ForAll("seeds") byte[] seed,
            @ForAll @Size(min = 1, max = 6) List<@IntRange(max = 1 << 20) Integer> positions,
            @ForAll("interestingBytes") byte value, @ForAll @IntRange(max = 400) int cut, @ForAll Kind kind) {
        for (int p : positions) {
            seed[p % seed.length] = value;
        }
        check(Arrays.copyOf(seed, Math.min(cut, seed.length)), kind);
    }

    @Provide
    Arbitrary<Byte> interestingBytes() {
        return Arbitraries.oneOf(Arbitraries.of((byte) 0, (byte) 0x08, (byte) 0x45, (byte) 0x81, (byte) 0xaa,
                (byte) 0xff), Arbitraries.bytes());
    }

    /** Random bytes behind link-layer headers of every kind, so that each branch is reached with garbage. */
    @Property(tries = 3000)
    void randomBytesBehindEveryKindOfHeader(@ForAll("headers") String header, @ForAll @Size(max = 80) byte[] tail,
            @ForAll Kind kind) {
        byte[] head = Vectors.hex(header);
        byte[] frame = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, frame, head.length, tail.length);
        check(frame, kind);
    }

    @Provide
    Arbitrary<String> headers() {
        String macs = "525400abcdef525400123456";
        return Arbitraries.of(macs + "0800", macs + "0800" + "45", macs + "0800" + "4f", macs + "0806",
                macs + "0806" + "000108000604", macs + "8035" + "000108000604", macs + "8100" + "0064" + "0800",
                macs + "88a8" + "e001" + "0806", macs + "0026" + "aaaa03000000" + "0800", macs + "05dc" + "4242",
                macs + "88cc", macs + "0800" + "4500003c0000" + "0000" + "4006");
    }

    @Property(tries = 1000)
    void randomBytes(@ForAll @Size(max = 120) byte[] frame, @ForAll Kind kind) {
        check(frame, kind);
    }

    private void check(byte[] frame, Kind kind) {
        boolean decoded = FrameAgreement.check(reused.wrap(ByteBuffer.wrap(frame)));
        Statistics.collect(decoded ? "decoded" : "rejected");
        assertSameInAnyView(frame, kind);
    }

    private void assertSameInAnyView(byte[] frame, Kind kind) {
        FrameFields alone = FrameFields.of(reused.wrap(ByteBuffer.wrap(frame)));
        ByteBuffer view = Views.embedded(frame, kind, (byte) 0x45);
        assertEquals(alone, FrameFields.of(reused.wrap(view)), kind + " view");
        // Once more after another frame: nothing of that one may stay behind.
        reused.wrap(ByteBuffer.wrap(Vectors.hex(Vectors.TCP_SYN))).tpSrc();
        assertEquals(alone, FrameFields.of(reused.wrap(view)), "re-wrapped");
    }
}
