package net.beaconcontroller.packet;

import static net.beaconcontroller.packet.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import net.beaconcontroller.packet.Views.Kind;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The {@code parse(ByteBuffer)} entry points read the view between position and limit, whatever the buffer is, and
 * agree with the {@code byte[]} ones: same value, or a rejection for the same input.
 */
class ByteBufferParseTest {
    interface BufferParser {
        Object parse(ByteBuffer b) throws PacketParseException;
    }

    interface ArrayParser {
        Object parse(byte[] b, int offset, int length) throws PacketParseException;
    }

    /** One layer's parser both ways, with where its header lies in a reference frame. */
    record Layer(String name, BufferParser buffer, ArrayParser array, String vector, int offset, int length) {
        byte[] frame() {
            return hex(vector);
        }

        int lengthIn(byte[] frame) {
            return length < 0 ? frame.length - offset : length;
        }
    }

    private static final List<Layer> LAYERS = List.of(
            new Layer("Ethernet", Ethernet::parse, Ethernet::parse, Vectors.VLAN_PING, 0, -1),
            new Layer("Arp", Arp::parse, Arp::parse, Vectors.ARP_REQUEST, 14, -1),
            new Layer("Ipv4", Ipv4::parse, Ipv4::parse, Vectors.TCP_SYNACK_DATA, 14, -1),
            new Layer("Tcp", Tcp::parse, Tcp::parse, Vectors.TCP_SYNACK_DATA, 34, 85 - 34),
            new Layer("Udp", Udp::parse, Udp::parse, Vectors.UDP_DNS, 34, 71 - 34),
            new Layer("Icmp", Icmp::parse, Icmp::parse, Vectors.PING_REQUEST, 34, 98 - 34),
            new Layer("Lldp", Lldp::parse, Lldp::parse, Vectors.LLDP_LLDPD, 14, -1),
            new Layer("Dhcp", Dhcp::parse, Dhcp::parse, Vectors.DHCP_DISCOVER, 42, 342 - 42));

    @Test
    void everyLayerParsesTheSameFromAViewOfEveryKindOfBuffer() throws Exception {
        for (Layer layer : LAYERS) {
            byte[] frame = layer.frame();
            int n = layer.lengthIn(frame);
            Object expected = layer.array().parse(frame, layer.offset(), n);
            byte[] content = Arrays.copyOfRange(frame, layer.offset(), layer.offset() + n);
            for (Kind kind : Kind.values()) {
                ByteBuffer view = Views.embedded(content, kind, (byte) 0xff);
                int position = view.position();
                int limit = view.limit();
                byte[] before = Views.all(view);
                assertEquals(expected, layer.buffer().parse(view), layer.name() + " from a " + kind + " buffer");
                assertEquals(position, view.position(), layer.name() + ": the position stays");
                assertEquals(limit, view.limit());
                assertArrayEquals(before, Views.all(view));
            }
        }
    }

    @Test
    void theArrayRangeMustLieInsideTheArray() {
        byte[] frame = hex(Vectors.ARP_REPLY);
        assertThrows(IndexOutOfBoundsException.class, () -> Ethernet.parse(frame, 1, frame.length));
        assertThrows(IndexOutOfBoundsException.class, () -> Arp.parse(frame, -1, 28));
    }

    @Test
    void theResultOutlivesTheBuffer() throws Exception {
        byte[] frame = hex(Vectors.UDP_DNS);
        ByteBuffer view = Views.embedded(frame, Kind.HEAP, (byte) 0);
        Ethernet parsed = Ethernet.parse(view);
        view.put(view.position() + 40, (byte) 0x55).put(view.limit() - 1, (byte) 0x55);
        assertEquals(Ethernet.parse(frame), parsed);
    }

    @Provide
    Arbitrary<byte[]> seeds() {
        return Arbitraries.of(PacketArbitraries.referenceFrames()).map(byte[]::clone);
    }

    /**
     * Mutated frames and every layer's parser on any slice of them: a view surrounded by garbage gives what the
     * array gives, so nothing outside the view was read.
     */
    @Property(tries = 2000)
    void aViewAgreesWithTheArrayOnMutatedInput(@ForAll("seeds") byte[] seed,
            @ForAll @Size(max = 4) List<@IntRange(max = 1 << 20) Integer> positions, @ForAll byte value,
            @ForAll @IntRange(max = 400) int from, @ForAll @IntRange(max = 400) int length,
            @ForAll @IntRange(max = 7) int layer, @ForAll Kind kind, @ForAll byte garbage) {
        for (int p : positions) {
            seed[p % seed.length] = value;
        }
        int start = Math.min(from, seed.length);
        int n = Math.min(length, seed.length - start);
        Layer l = LAYERS.get(layer);
        Object fromArray = outcome(() -> l.array().parse(seed, start, n));
        ByteBuffer view = Views.embedded(Arrays.copyOfRange(seed, start, start + n), kind, garbage);
        assertEquals(fromArray, outcome(() -> l.buffer().parse(view)));
    }

    /** The value, or the rejection's message. */
    private static Object outcome(ThrowingSupplier parse) {
        try {
            return parse.get();
        } catch (PacketParseException e) {
            return e.getMessage();
        }
    }

    interface ThrowingSupplier {
        Object get() throws PacketParseException;
    }
}
