package net.beaconcontroller.packet;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A UDP datagram (RFC 768). The length is derived. Over IPv4 a checksum of 0 means the sender computed none: such a
 * datagram always counts as valid and is serialized again without one. Any other {@code checksum} means "present":
 * serialization writes the right value for the pseudo-header's addresses.
 *
 * <p>A datagram to or from port 67 or 68 that carries the DHCP magic cookie is parsed as {@link Dhcp}.
 *
 * @param sourcePort u16
 * @param destinationPort u16
 * @param checksum as received, 0 for none
 * @param payload what the datagram carries
 */
public record Udp(int sourcePort, int destinationPort, int checksum, UdpPayload payload) implements IpPayload {
    public static final int HEADER_LENGTH = 8;
    public static final int DHCP_SERVER_PORT = 67;
    public static final int DHCP_CLIENT_PORT = 68;

    public Udp {
        check(sourcePort, "source port");
        check(destinationPort, "destination port");
        check(checksum, "checksum");
        Objects.requireNonNull(payload, "payload");
        if (HEADER_LENGTH + payload.length() > 0xffff) {
            throw new IllegalArgumentException("UDP datagram longer than 65535 bytes");
        }
    }

    private static void check(int v, String what) {
        if (v < 0 || v > 0xffff) {
            throw new IllegalArgumentException("UDP " + what + " must be 0..65535, not " + v);
        }
    }

    /**
     * A datagram that will carry a checksum. Until an {@link Ipv4.Builder} stores the real value, {@code checksum()}
     * holds 0xffff as the mark for "present"; serialization always writes the real one.
     */
    public static Udp of(int sourcePort, int destinationPort, UdpPayload payload) {
        return new Udp(sourcePort, destinationPort, 0xffff, payload);
    }

    /** A datagram sent without a checksum (allowed over IPv4). */
    public static Udp withoutChecksum(int sourcePort, int destinationPort, UdpPayload payload) {
        return new Udp(sourcePort, destinationPort, 0, payload);
    }

    /** Parses a whole datagram. */
    public static Udp parse(byte[] datagram) throws PacketParseException {
        return parse(ByteBuffer.wrap(datagram));
    }

    /**
     * Parses a datagram of {@code length} bytes (the IPv4 payload length) at {@code offset}.
     *
     * @throws PacketParseException for a truncated header or a length field other than {@code length}
     */
    public static Udp parse(byte[] buf, int offset, int length) throws PacketParseException {
        return parse(ByteBuffer.wrap(buf, offset, length));
    }

    /**
     * As {@link #parse(byte[], int, int)}, on the bytes between the buffer's position and limit; the buffer is not
     * changed and the result copies what it keeps.
     *
     * @throws PacketParseException for a truncated header or a length field other than {@code length}
     */
    public static Udp parse(ByteBuffer datagram) throws PacketParseException {
        ByteBuffer b = Wire.bigEndian(datagram);
        return parseIn(b, b.position(), b.remaining());
    }

    static Udp parseIn(ByteBuffer b, int off, int len) throws PacketParseException {
        Wire.need(len, HEADER_LENGTH, "UDP header");
        int udpLength = Wire.u16(b, off + 4);
        if (udpLength < HEADER_LENGTH) {
            throw new PacketParseException("UDP length " + udpLength + " is shorter than the 8-byte header");
        }
        if (udpLength != len) {
            throw new PacketParseException("UDP length " + udpLength + " disagrees with the " + len
                    + " bytes the IP packet carries");
        }
        int src = Wire.u16(b, off);
        int dst = Wire.u16(b, off + 2);
        int at = off + HEADER_LENGTH;
        int payloadLength = len - HEADER_LENGTH;
        UdpPayload payload = (isDhcpPort(src) || isDhcpPort(dst)) && Dhcp.hasMagicCookie(b, at, payloadLength)
                ? Dhcp.parseIn(b, at, payloadLength)
                : new Data(Bytes.copyOf(b, at, payloadLength));
        return new Udp(src, dst, Wire.u16(b, off + 6), payload);
    }

    private static boolean isDhcpPort(int port) {
        return port == DHCP_SERVER_PORT || port == DHCP_CLIENT_PORT;
    }

    @Override
    public int length() {
        return HEADER_LENGTH + payload.length();
    }

    /** False when the sender computed no checksum (field 0). */
    public boolean hasChecksum() {
        return checksum != 0;
    }

    /** This datagram with another checksum field; 0 means none. */
    public Udp withChecksum(int value) {
        return new Udp(sourcePort, destinationPort, value, payload);
    }

    /** The non-zero checksum serialization writes for these addresses when the datagram has one. */
    public int computeChecksum(int sourceIp, int destinationIp) {
        int c = Wire.checksum(sumWithoutChecksum(sourceIp, destinationIp));
        // RFC 768: a computed zero goes out as all ones, since zero means "no checksum".
        return c == 0 ? 0xffff : c;
    }

    /** True when there is no checksum or it is right for these IPv4 addresses. */
    public boolean checksumValid(int sourceIp, int destinationIp) {
        return checksum == 0 || Wire.verifies(sumWithoutChecksum(sourceIp, destinationIp), checksum);
    }

    private long sumWithoutChecksum(int sourceIp, int destinationIp) {
        var d = new byte[length()];
        writeFields(d, 0);
        return Wire.sum(d, 0, d.length, Wire.pseudoHeaderSum(sourceIp, destinationIp, Ipv4.PROTOCOL_UDP, d.length));
    }

    /** The datagram's bytes with length and (unless it has none) checksum computed for these addresses. */
    public byte[] serialize(int sourceIp, int destinationIp) {
        var out = new byte[length()];
        writeTo(out, 0, sourceIp, destinationIp);
        return out;
    }

    void writeTo(byte[] d, int off, int sourceIp, int destinationIp) {
        writeFields(d, off);
        if (hasChecksum()) {
            int len = length();
            int c = Wire.checksum(Wire.sum(d, off, len,
                    Wire.pseudoHeaderSum(sourceIp, destinationIp, Ipv4.PROTOCOL_UDP, len)));
            Wire.put16(d, off + 6, c == 0 ? 0xffff : c);
        }
    }

    private void writeFields(byte[] d, int off) {
        Wire.put16(d, off, sourcePort);
        Wire.put16(d, off + 2, destinationPort);
        Wire.put16(d, off + 4, length());
        int at = off + HEADER_LENGTH;
        if (payload instanceof Dhcp dhcp) {
            dhcp.writeTo(d, at);
        } else {
            ((Data) payload).bytes().copyTo(d, at);
        }
    }

    @Override
    public String toString() {
        return "UDP[" + sourcePort + " > " + destinationPort + ", checksum "
                + (hasChecksum() ? Wire.hex16(checksum) : "none") + ", " + payload + "]";
    }
}
