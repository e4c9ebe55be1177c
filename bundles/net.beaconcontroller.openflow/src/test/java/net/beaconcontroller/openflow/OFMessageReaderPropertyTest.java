package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Property-based checks of the reader with jqwik's generators and shrinking (the bulk of the random inputs is in
 * {@link OFMessageFuzzTest}, which is faster per input).
 */
class OFMessageReaderPropertyTest {
    private static final List<OFMessage> SAMPLES = SampleMessages.all();

    @Property(tries = 20_000)
    void anyBytesGiveAMessageNullOrAParseError(@ForAll @Size(max = 300) byte[] bytes) {
        OFMessageFuzzTest.readAll(ByteBuffer.wrap(bytes), new OFMessageFuzzTest.Outcome());
    }

    @Property(tries = 5_000)
    void anyHeaderWithAnyBody(@ForAll @IntRange(max = 23) int type, @ForAll @Size(max = 200) byte[] body) {
        var buf = ByteBuffer.allocate(8 + body.length);
        buf.put((byte) 1).put((byte) type).putShort((short) (8 + body.length)).putInt(7).put(body).flip();
        OFMessageFuzzTest.readAll(buf, new OFMessageFuzzTest.Outcome());
    }

    @Property(tries = 20_000)
    void anyByteOfAValidMessageChangedToAnyValue(@ForAll("samples") OFMessage m, @ForAll @IntRange(max = 2000) int at,
            @ForAll byte value) {
        byte[] b = m.toByteArray();
        Assume.that(at < b.length);
        b[at] = value;
        OFMessageFuzzTest.readAll(ByteBuffer.wrap(b), new OFMessageFuzzTest.Outcome());
    }

    @Property(tries = 5_000)
    void anyDeclaredLength(@ForAll("samples") OFMessage m, @ForAll @IntRange(max = 0xffff) int length) {
        var b = ByteBuffer.wrap(m.toByteArray());
        b.putShort(2, (short) length);
        OFMessageFuzzTest.readAll(b, new OFMessageFuzzTest.Outcome());
    }

    @Provide
    Arbitrary<OFMessage> samples() {
        return Arbitraries.of(SAMPLES);
    }
}
