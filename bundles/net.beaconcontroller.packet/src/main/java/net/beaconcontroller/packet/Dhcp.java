package net.beaconcontroller.packet;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;

/**
 * A DHCP message (RFC 2131): the BOOTP header, the magic cookie and the options. All options are kept in order,
 * Pad options included; the End option is implied (parsing requires it, serialization writes it) and what follows it
 * (clients pad messages to 300 bytes) is kept as {@code padding}.
 *
 * <p>Inside UDP a payload on port 67 or 68 becomes a Dhcp only when it is at least 240 bytes and carries the magic
 * cookie 99.130.83.99; other traffic on those ports (plain BOOTP, anything else) stays {@link Data}.
 *
 * @param op {@link #BOOT_REQUEST} or {@link #BOOT_REPLY} (u8)
 * @param htype hardware type, 1 for Ethernet (u8)
 * @param hlen hardware address length, 6 for Ethernet (u8)
 * @param hops relay hops (u8)
 * @param xid transaction id (u32)
 * @param secs seconds since the client began (u16)
 * @param flags {@link #FLAG_BROADCAST} and reserved bits (u16)
 * @param ciaddr client IP address, when it already has one
 * @param yiaddr "your" IP address, offered or assigned by the server
 * @param siaddr next server IP address
 * @param giaddr relay agent IP address
 * @param chaddr client hardware address field, 16 bytes
 * @param sname server host name field, 64 bytes
 * @param file boot file name field, 128 bytes
 * @param options the options in wire order, without End
 * @param padding bytes after the End option
 */
public record Dhcp(int op, int htype, int hlen, int hops, long xid, int secs, int flags, int ciaddr, int yiaddr,
        int siaddr, int giaddr, Bytes chaddr, Bytes sname, Bytes file, List<DhcpOption> options, Bytes padding)
        implements UdpPayload {
    public static final int BOOT_REQUEST = 1;
    public static final int BOOT_REPLY = 2;
    public static final int DISCOVER = 1;
    public static final int OFFER = 2;
    public static final int REQUEST = 3;
    public static final int DECLINE = 4;
    public static final int ACK = 5;
    public static final int NAK = 6;
    public static final int RELEASE = 7;
    public static final int INFORM = 8;
    public static final int FLAG_BROADCAST = 0x8000;
    public static final int MAGIC_COOKIE = 0x63825363;
    /** BOOTP header plus magic cookie. */
    public static final int FIXED_LENGTH = 240;
    private static final int COOKIE_OFFSET = 236;
    private static final String[] TYPE_NAMES = {"DISCOVER", "OFFER", "REQUEST", "DECLINE", "ACK", "NAK", "RELEASE",
        "INFORM"};

    public Dhcp {
        u8(op, "op");
        u8(htype, "htype");
        u8(hlen, "hlen");
        u8(hops, "hops");
        if (xid < 0 || xid > 0xffff_ffffL) {
            throw new IllegalArgumentException("DHCP xid is u32, not " + xid);
        }
        if (secs < 0 || secs > 0xffff || flags < 0 || flags > 0xffff) {
            throw new IllegalArgumentException("DHCP secs and flags are u16");
        }
        fixed(chaddr, 16, "chaddr");
        fixed(sname, 64, "sname");
        fixed(file, 128, "file");
        options = List.copyOf(options);
        Objects.requireNonNull(padding, "padding");
    }

    private static void u8(int v, String what) {
        if (v < 0 || v > 0xff) {
            throw new IllegalArgumentException("DHCP " + what + " is u8, not " + v);
        }
    }

    private static void fixed(Bytes b, int n, String what) {
        Objects.requireNonNull(b, what);
        if (b.length() != n) {
            throw new IllegalArgumentException("DHCP " + what + " has " + n + " bytes, not " + b.length());
        }
    }

    /** An empty builder; see {@link Builder} for the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this message's fields and options. */
    public Builder toBuilder() {
        var b = new Builder().op(op).htype(htype).hlen(hlen).hops(hops).xid(xid).secs(secs).flags(flags)
                .ciaddr(ciaddr).yiaddr(yiaddr).siaddr(siaddr).giaddr(giaddr).chaddr(chaddr).sname(sname).file(file)
                .padding(padding);
        options.forEach(b::option);
        return b;
    }

    /** True when {@code length} bytes at {@code offset} are long enough for the header and carry the cookie. */
    static boolean hasMagicCookie(ByteBuffer b, int off, int len) {
        return len >= FIXED_LENGTH && Wire.i32(b, off + COOKIE_OFFSET) == MAGIC_COOKIE;
    }

    /** Parses a whole DHCP message (the UDP payload). */
    public static Dhcp parse(byte[] message) throws PacketParseException {
        return parse(ByteBuffer.wrap(message));
    }

    /**
     * Parses the DHCP message in {@code length} bytes at {@code offset}.
     *
     * @throws PacketParseException when shorter than 240 bytes, without the magic cookie, with an option running
     *         past the end, without the End option, or with a message type (53), requested address (50) or server
     *         identifier (54) of the wrong length
     */
    public static Dhcp parse(byte[] buf, int offset, int length) throws PacketParseException {
        return parse(ByteBuffer.wrap(buf, offset, length));
    }

    /**
     * As {@link #parse(byte[], int, int)}, on the bytes between the buffer's position and limit; the buffer is not
     * changed and the result copies what it keeps.
     *
     * @throws PacketParseException when shorter than 240 bytes, without the magic cookie, with an option running
     *         past the end, without the End option, or with a message type (53), requested address (50) or server
     *         identifier (54) of the wrong length
     */
    public static Dhcp parse(ByteBuffer message) throws PacketParseException {
        ByteBuffer b = Wire.bigEndian(message);
        int offset = b.position();
        int length = b.remaining();
        Wire.need(length, FIXED_LENGTH, "DHCP header with magic cookie");
        if (!hasMagicCookie(b, offset, length)) {
            throw new PacketParseException(String.format("DHCP magic cookie is 0x%08x, expected 0x%08x",
                    Wire.i32(b, offset + COOKIE_OFFSET), MAGIC_COOKIE));
        }
        return parseIn(b, offset, length);
    }

    /** Parses a message whose length and cookie have been checked. */
    static Dhcp parseIn(ByteBuffer b, int off, int len) throws PacketParseException {
        var options = new ArrayList<DhcpOption>();
        int end = off + len;
        int pos = off + FIXED_LENGTH;
        while (true) {
            if (pos >= end) {
                throw new PacketParseException("DHCP options end without the End option (255)");
            }
            int code = Wire.u8(b, pos);
            if (code == DhcpOption.END) {
                pos++;
                break;
            }
            if (code == DhcpOption.PAD) {
                options.add(DhcpOption.PAD_OPTION);
                pos++;
                continue;
            }
            if (pos + 1 >= end) {
                throw new PacketParseException("DHCP option " + code + " at offset " + (pos - off)
                        + " has no length byte");
            }
            int n = Wire.u8(b, pos + 1);
            if (pos + 2 + n > end) {
                throw new PacketParseException("DHCP option " + code + " at offset " + (pos - off) + " has length "
                        + n + ", past the end (" + (end - pos - 2) + " bytes left)");
            }
            checkLength(code, n);
            options.add(new DhcpOption(code, Bytes.copyOf(b, pos + 2, n)));
            pos += 2 + n;
        }
        return new Dhcp(Wire.u8(b, off), Wire.u8(b, off + 1), Wire.u8(b, off + 2), Wire.u8(b, off + 3),
                Wire.u32(b, off + 4), Wire.u16(b, off + 8), Wire.u16(b, off + 10), Wire.i32(b, off + 12),
                Wire.i32(b, off + 16), Wire.i32(b, off + 20), Wire.i32(b, off + 24), Bytes.copyOf(b, off + 28, 16),
                Bytes.copyOf(b, off + 44, 64), Bytes.copyOf(b, off + 108, 128), options,
                Bytes.copyOf(b, pos, end - pos));
    }

    /** The options the accessors interpret must have their fixed lengths, so an accessor never returns garbage. */
    private static void checkLength(int code, int n) throws PacketParseException {
        int expected = switch (code) {
            case DhcpOption.MESSAGE_TYPE -> 1;
            case DhcpOption.REQUESTED_IP_ADDRESS, DhcpOption.SERVER_IDENTIFIER -> 4;
            default -> -1;
        };
        if (expected >= 0 && n != expected) {
            throw new PacketParseException("DHCP option " + code + " has length " + n + ", expected " + expected);
        }
    }

    /** The client MAC: the first six bytes of {@code chaddr} (meaningful when {@code hlen} is 6). */
    public long clientMac() {
        return MacAddress.fromBytes(chaddr.toArray(), 0);
    }

    /** Whether the client asked for broadcast replies. */
    public boolean broadcast() {
        return (flags & FLAG_BROADCAST) != 0;
    }

    /** The first option with this code. */
    public Optional<DhcpOption> option(int code) {
        return options.stream().filter(o -> o.code() == code).findFirst();
    }

    /** Option 53, e.g. {@link #DISCOVER}. */
    public OptionalInt messageType() {
        return option(DhcpOption.MESSAGE_TYPE).filter(o -> o.value().length() == 1)
                .map(o -> OptionalInt.of(o.value().get(0))).orElse(OptionalInt.empty());
    }

    /** Option 50. */
    public OptionalInt requestedIpAddress() {
        return address(DhcpOption.REQUESTED_IP_ADDRESS);
    }

    /** Option 54. */
    public OptionalInt serverIdentifier() {
        return address(DhcpOption.SERVER_IDENTIFIER);
    }

    /** Option 12, decoded as UTF-8. */
    public Optional<String> hostName() {
        return option(DhcpOption.HOST_NAME).map(o -> o.value().utf8());
    }

    private OptionalInt address(int code) {
        return option(code).filter(o -> o.value().length() == 4)
                .map(o -> OptionalInt.of(IPv4Address.fromBytes(o.value().toArray(), 0))).orElse(OptionalInt.empty());
    }

    static String messageTypeName(int type) {
        return type >= 1 && type <= TYPE_NAMES.length ? TYPE_NAMES[type - 1] : "type " + type;
    }

    @Override
    public int length() {
        int n = FIXED_LENGTH + 1 + padding.length();
        for (DhcpOption o : options) {
            n += o.length();
        }
        return n;
    }

    /** The message's bytes: header, cookie, options, End, padding. */
    public byte[] serialize() {
        var out = new byte[length()];
        writeTo(out, 0);
        return out;
    }

    void writeTo(byte[] d, int off) {
        d[off] = (byte) op;
        d[off + 1] = (byte) htype;
        d[off + 2] = (byte) hlen;
        d[off + 3] = (byte) hops;
        Wire.put32(d, off + 4, xid);
        Wire.put16(d, off + 8, secs);
        Wire.put16(d, off + 10, flags);
        Wire.put32(d, off + 12, ciaddr);
        Wire.put32(d, off + 16, yiaddr);
        Wire.put32(d, off + 20, siaddr);
        Wire.put32(d, off + 24, giaddr);
        chaddr.copyTo(d, off + 28);
        sname.copyTo(d, off + 44);
        file.copyTo(d, off + 108);
        Wire.put32(d, off + COOKIE_OFFSET, MAGIC_COOKIE);
        int pos = off + FIXED_LENGTH;
        for (DhcpOption o : options) {
            d[pos] = (byte) o.code();
            if (o.code() != DhcpOption.PAD) {
                d[pos + 1] = (byte) o.value().length();
                o.value().copyTo(d, pos + 2);
            }
            pos += o.length();
        }
        d[pos] = (byte) DhcpOption.END;
        padding.copyTo(d, pos + 1);
    }

    @Override
    public String toString() {
        var s = new StringBuilder("DHCP[");
        OptionalInt type = messageType();
        s.append(type.isPresent() ? messageTypeName(type.getAsInt())
                : op == BOOT_REQUEST ? "BOOTREQUEST" : op == BOOT_REPLY ? "BOOTREPLY" : "op " + op);
        s.append(String.format(", xid 0x%08x", xid));
        if (htype == 1 && hlen == 6) {
            s.append(", client ").append(MacAddress.toString(clientMac()));
        } else {
            s.append(", htype ").append(htype).append(" chaddr ").append(chaddr.toHex());
        }
        appendAddress(s, "ciaddr", ciaddr);
        appendAddress(s, "yiaddr", yiaddr);
        appendAddress(s, "siaddr", siaddr);
        appendAddress(s, "giaddr", giaddr);
        if (broadcast()) {
            s.append(", broadcast");
        }
        s.append(", options ").append(options.stream().filter(o -> o.code() != DhcpOption.PAD).toList());
        return s.append(']').toString();
    }

    private static void appendAddress(StringBuilder s, String name, int ip) {
        if (ip != 0) {
            s.append(", ").append(name).append(' ').append(IPv4Address.toString(ip));
        }
    }

    /**
     * Assembles a message. Defaults: Ethernet hardware (htype 1, hlen 6), all addresses zero, empty sname/file, no
     * options, no padding.
     */
    public static final class Builder {
        private int op = BOOT_REQUEST;
        private int htype = 1;
        private int hlen = 6;
        private int hops;
        private long xid;
        private int secs;
        private int flags;
        private int ciaddr;
        private int yiaddr;
        private int siaddr;
        private int giaddr;
        private Bytes chaddr = Bytes.zeros(16);
        private Bytes sname = Bytes.zeros(64);
        private Bytes file = Bytes.zeros(128);
        private final List<DhcpOption> options = new ArrayList<>();
        private Bytes padding = Bytes.EMPTY;

        private Builder() {
        }

        /** {@link Dhcp#BOOT_REQUEST} (the default) or {@link Dhcp#BOOT_REPLY}. */
        public Builder op(int v) {
            this.op = v;
            return this;
        }

        public Builder htype(int v) {
            this.htype = v;
            return this;
        }

        public Builder hlen(int v) {
            this.hlen = v;
            return this;
        }

        public Builder hops(int v) {
            this.hops = v;
            return this;
        }

        public Builder xid(long v) {
            this.xid = v;
            return this;
        }

        public Builder secs(int v) {
            this.secs = v;
            return this;
        }

        public Builder flags(int v) {
            this.flags = v;
            return this;
        }

        public Builder ciaddr(int ip) {
            this.ciaddr = ip;
            return this;
        }

        public Builder yiaddr(int ip) {
            this.yiaddr = ip;
            return this;
        }

        public Builder siaddr(int ip) {
            this.siaddr = ip;
            return this;
        }

        public Builder giaddr(int ip) {
            this.giaddr = ip;
            return this;
        }

        /** Sets chaddr to the MAC followed by ten zero bytes. */
        public Builder clientMac(long mac) {
            var b = new byte[16];
            MacAddress.toBytes(mac, b, 0);
            this.chaddr = Bytes.of(b);
            return this;
        }

        /** The whole 16-byte chaddr field. */
        public Builder chaddr(Bytes v) {
            this.chaddr = v;
            return this;
        }

        /** The 64-byte sname field. */
        public Builder sname(Bytes v) {
            this.sname = v;
            return this;
        }

        /** The 128-byte file field. */
        public Builder file(Bytes v) {
            this.file = v;
            return this;
        }

        /** Appends an option. */
        public Builder option(DhcpOption o) {
            options.add(Objects.requireNonNull(o, "option"));
            return this;
        }

        /** Bytes after the End option, e.g. zeros to reach the customary 300-byte minimum. */
        public Builder padding(Bytes v) {
            this.padding = v;
            return this;
        }

        /** @throws IllegalArgumentException when a field is out of range or has the wrong size */
        public Dhcp build() {
            return new Dhcp(op, htype, hlen, hops, xid, secs, flags, ciaddr, yiaddr, siaddr, giaddr, chaddr, sname,
                    file, options, padding);
        }
    }
}
