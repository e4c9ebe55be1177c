package net.beaconcontroller.packet;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import net.beaconcontroller.packet.LldpTlv.ChassisId;
import net.beaconcontroller.packet.LldpTlv.End;
import net.beaconcontroller.packet.LldpTlv.ManagementAddress;
import net.beaconcontroller.packet.LldpTlv.OrganizationSpecific;
import net.beaconcontroller.packet.LldpTlv.PortDescription;
import net.beaconcontroller.packet.LldpTlv.PortId;
import net.beaconcontroller.packet.LldpTlv.SystemCapabilities;
import net.beaconcontroller.packet.LldpTlv.SystemDescription;
import net.beaconcontroller.packet.LldpTlv.SystemName;
import net.beaconcontroller.packet.LldpTlv.Ttl;
import net.beaconcontroller.packet.LldpTlv.Unknown;

/**
 * An LLDPDU (IEEE 802.1AB, ether type 0x88cc): the TLVs in wire order. Parsing stops after the End TLV (what follows
 * belongs to the frame's trailer) or at the end of the data, so the End TLV is in the list exactly when it was on the
 * wire. Parsing is lenient about which TLVs are present and in which order (the accessors return empty when one is
 * missing) but strict about each TLV's own format.
 *
 * <p>For link discovery use {@link #forDiscovery(long, int, int)} / {@link #discoveryFrame(long, long, int, int)} to
 * send, and {@link #discovery()} to read what came back.
 *
 * @param tlvs the TLVs; an End TLV may only be the last one
 */
public record Lldp(List<LldpTlv> tlvs) implements EthernetPayload {
    /** The "nearest bridge" group address: never forwarded by 802.1D bridges. */
    public static final long NEAREST_BRIDGE = 0x0180_c200_000eL;
    /** The OUI of the ONF (OpenFlow) under which Beacon, Floodlight and others carry the DPID. */
    public static final int OPENFLOW_OUI = 0x0026e1;
    /** Subtype of the DPID TLV under {@link #OPENFLOW_OUI}. */
    public static final int DPID_SUBTYPE = 0;
    /** The TTL controllers use for discovery frames, seconds. */
    public static final int DEFAULT_TTL = 120;

    public Lldp {
        tlvs = List.copyOf(tlvs);
        for (int i = 0; i < tlvs.size() - 1; i++) {
            if (tlvs.get(i) instanceof End) {
                throw new IllegalArgumentException("the End TLV can only be the last TLV");
            }
        }
    }

    /**
     * An LLDPDU in the standard order: chassis ID, port ID, TTL, the optional TLVs, End.
     */
    public static Lldp of(ChassisId chassisId, PortId portId, int ttlSeconds, LldpTlv... optional) {
        var list = new ArrayList<LldpTlv>(optional.length + 4);
        list.add(chassisId);
        list.add(portId);
        list.add(new Ttl(ttlSeconds));
        for (LldpTlv t : optional) {
            if (!(t instanceof End)) {
                list.add(Objects.requireNonNull(t, "TLV"));
            }
        }
        list.add(new End());
        return new Lldp(list);
    }

    /**
     * The LLDPDU a controller sends out of a switch port to discover links, as Beacon does: chassis ID = the MAC
     * address in the DPID's low 48 bits, port ID = port component with the 16-bit port number, the TTL, and an
     * organisationally specific TLV (OUI 00:26:e1, subtype 0) carrying the full 64-bit DPID.
     */
    public static Lldp forDiscovery(long dpid, int portNumber, int ttlSeconds) {
        var dpidBytes = new byte[8];
        Wire.put32(dpidBytes, 0, dpid >>> 32);
        Wire.put32(dpidBytes, 4, dpid);
        return of(ChassisId.ofMac(dpid & 0xffff_ffff_ffffL), PortId.ofPortNumber(portNumber), ttlSeconds,
                new OrganizationSpecific(OPENFLOW_OUI, DPID_SUBTYPE, Bytes.of(dpidBytes)));
    }

    /**
     * The whole discovery frame: {@link #forDiscovery} from {@code sourceMac} (the port's address) to the nearest
     * bridge group address, zero-padded to the 60-byte minimum (a veth or a userspace datapath would not pad it).
     */
    public static Ethernet discoveryFrame(long sourceMac, long dpid, int portNumber, int ttlSeconds) {
        return Ethernet.of(NEAREST_BRIDGE, sourceMac, forDiscovery(dpid, portNumber, ttlSeconds)).padded();
    }

    /** What a discovery LLDPDU says: the sending switch and port. */
    public record Discovery(long dpid, int portNumber) {
        @Override
        public String toString() {
            return String.format("Discovery[dpid %016x port %d]", dpid, portNumber);
        }
    }

    /**
     * The sender's DPID and port when this is a discovery LLDPDU: it has the 8-byte DPID TLV and a port ID with a
     * 16-bit port number.
     */
    public Optional<Discovery> discovery() {
        OptionalInt port = portId().map(PortId::portNumber).orElse(OptionalInt.empty());
        if (port.isEmpty()) {
            return Optional.empty();
        }
        for (LldpTlv t : tlvs) {
            if (t instanceof OrganizationSpecific o && o.oui() == OPENFLOW_OUI && o.subtype() == DPID_SUBTYPE
                    && o.info().length() == 8) {
                long dpid = ByteBuffer.wrap(o.info().toArray()).getLong();
                return Optional.of(new Discovery(dpid, port.getAsInt()));
            }
        }
        return Optional.empty();
    }

    /** Parses an LLDPDU; bytes after the End TLV are ignored. */
    public static Lldp parse(byte[] buf) throws PacketParseException {
        return parse(ByteBuffer.wrap(buf));
    }

    /**
     * Parses the LLDPDU in {@code length} bytes at {@code offset}.
     *
     * @throws PacketParseException when a TLV header is cut off, a TLV's length runs past the data, or a standard
     *         TLV's value does not have its format
     */
    public static Lldp parse(byte[] buf, int offset, int length) throws PacketParseException {
        return parse(ByteBuffer.wrap(buf, offset, length));
    }

    /**
     * As {@link #parse(byte[], int, int)}, on the bytes between the buffer's position and limit; the buffer is not
     * changed and the result copies what it keeps.
     *
     * @throws PacketParseException when a TLV header is cut off, a TLV's length runs past the data, or a standard
     *         TLV's value does not have its format
     */
    public static Lldp parse(ByteBuffer lldpdu) throws PacketParseException {
        ByteBuffer b = Wire.bigEndian(lldpdu);
        return parseIn(b, b.position(), b.remaining());
    }

    static Lldp parseIn(ByteBuffer b, int off, int len) throws PacketParseException {
        var list = new ArrayList<LldpTlv>();
        int pos = 0;
        while (pos < len) {
            if (len - pos < 2) {
                throw new PacketParseException("LLDP TLV header at offset " + pos + " is cut off");
            }
            int header = Wire.u16(b, off + pos);
            int type = header >>> 9;
            int valueLength = header & 0x1ff;
            if (valueLength > len - pos - 2) {
                throw new PacketParseException("LLDP TLV type " + type + " at offset " + pos + " has length "
                        + valueLength + ", past the end (" + (len - pos - 2) + " bytes left)");
            }
            LldpTlv tlv = decode(type, b, off + pos + 2, valueLength);
            list.add(tlv);
            pos += 2 + valueLength;
            if (tlv instanceof End) {
                break;
            }
        }
        return new Lldp(list);
    }

    private static LldpTlv decode(int type, ByteBuffer b, int at, int n) throws PacketParseException {
        return switch (type) {
            case LldpTlv.TYPE_END -> {
                exact(n, 0, "End");
                yield new End();
            }
            case LldpTlv.TYPE_CHASSIS_ID -> {
                atLeast(n, 1, "chassis ID");
                yield new ChassisId(Wire.u8(b, at), Bytes.copyOf(b, at + 1, n - 1));
            }
            case LldpTlv.TYPE_PORT_ID -> {
                atLeast(n, 1, "port ID");
                yield new PortId(Wire.u8(b, at), Bytes.copyOf(b, at + 1, n - 1));
            }
            case LldpTlv.TYPE_TTL -> {
                exact(n, 2, "TTL");
                yield new Ttl(Wire.u16(b, at));
            }
            case LldpTlv.TYPE_PORT_DESCRIPTION -> new PortDescription(Bytes.copyOf(b, at, n));
            case LldpTlv.TYPE_SYSTEM_NAME -> new SystemName(Bytes.copyOf(b, at, n));
            case LldpTlv.TYPE_SYSTEM_DESCRIPTION -> new SystemDescription(Bytes.copyOf(b, at, n));
            case LldpTlv.TYPE_SYSTEM_CAPABILITIES -> {
                exact(n, 4, "system capabilities");
                yield new SystemCapabilities(Wire.u16(b, at), Wire.u16(b, at + 2));
            }
            case LldpTlv.TYPE_MANAGEMENT_ADDRESS -> decodeManagementAddress(b, at, n);
            case LldpTlv.TYPE_ORGANIZATION_SPECIFIC -> {
                atLeast(n, 4, "organisationally specific");
                yield new OrganizationSpecific((Wire.u8(b, at) << 16) | Wire.u16(b, at + 1), Wire.u8(b, at + 3),
                        Bytes.copyOf(b, at + 4, n - 4));
            }
            default -> new Unknown(type, Bytes.copyOf(b, at, n));
        };
    }

    private static ManagementAddress decodeManagementAddress(ByteBuffer b, int at, int n) throws PacketParseException {
        atLeast(n, 1, "management address");
        int stringLength = Wire.u8(b, at);
        if (stringLength < 1) {
            throw new PacketParseException("LLDP management address string length is 0; it must hold the subtype");
        }
        // string length byte, subtype + address, interface subtype, interface number, OID length byte
        int oidLengthAt = 1 + stringLength + 1 + 4;
        if (oidLengthAt + 1 > n) {
            throw new PacketParseException("LLDP management address string length " + stringLength
                    + " leaves no room for the interface fields in a " + n + "-byte TLV");
        }
        int oidLength = Wire.u8(b, at + oidLengthAt);
        if (oidLengthAt + 1 + oidLength != n) {
            throw new PacketParseException("LLDP management address TLV length " + n + " disagrees with its contents ("
                    + (oidLengthAt + 1 + oidLength) + " bytes)");
        }
        return new ManagementAddress(Wire.u8(b, at + 1), Bytes.copyOf(b, at + 2, stringLength - 1),
                Wire.u8(b, at + 1 + stringLength), Wire.u32(b, at + 2 + stringLength),
                Bytes.copyOf(b, at + oidLengthAt + 1, oidLength));
    }

    private static void exact(int n, int expected, String what) throws PacketParseException {
        if (n != expected) {
            throw new PacketParseException("LLDP " + what + " TLV has length " + n + ", expected " + expected);
        }
    }

    private static void atLeast(int n, int min, String what) throws PacketParseException {
        if (n < min) {
            throw new PacketParseException("LLDP " + what + " TLV has length " + n + ", at least " + min
                    + " needed");
        }
    }

    /** The first chassis ID TLV. */
    public Optional<ChassisId> chassisId() {
        return first(ChassisId.class);
    }

    /** The first port ID TLV. */
    public Optional<PortId> portId() {
        return first(PortId.class);
    }

    /** The first TTL, seconds. */
    public OptionalInt ttl() {
        return first(Ttl.class).map(t -> OptionalInt.of(t.seconds())).orElse(OptionalInt.empty());
    }

    public Optional<String> portDescription() {
        return first(PortDescription.class).map(PortDescription::text);
    }

    public Optional<String> systemName() {
        return first(SystemName.class).map(SystemName::text);
    }

    public Optional<String> systemDescription() {
        return first(SystemDescription.class).map(SystemDescription::text);
    }

    public Optional<SystemCapabilities> systemCapabilities() {
        return first(SystemCapabilities.class);
    }

    public List<ManagementAddress> managementAddresses() {
        return all(ManagementAddress.class);
    }

    /** The organisationally specific TLVs with this OUI and subtype, in order. */
    public List<OrganizationSpecific> organizationSpecific(int oui, int subtype) {
        return all(OrganizationSpecific.class).stream().filter(o -> o.oui() == oui && o.subtype() == subtype)
                .toList();
    }

    private <T extends LldpTlv> Optional<T> first(Class<T> type) {
        return tlvs.stream().filter(type::isInstance).map(type::cast).findFirst();
    }

    private <T extends LldpTlv> List<T> all(Class<T> type) {
        return tlvs.stream().filter(type::isInstance).map(type::cast).toList();
    }

    @Override
    public int length() {
        int n = 0;
        for (LldpTlv t : tlvs) {
            n += 2 + t.valueLength();
        }
        return n;
    }

    /** The LLDPDU's bytes, TLV headers computed. */
    public byte[] serialize() {
        var out = new byte[length()];
        writeTo(out, 0);
        return out;
    }

    void writeTo(byte[] d, int off) {
        int pos = off;
        for (LldpTlv t : tlvs) {
            int n = t.valueLength();
            Wire.put16(d, pos, (t.type() << 9) | n);
            writeValue(t, d, pos + 2);
            pos += 2 + n;
        }
    }

    private static void writeValue(LldpTlv t, byte[] d, int at) {
        if (t instanceof ChassisId c) {
            d[at] = (byte) c.subtype();
            c.id().copyTo(d, at + 1);
        } else if (t instanceof PortId p) {
            d[at] = (byte) p.subtype();
            p.id().copyTo(d, at + 1);
        } else if (t instanceof Ttl ttl) {
            Wire.put16(d, at, ttl.seconds());
        } else if (t instanceof PortDescription p) {
            p.value().copyTo(d, at);
        } else if (t instanceof SystemName s) {
            s.value().copyTo(d, at);
        } else if (t instanceof SystemDescription s) {
            s.value().copyTo(d, at);
        } else if (t instanceof SystemCapabilities c) {
            Wire.put16(d, at, c.capabilities());
            Wire.put16(d, at + 2, c.enabled());
        } else if (t instanceof ManagementAddress m) {
            int n = m.address().length();
            d[at] = (byte) (1 + n);
            d[at + 1] = (byte) m.addressSubtype();
            m.address().copyTo(d, at + 2);
            d[at + 2 + n] = (byte) m.interfaceSubtype();
            Wire.put32(d, at + 3 + n, m.interfaceNumber());
            d[at + 7 + n] = (byte) m.oid().length();
            m.oid().copyTo(d, at + 8 + n);
        } else if (t instanceof OrganizationSpecific o) {
            d[at] = (byte) (o.oui() >>> 16);
            Wire.put16(d, at + 1, o.oui());
            d[at + 3] = (byte) o.subtype();
            o.info().copyTo(d, at + 4);
        } else if (t instanceof Unknown u) {
            u.value().copyTo(d, at);
        }
        // End has no value.
    }

    @Override
    public String toString() {
        var s = new StringBuilder("LLDP[");
        for (int i = 0; i < tlvs.size(); i++) {
            s.append(i == 0 ? "" : ", ").append(tlvs.get(i));
        }
        return s.append(']').toString();
    }
}
