package net.beaconcontroller.packet;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A TCP segment (RFC 9293). The data offset is derived from the options; the checksum covers the IPv4 pseudo-header,
 * so computing or verifying it needs the addresses: {@link #serialize(int, int)}, {@link #checksumValid(int, int)}.
 * {@code checksum} is the value found on the wire (with checksum offload it is often wrong; parsing accepts it).
 *
 * @param sourcePort u16
 * @param destinationPort u16
 * @param sequence u32
 * @param acknowledgment u32
 * @param flags the 12 bits after the data offset: 3 reserved bits, NS, CWR, ECE, URG, ACK, PSH, RST, SYN, FIN
 * @param window u16
 * @param checksum as received; {@link Ipv4.Builder} fills in the right one
 * @param urgentPointer u16
 * @param options raw options including any padding, a multiple of 4 bytes, at most 40
 * @param payload the segment's data
 */
public record Tcp(int sourcePort, int destinationPort, long sequence, long acknowledgment, int flags, int window,
        int checksum, int urgentPointer, Bytes options, Data payload) implements IpPayload {
    public static final int FIN = 0x001;
    public static final int SYN = 0x002;
    public static final int RST = 0x004;
    public static final int PSH = 0x008;
    public static final int ACK = 0x010;
    public static final int URG = 0x020;
    public static final int ECE = 0x040;
    public static final int CWR = 0x080;
    public static final int NS = 0x100;
    public static final int MIN_HEADER_LENGTH = 20;
    private static final String[] FLAG_NAMES = {"FIN", "SYN", "RST", "PSH", "ACK", "URG", "ECE", "CWR", "NS"};

    public Tcp {
        check(sourcePort, 0xffff, "source port");
        check(destinationPort, 0xffff, "destination port");
        if (sequence < 0 || sequence > 0xffff_ffffL || acknowledgment < 0 || acknowledgment > 0xffff_ffffL) {
            throw new IllegalArgumentException("TCP sequence and acknowledgment numbers are u32");
        }
        check(flags, 0xfff, "flags");
        check(window, 0xffff, "window");
        check(checksum, 0xffff, "checksum");
        check(urgentPointer, 0xffff, "urgent pointer");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(payload, "payload");
        if (options.length() % 4 != 0 || options.length() > 40) {
            throw new IllegalArgumentException("TCP options must be a multiple of 4 bytes up to 40, not "
                    + options.length());
        }
    }

    private static void check(int v, int max, String what) {
        if (v < 0 || v > max) {
            throw new IllegalArgumentException("TCP " + what + " must be 0.." + max + ", not " + v);
        }
    }

    /** An empty builder; see {@link Builder} for the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this segment's fields. */
    public Builder toBuilder() {
        return new Builder().sourcePort(sourcePort).destinationPort(destinationPort).sequence(sequence)
                .acknowledgment(acknowledgment).flags(flags).window(window).checksum(checksum)
                .urgentPointer(urgentPointer).options(options).payload(payload);
    }

    /** Parses a whole segment. */
    public static Tcp parse(byte[] segment) throws PacketParseException {
        return parse(ByteBuffer.wrap(segment));
    }

    /**
     * Parses a segment of {@code length} bytes (the IPv4 payload length) at {@code offset}.
     *
     * @throws PacketParseException for a truncated header or a data offset below 5 or past the segment
     */
    public static Tcp parse(byte[] buf, int offset, int length) throws PacketParseException {
        return parse(ByteBuffer.wrap(buf, offset, length));
    }

    /**
     * As {@link #parse(byte[], int, int)}, on the bytes between the buffer's position and limit; the buffer is not
     * changed and the result copies what it keeps.
     *
     * @throws PacketParseException for a truncated header or a data offset below 5 or past the segment
     */
    public static Tcp parse(ByteBuffer segment) throws PacketParseException {
        ByteBuffer b = Wire.bigEndian(segment);
        return parseIn(b, b.position(), b.remaining());
    }

    static Tcp parseIn(ByteBuffer b, int off, int len) throws PacketParseException {
        Wire.need(len, MIN_HEADER_LENGTH, "TCP header");
        int dataOffset = Wire.u8(b, off + 12) >>> 4;
        if (dataOffset < 5) {
            throw new PacketParseException("TCP data offset " + dataOffset + " is below the minimum 5");
        }
        int headerLength = dataOffset * 4;
        if (headerLength > len) {
            throw new PacketParseException("TCP data offset " + dataOffset + " (" + headerLength
                    + " bytes) exceeds the " + len + "-byte segment");
        }
        return new Tcp(Wire.u16(b, off), Wire.u16(b, off + 2), Wire.u32(b, off + 4), Wire.u32(b, off + 8),
                Wire.u16(b, off + 12) & 0xfff, Wire.u16(b, off + 14), Wire.u16(b, off + 16), Wire.u16(b, off + 18),
                Bytes.copyOf(b, off + MIN_HEADER_LENGTH, headerLength - MIN_HEADER_LENGTH),
                new Data(Bytes.copyOf(b, off + headerLength, len - headerLength)));
    }

    public int headerLength() {
        return MIN_HEADER_LENGTH + options.length();
    }

    /** The data offset field: header length in 32-bit words. */
    public int dataOffset() {
        return headerLength() / 4;
    }

    @Override
    public int length() {
        return headerLength() + payload.length();
    }

    /** True when every bit of {@code mask} (e.g. {@code SYN | ACK}) is set. */
    public boolean has(int mask) {
        return (flags & mask) == mask;
    }

    /** This segment with another checksum field. */
    public Tcp withChecksum(int value) {
        return new Tcp(sourcePort, destinationPort, sequence, acknowledgment, flags, window, value, urgentPointer,
                options, payload);
    }

    /** The checksum {@link #serialize(int, int)} writes for these IPv4 addresses. */
    public int computeChecksum(int sourceIp, int destinationIp) {
        return Wire.checksum(sumWithoutChecksum(sourceIp, destinationIp));
    }

    /** Whether {@code checksum} is right for this segment between these IPv4 addresses. */
    public boolean checksumValid(int sourceIp, int destinationIp) {
        return Wire.verifies(sumWithoutChecksum(sourceIp, destinationIp), checksum);
    }

    private long sumWithoutChecksum(int sourceIp, int destinationIp) {
        var seg = new byte[length()];
        writeFields(seg, 0);
        return Wire.sum(seg, 0, seg.length, Wire.pseudoHeaderSum(sourceIp, destinationIp, Ipv4.PROTOCOL_TCP,
                seg.length));
    }

    /** The segment's bytes with the data offset and the checksum for these IPv4 addresses computed. */
    public byte[] serialize(int sourceIp, int destinationIp) {
        var out = new byte[length()];
        writeTo(out, 0, sourceIp, destinationIp);
        return out;
    }

    void writeTo(byte[] d, int off, int sourceIp, int destinationIp) {
        writeFields(d, off);
        int len = length();
        long sum = Wire.sum(d, off, len, Wire.pseudoHeaderSum(sourceIp, destinationIp, Ipv4.PROTOCOL_TCP, len));
        Wire.put16(d, off + 16, Wire.checksum(sum));
    }

    /** Everything but the checksum, which stays zero. */
    private void writeFields(byte[] d, int off) {
        Wire.put16(d, off, sourcePort);
        Wire.put16(d, off + 2, destinationPort);
        Wire.put32(d, off + 4, sequence);
        Wire.put32(d, off + 8, acknowledgment);
        Wire.put16(d, off + 12, (dataOffset() << 12) | flags);
        Wire.put16(d, off + 14, window);
        Wire.put16(d, off + 18, urgentPointer);
        options.copyTo(d, off + MIN_HEADER_LENGTH);
        payload.bytes().copyTo(d, off + headerLength());
    }


    @Override
    public String toString() {
        var f = new StringBuilder();
        for (int i = 0; i < FLAG_NAMES.length; i++) {
            if ((flags & (1 << i)) != 0) {
                f.append(f.length() == 0 ? "" : ",").append(FLAG_NAMES[i]);
            }
        }
        if ((flags & 0xe00) != 0) {
            f.append(f.length() == 0 ? "" : ",").append("reserved ").append(flags >>> 9);
        }
        var s = new StringBuilder("TCP[").append(sourcePort).append(" > ").append(destinationPort).append(" [")
                .append(f).append("], seq ").append(sequence);
        if (has(ACK)) {
            s.append(", ack ").append(acknowledgment);
        }
        s.append(", win ").append(window);
        if (urgentPointer != 0) {
            s.append(", urg ").append(urgentPointer);
        }
        if (!options.isEmpty()) {
            s.append(", options ").append(options);
        }
        return s.append(", checksum ").append(Wire.hex16(checksum)).append(", ").append(payload.length())
                .append(" bytes data]").toString();
    }

    /** Assembles a segment; window defaults to 65535, everything else to zero or empty. */
    public static final class Builder {
        private int sourcePort;
        private int destinationPort;
        private long sequence;
        private long acknowledgment;
        private int flags;
        private int window = 0xffff;
        private int checksum;
        private int urgentPointer;
        private Bytes options = Bytes.EMPTY;
        private Data payload = Data.EMPTY;

        private Builder() {
        }

        public Builder sourcePort(int v) {
            this.sourcePort = v;
            return this;
        }

        public Builder destinationPort(int v) {
            this.destinationPort = v;
            return this;
        }

        public Builder sequence(long v) {
            this.sequence = v;
            return this;
        }

        public Builder acknowledgment(long v) {
            this.acknowledgment = v;
            return this;
        }

        /** E.g. {@code Tcp.SYN | Tcp.ACK}. */
        public Builder flags(int v) {
            this.flags = v;
            return this;
        }

        public Builder window(int v) {
            this.window = v;
            return this;
        }

        /** Rarely needed: {@link Ipv4.Builder#build()} and serialization compute it. */
        public Builder checksum(int v) {
            this.checksum = v;
            return this;
        }

        public Builder urgentPointer(int v) {
            this.urgentPointer = v;
            return this;
        }

        /** Raw options, already padded to a multiple of 4 bytes. */
        public Builder options(Bytes v) {
            this.options = Objects.requireNonNull(v, "options");
            return this;
        }

        public Builder payload(Data v) {
            this.payload = Objects.requireNonNull(v, "payload");
            return this;
        }

        /** @throws IllegalArgumentException when a field is out of range */
        public Tcp build() {
            return new Tcp(sourcePort, destinationPort, sequence, acknowledgment, flags, window, checksum,
                    urgentPointer, options, payload);
        }
    }
}
