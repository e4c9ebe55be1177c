package net.beaconcontroller.openflow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * Fuzzing of {@link OFMessageReader}: about a million random and mutated inputs per run, plus every split of a
 * stream. For every input the reader must either return a message, ask for more bytes ({@code null}, position
 * unchanged) or throw {@link OFParseException} (position unchanged), never anything else, never hang, never move
 * backwards; whatever it accepts must write and re-read to an equal message. The random seeds are fixed so a
 * failure reproduces.
 */
class OFMessageFuzzTest {
    private static final Duration BUDGET = Duration.ofSeconds(60);
    private static final List<byte[]> SEEDS = SampleMessages.all().stream().map(OFMessage::toByteArray).toList();

    /** Counts what the reader did, so the tests can check that the inputs reach deep into the parser. */
    static final class Outcome {
        int messages;
        int partial;
        int errors;
    }

    /** Reads until the buffer asks for more or fails, checking every invariant on the way. */
    static void readAll(ByteBuffer buf, Outcome outcome) {
        int limit = buf.limit();
        while (true) {
            int before = buf.position();
            OFMessage m;
            try {
                m = OFMessageReader.read(buf);
            } catch (OFParseException e) {
                assertEquals(before, buf.position(), "position after an error");
                assertEquals(limit, buf.limit());
                if (e.getMessage().contains("malformed (")) {
                    fail("an unchecked exception reached the last-resort handler: " + e.getMessage(), e.getCause());
                }
                outcome.errors++;
                return;
            } catch (RuntimeException e) {
                throw new AssertionError("unexpected " + e + " for " + hexOf(buf, before), e);
            }
            assertEquals(limit, buf.limit());
            if (m == null) {
                assertEquals(before, buf.position(), "position when more bytes are needed");
                outcome.partial++;
                return;
            }
            assertEquals(before + m.length(), buf.position(), "consumed exactly the message");
            assertFalse(m.toString().isEmpty());
            reparse(m);
            outcome.messages++;
        }
    }

    private static void reparse(OFMessage m) {
        try {
            assertEquals(m, OFMessageReader.read(ByteBuffer.wrap(m.toByteArray())), "write and re-read");
        } catch (OFParseException e) {
            throw new AssertionError("accepted " + m + " but not its own encoding: " + e.getMessage(), e);
        }
    }

    private static String hexOf(ByteBuffer buf, int from) {
        return OFWire.hex(buf, from, buf.limit() - from, 256);
    }

    @Test
    void randomBytes() {
        assertTimeoutPreemptively(BUDGET, () -> {
            var rnd = new SplittableRandom(1);
            var outcome = new Outcome();
            for (int i = 0; i < 200_000; i++) {
                var b = new byte[rnd.nextInt(120)];
                rnd.nextBytes(b);
                readAll(ByteBuffer.wrap(b), outcome);
            }
            assertTrue(outcome.errors > 100_000, "most random bytes are rejected");
        });
    }

    @Test
    void randomBodiesBehindPlausibleHeaders() {
        assertTimeoutPreemptively(BUDGET, () -> {
            var rnd = new SplittableRandom(2);
            var outcome = new Outcome();
            for (int i = 0; i < 300_000; i++) {
                int length = rnd.nextInt(8, 200);
                var b = new byte[length];
                rnd.nextBytes(b);
                b[0] = 1;
                b[1] = (byte) rnd.nextInt(22);
                b[2] = (byte) (length >>> 8);
                b[3] = (byte) length;
                if (length >= 10 && (b[1] == OFType.STATS_REPLY.value() || b[1] == OFType.STATS_REQUEST.value())) {
                    // Steer the stats type towards the defined ones so the bodies get exercised.
                    b[8] = 0;
                    b[9] = (byte) rnd.nextInt(7);
                }
                readAll(ByteBuffer.wrap(b), outcome);
            }
            assertTrue(outcome.messages > 10_000, "some random bodies are valid: " + outcome.messages);
            assertTrue(outcome.errors > 10_000, "most are not: " + outcome.errors);
        });
    }

    @Test
    void mutatedValidMessages() {
        assertTimeoutPreemptively(BUDGET, () -> {
            var rnd = new SplittableRandom(3);
            var outcome = new Outcome();
            for (int i = 0; i < 400_000; i++) {
                byte[] b = mutate(SEEDS.get(rnd.nextInt(SEEDS.size())), rnd);
                readAll(ByteBuffer.wrap(b), outcome);
            }
            assertTrue(outcome.messages > 50_000, "mutations that stay valid: " + outcome.messages);
            assertTrue(outcome.errors > 50_000, "mutations that are rejected: " + outcome.errors);
            assertTrue(outcome.partial > 10_000, "mutations that ask for more bytes: " + outcome.partial);
        });
    }

    /** One to four mutations of a valid message: bit flips, bytes, length fields, inner lengths, truncation. */
    static byte[] mutate(byte[] seed, SplittableRandom rnd) {
        byte[] b = seed.clone();
        int n = rnd.nextInt(1, 5);
        for (int k = 0; k < n && b.length > 0; k++) {
            switch (rnd.nextInt(7)) {
                case 0 -> b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
                case 1 -> b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
                case 2 -> {
                    if (b.length >= 4) {
                        int[] lengths = {0, 7, 8, b.length - 1, b.length + 1, 0xffff, rnd.nextInt(0x10000)};
                        int v = lengths[rnd.nextInt(lengths.length)];
                        b[2] = (byte) (v >>> 8);
                        b[3] = (byte) v;
                    }
                }
                case 3 -> {
                    // Inner length fields sit at even offsets: zero or max one.
                    if (b.length >= 2) {
                        int at = rnd.nextInt(b.length / 2) * 2;
                        int v = rnd.nextBoolean() ? 0 : 0xffff;
                        b[at] = (byte) (v >>> 8);
                        b[at + 1] = (byte) v;
                    }
                }
                case 4 -> b = java.util.Arrays.copyOf(b, rnd.nextInt(b.length));
                case 5 -> {
                    // Grow the message with junk and declare the new length.
                    int extra = rnd.nextInt(1, 64);
                    b = java.util.Arrays.copyOf(b, b.length + extra);
                    for (int i = b.length - extra; i < b.length; i++) {
                        b[i] = (byte) rnd.nextInt(256);
                    }
                    if (b.length >= 4 && b.length <= 0xffff) {
                        b[2] = (byte) (b.length >>> 8);
                        b[3] = (byte) b.length;
                    }
                }
                default -> {
                    if (b.length >= 2) {
                        b[1] = (byte) rnd.nextInt(24);
                    }
                }
            }
        }
        return b;
    }

    /**
     * Messages are compared by their encoding taken right after reading: PACKET_IN frames are views of the read
     * buffer, which {@code compact()} overwrites, exactly as the controller's reused buffers do.
     */
    @Test
    void aStreamSplitAtEveryBoundaryYieldsTheSameMessages() {
        assertTimeoutPreemptively(BUDGET, () -> {
            byte[] stream = concat();
            var buf = ByteBuffer.allocate(stream.length);
            for (int split = 0; split <= stream.length; split++) {
                buf.clear();
                buf.put(stream, 0, split).flip();
                var got = new ArrayList<byte[]>();
                drain(buf, got);
                buf.compact();
                buf.put(stream, split, stream.length - split).flip();
                drain(buf, got);
                assertSameEncodings(got, "split at " + split);
                assertEquals(0, buf.remaining());
            }
        });
    }

    @Test
    void aStreamInRandomChunksYieldsTheSameMessages() {
        assertTimeoutPreemptively(BUDGET, () -> {
            byte[] stream = concat();
            var rnd = new SplittableRandom(4);
            var buf = ByteBuffer.allocate(stream.length);
            for (int run = 0; run < 2_000; run++) {
                buf.clear().flip();
                var got = new ArrayList<byte[]>();
                int at = 0;
                while (at < stream.length) {
                    int chunk = Math.min(stream.length - at, rnd.nextInt(1, 200));
                    buf.compact();
                    buf.put(stream, at, chunk).flip();
                    at += chunk;
                    drain(buf, got);
                }
                assertSameEncodings(got, "run " + run);
            }
        });
    }

    private static byte[] concat() {
        var out = ByteBuffer.allocate(SEEDS.stream().mapToInt(b -> b.length).sum());
        SEEDS.forEach(out::put);
        return out.array();
    }

    private static void drain(ByteBuffer buf, List<byte[]> into) throws OFParseException {
        for (OFMessage m; (m = OFMessageReader.read(buf)) != null;) {
            into.add(m.toByteArray());
        }
    }

    private static void assertSameEncodings(List<byte[]> got, String where) {
        assertEquals(SEEDS.size(), got.size(), where);
        for (int i = 0; i < got.size(); i++) {
            assertArrayEquals(SEEDS.get(i), got.get(i), where + ", message " + i);
        }
    }

    /** The reader never allocates more than a small multiple of what a message declares, and nothing to wait. */
    @Test
    void allocationIsBoundedByTheDeclaredLength() throws Exception {
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        // A header announcing 65535 bytes of which only 8 arrived: nothing may be allocated for them.
        var header = ByteBuffer.wrap(CodecTestSupport.hex("01 0d ffff 00000001"));
        for (int i = 0; i < 1_000; i++) {
            OFMessageReader.read(header);
        }
        long before = mx.getThreadAllocatedBytes(self);
        for (int i = 0; i < 1_000; i++) {
            OFMessageReader.read(header);
        }
        assertTrue(mx.getThreadAllocatedBytes(self) - before < 1_000, "waiting for a body allocates nothing");

        for (byte[] seed : SEEDS) {
            var buf = ByteBuffer.wrap(seed);
            for (int i = 0; i < 100; i++) {
                OFMessageReader.read(buf.clear());
            }
            before = mx.getThreadAllocatedBytes(self);
            OFMessageReader.read(buf.clear());
            long allocated = mx.getThreadAllocatedBytes(self) - before;
            assertTrue(allocated <= 1024 + 8L * seed.length,
                    () -> allocated + " bytes allocated to read " + seed.length + ": " + hexOf(buf.clear(), 0));
        }
    }
}
