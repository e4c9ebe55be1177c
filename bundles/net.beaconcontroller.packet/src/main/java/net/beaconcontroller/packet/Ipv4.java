package net.beaconcontroller.packet;

import java.nio.ByteBuffer;
import java.util.Objects;
import net.beaconcontroller.util.IPv4Address;

/**
 * An IPv4 packet (RFC 791). Header length, total length and header checksum are derived: {@link #serialize()}
 * computes them. {@code headerChecksum} is the value found on the wire, kept so that {@link #checksumValid()} can tell
 * whether it was right; parsing never rejects a packet for its checksum (switches forward such packets too).
 *
 * <p>The payload is parsed by protocol: 6 {@link Tcp}, 17 {@link Udp}, 1 {@link Icmp}. A fragment (more-fragments
 * set or a non-zero offset) is kept as {@link Data}, since it holds only part of the transport message, as is any
 * other protocol.
 *
 * @param tos type of service byte (DSCP and ECN)
 * @param identification u16
 * @param flags the three flag bits: {@link #FLAG_DF}, {@link #FLAG_MF} and the reserved bit 4
 * @param fragmentOffset in units of 8 bytes, 0..8191
 * @param ttl time to live, u8
 * @param protocol u8; must match a TCP, UDP or ICMP payload
 * @param headerChecksum the checksum as received; see {@link Builder} for values built from scratch
 * @param source source address
 * @param destination destination address
 * @param options raw header options, a multiple of 4 bytes, at most 40
 * @param payload what the packet carries
 */
public record Ipv4(int tos, int identification, int flags, int fragmentOffset, int ttl, int protocol,
        int headerChecksum, int source, int destination, Bytes options, IpPayload payload) implements EthernetPayload {
    public static final int PROTOCOL_ICMP = 1;
    public static final int PROTOCOL_TCP = 6;
    public static final int PROTOCOL_UDP = 17;
    public static final int FLAG_MF = 1;
    public static final int FLAG_DF = 2;
    public static final int MIN_HEADER_LENGTH = 20;
    public static final int MAX_TOTAL_LENGTH = 0xffff;

    public Ipv4 {
        checkRange(tos, 0xff, "TOS");
        checkRange(identification, 0xffff, "identification");
        checkRange(flags, 7, "flags");
        checkRange(fragmentOffset, 0x1fff, "fragment offset");
        checkRange(ttl, 0xff, "TTL");
        checkRange(protocol, 0xff, "protocol");
        checkRange(headerChecksum, 0xffff, "header checksum");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(payload, "payload");
        if (options.length() % 4 != 0 || options.length() > 40) {
            throw new IllegalArgumentException("IPv4 options must be a multiple of 4 bytes up to 40, not "
                    + options.length());
        }
        if (MIN_HEADER_LENGTH + options.length() + payload.length() > MAX_TOTAL_LENGTH) {
            throw new IllegalArgumentException("IPv4 packet longer than 65535 bytes");
        }
        int expected = expectedProtocol(payload);
        if (expected >= 0 && expected != protocol) {
            throw new IllegalArgumentException(payload.getClass().getSimpleName() + " goes with protocol " + expected
                    + ", not " + protocol);
        }
    }

    private static void checkRange(int v, int max, String what) {
        if (v < 0 || v > max) {
            throw new IllegalArgumentException("IPv4 " + what + " must be 0.." + max + ", not " + v);
        }
    }

    private static int expectedProtocol(IpPayload p) {
        if (p instanceof Tcp) {
            return PROTOCOL_TCP;
        } else if (p instanceof Udp) {
            return PROTOCOL_UDP;
        } else if (p instanceof Icmp) {
            return PROTOCOL_ICMP;
        }
        return -1;
    }

    /** An empty builder: TTL 64, everything else zero or empty. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this packet's fields. */
    public Builder toBuilder() {
        return new Builder().tos(tos).identification(identification).flags(flags).fragmentOffset(fragmentOffset)
                .ttl(ttl).protocol(protocol).source(source).destination(destination).options(options)
                .payload(payload);
    }

    /** Parses a packet; bytes after its total length are ignored. */
    public static Ipv4 parse(byte[] buf) throws PacketParseException {
        return parse(ByteBuffer.wrap(buf));
    }

    /**
     * Parses the packet at {@code offset}; {@code length} bytes are available, the total length field says how many
     * belong to the packet.
     *
     * @throws PacketParseException for a truncated header, a version other than 4, an IHL below 5, a total length
     *         shorter than the header or longer than the bytes available, or a malformed TCP/UDP/ICMP header
     */
    public static Ipv4 parse(byte[] buf, int offset, int length) throws PacketParseException {
        return parse(ByteBuffer.wrap(buf, offset, length));
    }

    /**
     * As {@link #parse(byte[], int, int)}, on the bytes between the buffer's position and limit; the buffer is not
     * changed and the result copies what it keeps.
     *
     * @throws PacketParseException for a truncated header, a version other than 4, an IHL below 5, a total length
     *         shorter than the header or longer than the bytes available, or a malformed TCP/UDP/ICMP header
     */
    public static Ipv4 parse(ByteBuffer packet) throws PacketParseException {
        ByteBuffer b = Wire.bigEndian(packet);
        return parseIn(b, b.position(), b.remaining());
    }

    static Ipv4 parseIn(ByteBuffer b, int off, int len) throws PacketParseException {
        Wire.need(len, MIN_HEADER_LENGTH, "IPv4 header");
        int version = Wire.u8(b, off) >>> 4;
        if (version != 4) {
            throw new PacketParseException("IPv4 version field is " + version + ", expected 4");
        }
        int ihl = Wire.u8(b, off) & 0xf;
        if (ihl < 5) {
            throw new PacketParseException("IPv4 header length (IHL) " + ihl + " is below the minimum 5");
        }
        int headerLength = ihl * 4;
        Wire.need(len, headerLength, "IPv4 header with options (IHL " + ihl + ")");
        int total = Wire.u16(b, off + 2);
        if (total < headerLength) {
            throw new PacketParseException("IPv4 total length " + total + " is shorter than its " + headerLength
                    + "-byte header");
        }
        if (total > len) {
            throw new PacketParseException("IPv4 total length " + total + " exceeds the " + len + " bytes present");
        }
        int flagsAndOffset = Wire.u16(b, off + 6);
        int flags = flagsAndOffset >>> 13;
        int fragmentOffset = flagsAndOffset & 0x1fff;
        int protocol = Wire.u8(b, off + 9);
        int at = off + headerLength;
        int payloadLength = total - headerLength;
        IpPayload payload;
        if ((flags & FLAG_MF) != 0 || fragmentOffset != 0) {
            payload = new Data(Bytes.copyOf(b, at, payloadLength));
        } else {
            payload = switch (protocol) {
                case PROTOCOL_TCP -> Tcp.parseIn(b, at, payloadLength);
                case PROTOCOL_UDP -> Udp.parseIn(b, at, payloadLength);
                case PROTOCOL_ICMP -> Icmp.parseIn(b, at, payloadLength);
                default -> new Data(Bytes.copyOf(b, at, payloadLength));
            };
        }
        return new Ipv4(Wire.u8(b, off + 1), Wire.u16(b, off + 4), flags, fragmentOffset, Wire.u8(b, off + 8),
                protocol, Wire.u16(b, off + 10), Wire.i32(b, off + 12), Wire.i32(b, off + 16),
                Bytes.copyOf(b, off + MIN_HEADER_LENGTH, headerLength - MIN_HEADER_LENGTH), payload);
    }

    public int headerLength() {
        return MIN_HEADER_LENGTH + options.length();
    }

    /** The total length field: header plus payload. */
    public int totalLength() {
        return headerLength() + payload.length();
    }

    @Override
    public int length() {
        return totalLength();
    }

    public int dscp() {
        return tos >>> 2;
    }

    public int ecn() {
        return tos & 3;
    }

    public boolean dontFragment() {
        return (flags & FLAG_DF) != 0;
    }

    public boolean moreFragments() {
        return (flags & FLAG_MF) != 0;
    }

    /** True for any fragment, first, middle or last. */
    public boolean isFragment() {
        return moreFragments() || fragmentOffset != 0;
    }

    /** The header checksum {@link #serialize()} writes. */
    public int computeHeaderChecksum() {
        var header = new byte[headerLength()];
        writeHeader(header, 0, 0);
        return Wire.checksum(Wire.sum(header, 0, header.length, 0));
    }

    /** Whether {@code headerChecksum} is right for the other header fields. */
    public boolean checksumValid() {
        var header = new byte[headerLength()];
        writeHeader(header, 0, 0);
        return Wire.verifies(Wire.sum(header, 0, header.length, 0), headerChecksum);
    }

    /**
     * Whether the header checksum and, for a TCP, UDP or ICMP payload, that checksum are right. A payload kept as
     * Data has nothing to verify.
     */
    public boolean checksumsValid() {
        if (!checksumValid()) {
            return false;
        }
        if (payload instanceof Tcp tcp) {
            return tcp.checksumValid(source, destination);
        } else if (payload instanceof Udp udp) {
            return udp.checksumValid(source, destination);
        } else if (payload instanceof Icmp icmp) {
            return icmp.checksumValid();
        }
        return true;
    }

    /** The packet's bytes with total length, header checksum and transport checksum computed. */
    public byte[] serialize() {
        var out = new byte[totalLength()];
        writeTo(out, 0);
        return out;
    }

    void writeTo(byte[] d, int off) {
        int headerLength = headerLength();
        writeHeader(d, off, 0);
        Wire.put16(d, off + 10, Wire.checksum(Wire.sum(d, off, headerLength, 0)));
        int at = off + headerLength;
        if (payload instanceof Tcp tcp) {
            tcp.writeTo(d, at, source, destination);
        } else if (payload instanceof Udp udp) {
            udp.writeTo(d, at, source, destination);
        } else if (payload instanceof Icmp icmp) {
            icmp.writeTo(d, at);
        } else {
            ((Data) payload).bytes().copyTo(d, at);
        }
    }

    private void writeHeader(byte[] d, int off, int checksum) {
        d[off] = (byte) (0x40 | (headerLength() / 4));
        d[off + 1] = (byte) tos;
        Wire.put16(d, off + 2, totalLength());
        Wire.put16(d, off + 4, identification);
        Wire.put16(d, off + 6, (flags << 13) | fragmentOffset);
        d[off + 8] = (byte) ttl;
        d[off + 9] = (byte) protocol;
        Wire.put16(d, off + 10, checksum);
        Wire.put32(d, off + 12, source);
        Wire.put32(d, off + 16, destination);
        options.copyTo(d, off + MIN_HEADER_LENGTH);
    }

    @Override
    public String toString() {
        var s = new StringBuilder("IPv4[").append(IPv4Address.toString(source)).append(" > ")
                .append(IPv4Address.toString(destination)).append(", proto ").append(protocol).append(", ttl ")
                .append(ttl).append(", id ").append(identification);
        if (tos != 0) {
            s.append(", tos ").append(String.format("0x%02x", tos));
        }
        if (dontFragment()) {
            s.append(", DF");
        }
        if (moreFragments()) {
            s.append(", MF");
        }
        if ((flags & 4) != 0) {
            s.append(", reserved flag");
        }
        if (fragmentOffset != 0) {
            s.append(", frag offset ").append(fragmentOffset * 8);
        }
        if (!options.isEmpty()) {
            s.append(", options ").append(options);
        }
        s.append(", checksum ").append(Wire.hex16(headerChecksum));
        if (!checksumValid()) {
            s.append(" (bad)");
        }
        return s.append(", ").append(payload).append(']').toString();
    }

    /**
     * Assembles a packet. {@link #build()} derives the protocol from a TCP, UDP or ICMP payload, stores the payload's
     * correct checksum for these addresses and the correct header checksum, so a built packet equals what parsing its
     * bytes gives back.
     */
    public static final class Builder {
        private int tos;
        private int identification;
        private int flags;
        private int fragmentOffset;
        private int ttl = 64;
        private int protocol = -1;
        private int source;
        private int destination;
        private Bytes options = Bytes.EMPTY;
        private IpPayload payload = Data.EMPTY;

        private Builder() {
        }

        public Builder tos(int v) {
            this.tos = v;
            return this;
        }

        public Builder identification(int v) {
            this.identification = v;
            return this;
        }

        /** The three flag bits, e.g. {@link Ipv4#FLAG_DF}. */
        public Builder flags(int v) {
            this.flags = v;
            return this;
        }

        /** In units of 8 bytes. */
        public Builder fragmentOffset(int v) {
            this.fragmentOffset = v;
            return this;
        }

        /** Default 64. */
        public Builder ttl(int v) {
            this.ttl = v;
            return this;
        }

        /** Needed only for a Data payload. */
        public Builder protocol(int v) {
            this.protocol = v;
            return this;
        }

        public Builder source(int ip) {
            this.source = ip;
            return this;
        }

        public Builder destination(int ip) {
            this.destination = ip;
            return this;
        }

        public Builder options(Bytes v) {
            this.options = Objects.requireNonNull(v, "options");
            return this;
        }

        public Builder payload(IpPayload p) {
            this.payload = Objects.requireNonNull(p, "payload");
            return this;
        }

        /**
         * @throws IllegalStateException when the payload is Data and no protocol was set
         * @throws IllegalArgumentException when a field is out of range or contradicts the payload
         */
        public Ipv4 build() {
            int proto = protocol;
            if (proto < 0) {
                proto = expectedProtocol(payload);
                if (proto < 0) {
                    throw new IllegalStateException("set the protocol for a Data payload");
                }
            }
            IpPayload p = payload;
            if (p instanceof Tcp tcp) {
                p = tcp.withChecksum(tcp.computeChecksum(source, destination));
            } else if (p instanceof Udp udp && udp.hasChecksum()) {
                p = udp.withChecksum(udp.computeChecksum(source, destination));
            } else if (p instanceof Icmp icmp) {
                p = icmp.withChecksum(icmp.computeChecksum());
            }
            var unsummed = new Ipv4(tos, identification, flags, fragmentOffset, ttl, proto, 0, source, destination,
                    options, p);
            return new Ipv4(tos, identification, flags, fragmentOffset, ttl, proto, unsummed.computeHeaderChecksum(),
                    source, destination, options, p);
        }
    }
}
