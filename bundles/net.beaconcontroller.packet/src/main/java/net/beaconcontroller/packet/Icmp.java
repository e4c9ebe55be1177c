package net.beaconcontroller.packet;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * An ICMP message (RFC 792): type, code, checksum, the four "rest of header" bytes (identifier and sequence number for
 * echo) and the data. {@code checksum} is the value found on the wire; serialization computes it afresh and the
 * factories store the right one.
 *
 * @param type u8, e.g. {@link #ECHO_REQUEST}
 * @param code u8
 * @param checksum as received
 * @param restOfHeader the u32 after the checksum
 * @param payload the data after the 8-byte header (for errors: the offending IP header and 8 bytes)
 */
public record Icmp(int type, int code, int checksum, long restOfHeader, Data payload) implements IpPayload {
    public static final int ECHO_REPLY = 0;
    public static final int DESTINATION_UNREACHABLE = 3;
    public static final int REDIRECT = 5;
    public static final int ECHO_REQUEST = 8;
    public static final int TIME_EXCEEDED = 11;
    public static final int HEADER_LENGTH = 8;

    public Icmp {
        if (type < 0 || type > 0xff || code < 0 || code > 0xff) {
            throw new IllegalArgumentException("ICMP type and code are u8: " + type + "/" + code);
        }
        if (checksum < 0 || checksum > 0xffff) {
            throw new IllegalArgumentException("ICMP checksum must be 0..65535, not " + checksum);
        }
        if (restOfHeader < 0 || restOfHeader > 0xffff_ffffL) {
            throw new IllegalArgumentException("ICMP rest of header is u32, not " + restOfHeader);
        }
        Objects.requireNonNull(payload, "payload");
    }

    /** A message with its checksum computed. */
    public static Icmp of(int type, int code, long restOfHeader, Data payload) {
        var unsummed = new Icmp(type, code, 0, restOfHeader, payload);
        return unsummed.withChecksum(unsummed.computeChecksum());
    }

    /** An echo request ("ping") with its checksum computed. */
    public static Icmp echoRequest(int identifier, int sequenceNumber, Data payload) {
        return of(ECHO_REQUEST, 0, echoRest(identifier, sequenceNumber), payload);
    }

    /** An echo reply with its checksum computed. */
    public static Icmp echoReply(int identifier, int sequenceNumber, Data payload) {
        return of(ECHO_REPLY, 0, echoRest(identifier, sequenceNumber), payload);
    }

    private static long echoRest(int identifier, int sequenceNumber) {
        if (identifier < 0 || identifier > 0xffff || sequenceNumber < 0 || sequenceNumber > 0xffff) {
            throw new IllegalArgumentException("echo identifier and sequence number are u16");
        }
        return ((long) identifier << 16) | sequenceNumber;
    }

    /** Parses a whole message. */
    public static Icmp parse(byte[] message) throws PacketParseException {
        return parse(ByteBuffer.wrap(message));
    }

    /**
     * Parses a message of {@code length} bytes (the IPv4 payload length) at {@code offset}.
     *
     * @throws PacketParseException when shorter than the 8-byte header
     */
    public static Icmp parse(byte[] buf, int offset, int length) throws PacketParseException {
        return parse(ByteBuffer.wrap(buf, offset, length));
    }

    /**
     * As {@link #parse(byte[], int, int)}, on the bytes between the buffer's position and limit; the buffer is not
     * changed and the result copies what it keeps.
     *
     * @throws PacketParseException when shorter than the 8-byte header
     */
    public static Icmp parse(ByteBuffer message) throws PacketParseException {
        ByteBuffer b = Wire.bigEndian(message);
        return parseIn(b, b.position(), b.remaining());
    }

    static Icmp parseIn(ByteBuffer b, int off, int len) throws PacketParseException {
        Wire.need(len, HEADER_LENGTH, "ICMP header");
        return new Icmp(Wire.u8(b, off), Wire.u8(b, off + 1), Wire.u16(b, off + 2), Wire.u32(b, off + 4),
                new Data(Bytes.copyOf(b, off + HEADER_LENGTH, len - HEADER_LENGTH)));
    }

    /** The echo identifier: the high half of the rest of the header. */
    public int identifier() {
        return (int) (restOfHeader >>> 16);
    }

    /** The echo sequence number: the low half of the rest of the header. */
    public int sequenceNumber() {
        return (int) (restOfHeader & 0xffff);
    }

    public boolean isEcho() {
        return type == ECHO_REQUEST || type == ECHO_REPLY;
    }

    @Override
    public int length() {
        return HEADER_LENGTH + payload.length();
    }

    /** This message with another checksum field. */
    public Icmp withChecksum(int value) {
        return new Icmp(type, code, value, restOfHeader, payload);
    }

    /** The checksum serialization writes. */
    public int computeChecksum() {
        var d = new byte[length()];
        writeFields(d, 0);
        return Wire.checksum(Wire.sum(d, 0, d.length, 0));
    }

    /** Whether {@code checksum} is right. */
    public boolean checksumValid() {
        var d = new byte[length()];
        writeFields(d, 0);
        return Wire.verifies(Wire.sum(d, 0, d.length, 0), checksum);
    }

    /** The message's bytes with the checksum computed. */
    public byte[] serialize() {
        var out = new byte[length()];
        writeTo(out, 0);
        return out;
    }

    void writeTo(byte[] d, int off) {
        writeFields(d, off);
        Wire.put16(d, off + 2, Wire.checksum(Wire.sum(d, off, length(), 0)));
    }

    private void writeFields(byte[] d, int off) {
        d[off] = (byte) type;
        d[off + 1] = (byte) code;
        Wire.put32(d, off + 4, restOfHeader);
        payload.bytes().copyTo(d, off + HEADER_LENGTH);
    }

    @Override
    public String toString() {
        String name = switch (type) {
            case ECHO_REPLY -> "echo reply";
            case DESTINATION_UNREACHABLE -> "destination unreachable";
            case REDIRECT -> "redirect";
            case ECHO_REQUEST -> "echo request";
            case TIME_EXCEEDED -> "time exceeded";
            default -> "type " + type;
        };
        var s = new StringBuilder("ICMP[").append(name).append(", code ").append(code);
        if (isEcho()) {
            s.append(", id ").append(identifier()).append(", seq ").append(sequenceNumber());
        } else if (restOfHeader != 0) {
            s.append(", rest ").append(String.format("0x%08x", restOfHeader));
        }
        return s.append(", checksum ").append(Wire.hex16(checksum)).append(checksumValid() ? "" : " (bad)")
                .append(", ").append(payload.length()).append(" bytes data]").toString();
    }
}
