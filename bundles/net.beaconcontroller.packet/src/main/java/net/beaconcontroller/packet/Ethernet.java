package net.beaconcontroller.packet;

import java.nio.ByteBuffer;
import java.util.Objects;
import net.beaconcontroller.util.MacAddress;

/**
 * An Ethernet II frame, optionally with one 802.1Q tag, or an IEEE 802.3 frame whose type field is a length
 * (value up to 1500; its LLC payload stays {@link Data}). The frame check sequence is not part of it: OpenFlow
 * switches hand frames over without it.
 *
 * <p>The payload is parsed by ether type: 0x0800 {@link Ipv4}, 0x0806 {@link Arp} (Ethernet/IPv4 only), 0x88cc
 * {@link Lldp}; everything else is kept as {@link Data}. Bytes after the payload (the padding short frames get, or
 * what follows the IPv4 total length) are kept in {@code trailer}, so parse → serialize gives the same bytes.
 *
 * @param destination destination MAC, low 48 bits
 * @param source source MAC, low 48 bits
 * @param vlan the 802.1Q tag, or {@code null} for an untagged frame
 * @param etherType the (inner, when tagged) type; for an 802.3 frame the length field, equal to the payload length
 * @param payload what the frame carries
 * @param trailer bytes after the payload, usually zero padding
 */
public record Ethernet(long destination, long source, VlanTag vlan, int etherType, EthernetPayload payload,
        Bytes trailer) {
    public static final int TYPE_IPV4 = 0x0800;
    public static final int TYPE_ARP = 0x0806;
    public static final int TYPE_VLAN = 0x8100;
    public static final int TYPE_IPV6 = 0x86dd;
    public static final int TYPE_LLDP = 0x88cc;
    /** Type field values up to this are 802.3 lengths, not ether types. */
    public static final int MAX_LENGTH_FIELD = 1500;
    public static final int HEADER_LENGTH = 14;
    public static final int VLAN_TAG_LENGTH = 4;
    /** The shortest frame on the wire, without the 4-byte FCS. */
    public static final int MIN_FRAME_LENGTH = 60;

    public Ethernet {
        checkMac(destination, "destination");
        checkMac(source, "source");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(trailer, "trailer");
        if (etherType < 0 || etherType > 0xffff) {
            throw new IllegalArgumentException("ether type must be 0..0xffff, not " + etherType);
        }
        if (etherType == TYPE_VLAN && vlan == null) {
            throw new IllegalArgumentException("an 802.1Q tag is given as vlan, not as ether type 0x8100");
        }
        if (etherType <= MAX_LENGTH_FIELD && (!(payload instanceof Data) || etherType != payload.length())) {
            throw new IllegalArgumentException("an 802.3 frame carries Data whose length equals the length field "
                    + etherType + ", not " + payload.getClass().getSimpleName() + " of " + payload.length() + " bytes");
        }
        int expected = expectedType(payload);
        if (expected >= 0 && expected != etherType) {
            throw new IllegalArgumentException(payload.getClass().getSimpleName() + " goes with ether type "
                    + Wire.hex16(expected) + ", not " + Wire.hex16(etherType));
        }
    }

    private static void checkMac(long mac, String what) {
        if ((mac & ~MacAddress.BROADCAST) != 0) {
            throw new IllegalArgumentException(what + " MAC has more than 48 bits: " + Long.toHexString(mac));
        }
    }

    private static int expectedType(EthernetPayload p) {
        if (p instanceof Ipv4) {
            return TYPE_IPV4;
        } else if (p instanceof Arp) {
            return TYPE_ARP;
        } else if (p instanceof Lldp) {
            return TYPE_LLDP;
        }
        return -1;
    }

    /** An untagged frame carrying an IPv4 packet, an ARP message or an LLDPDU, with no trailer. */
    public static Ethernet of(long destination, long source, EthernetPayload payload) {
        return builder().destination(destination).source(source).payload(payload).build();
    }

    /** An IEEE 802.3 frame: the type field holds the length of {@code llc}. */
    public static Ethernet ieee8023(long destination, long source, Data llc) {
        return new Ethernet(destination, source, null, llc.length(), llc, Bytes.EMPTY);
    }

    /** An empty builder: untagged, no trailer. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this frame's fields. */
    public Builder toBuilder() {
        return new Builder().destination(destination).source(source).vlan(vlan).etherType(etherType)
                .payload(payload).trailer(trailer);
    }

    /** Parses a whole frame. */
    public static Ethernet parse(byte[] frame) throws PacketParseException {
        return parse(ByteBuffer.wrap(frame));
    }

    /**
     * Parses the frame in {@code length} bytes of {@code buf} from {@code offset}.
     *
     * @throws PacketParseException when the frame or a header inside it is malformed
     * @throws IndexOutOfBoundsException when the range lies outside {@code buf} (a caller bug, not bad input)
     */
    public static Ethernet parse(byte[] buf, int offset, int length) throws PacketParseException {
        return parse(ByteBuffer.wrap(buf, offset, length));
    }

    /**
     * Parses the frame between the buffer's position and limit, e.g. {@code OFPacketIn.frame()}. The buffer is not
     * changed (its position stays) and the result copies what it keeps, so it outlives the buffer.
     *
     * @throws PacketParseException when the frame or a header inside it is malformed
     */
    public static Ethernet parse(ByteBuffer frame) throws PacketParseException {
        ByteBuffer b = Wire.bigEndian(frame);
        return parseIn(b, b.position(), b.remaining());
    }

    /** Parses {@code length} bytes of a big-endian buffer from {@code offset}; its position is not used. */
    static Ethernet parseIn(ByteBuffer b, int offset, int length) throws PacketParseException {
        Wire.need(length, HEADER_LENGTH, "Ethernet header");
        long dst = MacAddress.read(b, offset);
        long src = MacAddress.read(b, offset + 6);
        int type = Wire.u16(b, offset + 12);
        int pos = HEADER_LENGTH;
        VlanTag vlan = null;
        if (type == TYPE_VLAN) {
            Wire.need(length, HEADER_LENGTH + VLAN_TAG_LENGTH, "802.1Q tagged Ethernet header");
            vlan = VlanTag.fromTci(Wire.u16(b, offset + 14));
            type = Wire.u16(b, offset + 16);
            pos += VLAN_TAG_LENGTH;
        }
        int rest = length - pos;
        int at = offset + pos;
        EthernetPayload payload;
        if (type <= MAX_LENGTH_FIELD) {
            if (type > rest) {
                throw new PacketParseException("802.3 length field " + type + " exceeds the " + rest
                        + " bytes after the header");
            }
            payload = new Data(Bytes.copyOf(b, at, type));
        } else {
            payload = switch (type) {
                case TYPE_IPV4 -> Ipv4.parseIn(b, at, rest);
                case TYPE_ARP -> Arp.parseIn(b, at, rest);
                case TYPE_LLDP -> Lldp.parseIn(b, at, rest);
                default -> new Data(Bytes.copyOf(b, at, rest));
            };
        }
        int used = payload.length();
        return new Ethernet(dst, src, vlan, type, payload, Bytes.copyOf(b, at + used, rest - used));
    }

    /** True for an IEEE 802.3 frame, whose type field is a length. */
    public boolean isLengthFrame() {
        return etherType <= MAX_LENGTH_FIELD;
    }

    public int headerLength() {
        return vlan == null ? HEADER_LENGTH : HEADER_LENGTH + VLAN_TAG_LENGTH;
    }

    /** Bytes on the wire (without FCS). */
    public int length() {
        return headerLength() + payload.length() + trailer.length();
    }

    /** This frame with zeros appended to the trailer up to the 60-byte minimum; itself when long enough. */
    public Ethernet padded() {
        int missing = MIN_FRAME_LENGTH - length();
        if (missing <= 0) {
            return this;
        }
        var t = new byte[trailer.length() + missing];
        trailer.copyTo(t, 0);
        return new Ethernet(destination, source, vlan, etherType, payload, Bytes.of(t));
    }

    /** The frame's bytes, with every length and checksum inside computed afresh. */
    public byte[] serialize() {
        var out = new byte[length()];
        MacAddress.toBytes(destination, out, 0);
        MacAddress.toBytes(source, out, 6);
        int pos = 12;
        if (vlan != null) {
            Wire.put16(out, pos, TYPE_VLAN);
            Wire.put16(out, pos + 2, vlan.tci());
            pos += VLAN_TAG_LENGTH;
        }
        Wire.put16(out, pos, isLengthFrame() ? payload.length() : etherType);
        pos += 2;
        if (payload instanceof Ipv4 ip) {
            ip.writeTo(out, pos);
        } else if (payload instanceof Arp arp) {
            arp.writeTo(out, pos);
        } else if (payload instanceof Lldp lldp) {
            lldp.writeTo(out, pos);
        } else {
            ((Data) payload).bytes().copyTo(out, pos);
        }
        trailer.copyTo(out, pos + payload.length());
        return out;
    }

    @Override
    public String toString() {
        var s = new StringBuilder("Ethernet[").append(MacAddress.toString(source)).append(" > ")
                .append(MacAddress.toString(destination));
        if (vlan != null) {
            s.append(", ").append(vlan);
        }
        if (isLengthFrame()) {
            s.append(", 802.3 length ").append(etherType);
        } else {
            s.append(", type ").append(Wire.hex16(etherType));
        }
        s.append(", ").append(payload);
        if (!trailer.isEmpty()) {
            s.append(", trailer ").append(trailer.length()).append(" bytes");
        }
        return s.append(']').toString();
    }

    /** Assembles a frame; the ether type follows from an IPv4, ARP or LLDP payload and must be set for Data. */
    public static final class Builder {
        private long destination;
        private long source;
        private VlanTag vlan;
        private int etherType = -1;
        private EthernetPayload payload = Data.EMPTY;
        private Bytes trailer = Bytes.EMPTY;

        private Builder() {
        }

        public Builder destination(long mac) {
            this.destination = mac;
            return this;
        }

        public Builder source(long mac) {
            this.source = mac;
            return this;
        }

        /** The 802.1Q tag, {@code null} for none. */
        public Builder vlan(VlanTag tag) {
            this.vlan = tag;
            return this;
        }

        public Builder etherType(int type) {
            this.etherType = type;
            return this;
        }

        public Builder payload(EthernetPayload p) {
            this.payload = Objects.requireNonNull(p, "payload");
            return this;
        }

        public Builder trailer(Bytes t) {
            this.trailer = Objects.requireNonNull(t, "trailer");
            return this;
        }

        /**
         * @throws IllegalStateException when the payload is Data and no ether type was set
         * @throws IllegalArgumentException when a field is out of range or contradicts the payload
         */
        public Ethernet build() {
            int type = etherType;
            if (type < 0) {
                type = expectedType(payload);
                if (type < 0) {
                    throw new IllegalStateException("set the ether type for a Data payload");
                }
            }
            return new Ethernet(destination, source, vlan, type, payload, trailer);
        }
    }
}
