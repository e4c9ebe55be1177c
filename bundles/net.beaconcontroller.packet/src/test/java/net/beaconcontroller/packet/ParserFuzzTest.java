package net.beaconcontroller.packet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/**
 * Malformed input of every kind: random bytes, truncated, bit-flipped and overwritten reference frames. Each parse must
 * return a value or throw {@link PacketParseException}, nothing else, finish within a bound, and allocate no more than
 * a small multiple of its input. A value it returns must serialize to bytes that parse again to the same bytes.
 */
class ParserFuzzTest {
    /** Parses run on one daemon worker so that an endless loop fails the test instead of hanging it. */
    private static final ExecutorService WORKER = Executors.newSingleThreadExecutor(r -> {
        var t = new Thread(r, "packet-fuzz");
        t.setDaemon(true);
        return t;
    });
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    /** Records, lists and copies: a generous bound that still catches a buffer sized by a length field. */
    private static final long ALLOCATION_BASE = 32 * 1024;
    private static final long ALLOCATION_PER_BYTE = 32;
    private static final List<byte[]> SEEDS = PacketArbitraries.referenceFrames();

    @FunctionalInterface
    interface Parser {
        Object parse(byte[] b) throws PacketParseException;
    }

    @Provide
    Arbitrary<byte[]> seeds() {
        return Arbitraries.of(SEEDS).map(byte[]::clone);
    }

    @Property(tries = 1500)
    void randomBytes(@ForAll @Size(max = 300) byte[] frame) {
        checkFrame(frame);
        bothOutcomesSeen();
    }

    @Property(tries = 1500)
    void randomBytesBehindAKnownHeader(@ForAll("seeds") byte[] seed, @ForAll @IntRange(min = 12, max = 60) int keep,
            @ForAll @Size(max = 300) byte[] tail) {
        int n = Math.min(keep, seed.length);
        var frame = Arrays.copyOf(seed, n + tail.length);
        System.arraycopy(tail, 0, frame, n, tail.length);
        checkFrame(frame);
        bothOutcomesSeen();
    }

    @Property(tries = 1500)
    void truncatedFrames(@ForAll("seeds") byte[] seed, @ForAll @IntRange(max = 400) int length) {
        checkFrame(Arrays.copyOf(seed, Math.min(length, seed.length)));
        bothOutcomesSeen();
    }

    @Property(tries = 3000)
    void bitFlips(@ForAll("seeds") byte[] seed,
            @ForAll @Size(min = 1, max = 6) List<@IntRange(max = 1 << 20) Integer> bits) {
        for (int bit : bits) {
            int i = bit % (seed.length * 8);
            seed[i / 8] ^= (byte) (1 << (i % 8));
        }
        checkFrame(seed);
        bothOutcomesSeen();
    }

    @Property(tries = 3000)
    void overwrittenBytes(@ForAll("seeds") byte[] seed,
            @ForAll @Size(min = 1, max = 4) List<@IntRange(max = 1 << 20) Integer> positions,
            @ForAll("interestingBytes") byte value) {
        for (int p : positions) {
            seed[p % seed.length] = value;
        }
        checkFrame(seed);
        bothOutcomesSeen();
    }

    @Provide
    Arbitrary<Byte> interestingBytes() {
        return Arbitraries.oneOf(Arbitraries.of((byte) 0, (byte) 1, (byte) 0x7f, (byte) 0x80, (byte) 0xff),
                Arbitraries.bytes());
    }

    @Property(tries = 2000)
    void layerParsersAlone(@ForAll("seeds") byte[] seed, @ForAll @IntRange(max = 400) int from,
            @ForAll @IntRange(max = 400) int length, @ForAll @IntRange(max = 6) int layer) {
        int start = Math.min(from, seed.length);
        var slice = Arrays.copyOfRange(seed, start, Math.min(seed.length, start + length));
        Parser parser = switch (layer) {
            case 0 -> Ipv4::parse;
            case 1 -> Tcp::parse;
            case 2 -> Udp::parse;
            case 3 -> Icmp::parse;
            case 4 -> Arp::parse;
            case 5 -> Lldp::parse;
            default -> Dhcp::parse;
        };
        parseBounded(slice, parser);
    }

    @Property(tries = 1000)
    void randomBytesAsEachLayer(@ForAll @Size(max = 600) byte[] bytes) {
        for (Parser p : List.<Parser>of(Ipv4::parse, Tcp::parse, Udp::parse, Icmp::parse, Arp::parse, Lldp::parse,
                Dhcp::parse)) {
            parseBounded(bytes, p);
        }
    }

    @Example
    void lengthFieldsDoNotDriveAllocations() {
        // Every length field at its maximum, with almost nothing behind it.
        List<String> liars = List.of(
                "ffffffffffff525400123456" + "0800" + "4500ffff00000000401100000a0000010a000002",
                "ffffffffffff525400123456" + "0800" + "4500001c00000000401100000a0000010a000002" + "00430044ffff0000",
                "ffffffffffff525400123456" + "0800" + "4500002800000000400600000a0000010a000002"
                        + "000100020000000000000000f0ff000000000000",
                "ffffffffffff525400123456" + "05dc" + "4242",
                "0180c200000e525400123456" + "88cc" + "03ff" + "00",
                "0180c200000e525400123456" + "88cc" + "1001ff");
        for (String liar : liars) {
            byte[] frame = Vectors.hex(liar);
            var result = parseBounded(frame, Ethernet::parse);
            assertTrue(result instanceof PacketParseException, () -> liar + " gave " + result);
        }
    }

    /** Fails the property unless at least 5 % of its tries parsed and 5 % were rejected. */
    private static void bothOutcomesSeen() {
        Statistics.coverage(c -> {
            c.check("parsed").percentage(p -> p >= 5);
            c.check("rejected").percentage(p -> p >= 5);
        });
    }

    /**
     * Parses a frame; a value must re-serialize to bytes that are a fixed point of parse → serialize. Counts the
     * outcome, so that a property can check that it exercised both.
     */
    private static void checkFrame(byte[] frame) {
        Object result = parseBounded(frame, Ethernet::parse);
        Statistics.collect(result instanceof Ethernet ? "parsed" : "rejected");
        if (result instanceof Ethernet e) {
            byte[] again = e.serialize();
            assertEquals(e.length(), again.length);
            if (parseBounded(again, Ethernet::parse) instanceof Ethernet reparsed) {
                assertArrayEquals(again, reparsed.serialize());
            } else {
                fail("the serialization of " + e + " does not parse: " + Bytes.of(again).toHex());
            }
        }
    }

    /**
     * Runs {@code parser} on the worker with a time limit, returning the value or the {@link PacketParseException};
     * fails on anything else, on a timeout and on excessive allocation.
     */
    private static Object parseBounded(byte[] input, Parser parser) {
        var future = WORKER.submit(() -> {
            long before = THREADS.getCurrentThreadAllocatedBytes();
            Object result;
            try {
                result = parser.parse(input);
                // toString and checksums read every field: they must work on anything parse accepts
                assertTrue(result.toString().length() > 0);
            } catch (PacketParseException e) {
                result = e;
            }
            long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
            long limit = ALLOCATION_BASE + ALLOCATION_PER_BYTE * input.length;
            assertTrue(allocated <= limit, () -> "allocated " + allocated + " bytes for " + input.length
                    + " bytes of input: " + Bytes.of(input).toHex());
            return result;
        });
        try {
            Object result = future.get(5, TimeUnit.SECONDS);
            if (result instanceof PacketParseException e) {
                assertTrue(e.getMessage() != null && !e.getMessage().isBlank());
            }
            return result;
        } catch (TimeoutException e) {
            future.cancel(true);
            return fail("parser did not finish within 5 s on " + Bytes.of(input).toHex());
        } catch (ExecutionException e) {
            return fail("parser threw " + e.getCause() + " on " + Bytes.of(input).toHex(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted");
        }
    }
}
