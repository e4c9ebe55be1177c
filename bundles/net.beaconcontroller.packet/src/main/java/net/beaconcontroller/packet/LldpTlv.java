package net.beaconcontroller.packet;

import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;

/**
 * One LLDP TLV (IEEE 802.1AB): a 7-bit type, a 9-bit length and a value. The standard TLVs have their own records;
 * types 9..126 are kept as {@link Unknown}.
 */
public sealed interface LldpTlv {
    int TYPE_END = 0;
    int TYPE_CHASSIS_ID = 1;
    int TYPE_PORT_ID = 2;
    int TYPE_TTL = 3;
    int TYPE_PORT_DESCRIPTION = 4;
    int TYPE_SYSTEM_NAME = 5;
    int TYPE_SYSTEM_DESCRIPTION = 6;
    int TYPE_SYSTEM_CAPABILITIES = 7;
    int TYPE_MANAGEMENT_ADDRESS = 8;
    int TYPE_ORGANIZATION_SPECIFIC = 127;
    /** The 9-bit length field's limit. */
    int MAX_VALUE_LENGTH = 511;

    /** The TLV type. */
    int type();

    /** Length of the value, as in the TLV header. */
    int valueLength();

    /** End of LLDPDU: type 0, length 0. */
    record End() implements LldpTlv {
        @Override
        public int type() {
            return TYPE_END;
        }

        @Override
        public int valueLength() {
            return 0;
        }

        @Override
        public String toString() {
            return "end";
        }
    }

    /**
     * Chassis ID: a subtype saying what kind of identifier follows.
     *
     * @param subtype u8, e.g. {@link #MAC_ADDRESS}
     * @param id the identifier, up to 510 bytes
     */
    record ChassisId(int subtype, Bytes id) implements LldpTlv {
        public static final int CHASSIS_COMPONENT = 1;
        public static final int INTERFACE_ALIAS = 2;
        public static final int PORT_COMPONENT = 3;
        public static final int MAC_ADDRESS = 4;
        public static final int NETWORK_ADDRESS = 5;
        public static final int INTERFACE_NAME = 6;
        public static final int LOCALLY_ASSIGNED = 7;

        public ChassisId {
            checkU8(subtype, "chassis ID subtype");
            checkLength(id, 1, "chassis ID");
        }

        public static ChassisId ofMac(long mac) {
            return new ChassisId(MAC_ADDRESS, Bytes.of(MacAddress.toBytes(mac)));
        }

        public static ChassisId locallyAssigned(String text) {
            return new ChassisId(LOCALLY_ASSIGNED, Bytes.utf8(text));
        }

        /** The MAC address when the subtype is MAC address and the id has 6 bytes. */
        public OptionalLong mac() {
            return subtype == MAC_ADDRESS && id.length() == 6 ? OptionalLong.of(MacAddress.fromBytes(id.toArray()))
                    : OptionalLong.empty();
        }

        @Override
        public int type() {
            return TYPE_CHASSIS_ID;
        }

        @Override
        public int valueLength() {
            return 1 + id.length();
        }

        @Override
        public String toString() {
            return "chassis " + switch (subtype) {
                case MAC_ADDRESS -> id.length() == 6 ? "mac " + MacAddress.toString(mac().getAsLong())
                        : "mac? " + id.toHex();
                case NETWORK_ADDRESS -> "address " + LldpTlv.networkAddress(id);
                default -> "subtype " + subtype + " " + LldpTlv.text(id);
            };
        }
    }

    /**
     * Port ID: a subtype saying what kind of identifier follows.
     *
     * @param subtype u8, e.g. {@link #PORT_COMPONENT}
     * @param id the identifier, up to 510 bytes
     */
    record PortId(int subtype, Bytes id) implements LldpTlv {
        public static final int INTERFACE_ALIAS = 1;
        public static final int PORT_COMPONENT = 2;
        public static final int MAC_ADDRESS = 3;
        public static final int NETWORK_ADDRESS = 4;
        public static final int INTERFACE_NAME = 5;
        public static final int AGENT_CIRCUIT_ID = 6;
        public static final int LOCALLY_ASSIGNED = 7;

        public PortId {
            checkU8(subtype, "port ID subtype");
            checkLength(id, 1, "port ID");
        }

        /** Port component holding a 16-bit (OpenFlow 1.0) port number, as controllers send for discovery. */
        public static PortId ofPortNumber(int port) {
            if (port < 0 || port > 0xffff) {
                throw new IllegalArgumentException("port number must be 0..65535, not " + port);
            }
            return new PortId(PORT_COMPONENT, Bytes.of((byte) (port >>> 8), (byte) port));
        }

        public static PortId ofInterfaceName(String name) {
            return new PortId(INTERFACE_NAME, Bytes.utf8(name));
        }

        public static PortId ofMac(long mac) {
            return new PortId(MAC_ADDRESS, Bytes.of(MacAddress.toBytes(mac)));
        }

        /** The port number when the subtype is port component with a 2-byte id. */
        public OptionalInt portNumber() {
            return subtype == PORT_COMPONENT && id.length() == 2 ? OptionalInt.of((id.get(0) << 8) | id.get(1))
                    : OptionalInt.empty();
        }

        @Override
        public int type() {
            return TYPE_PORT_ID;
        }

        @Override
        public int valueLength() {
            return 1 + id.length();
        }

        @Override
        public String toString() {
            return "port " + switch (subtype) {
                case PORT_COMPONENT -> id.length() == 2 ? "number " + portNumber().getAsInt()
                        : "component " + LldpTlv.text(id);
                case MAC_ADDRESS -> id.length() == 6 ? "mac " + MacAddress.toString(MacAddress.fromBytes(id.toArray()))
                        : "mac? " + id.toHex();
                case NETWORK_ADDRESS -> "address " + LldpTlv.networkAddress(id);
                default -> "subtype " + subtype + " " + LldpTlv.text(id);
            };
        }
    }

    /**
     * Time to live: how long the receiver keeps the information; 0 withdraws it.
     *
     * @param seconds u16
     */
    record Ttl(int seconds) implements LldpTlv {
        public Ttl {
            if (seconds < 0 || seconds > 0xffff) {
                throw new IllegalArgumentException("LLDP TTL must be 0..65535, not " + seconds);
            }
        }

        @Override
        public int type() {
            return TYPE_TTL;
        }

        @Override
        public int valueLength() {
            return 2;
        }

        @Override
        public String toString() {
            return "ttl " + seconds;
        }
    }

    /** Port description: text kept as bytes, so odd encodings survive a round trip. */
    record PortDescription(Bytes value) implements LldpTlv {
        public PortDescription {
            checkLength(value, 0, "port description");
        }

        public static PortDescription of(String text) {
            return new PortDescription(Bytes.utf8(text));
        }

        public String text() {
            return value.utf8();
        }

        @Override
        public int type() {
            return TYPE_PORT_DESCRIPTION;
        }

        @Override
        public int valueLength() {
            return value.length();
        }

        @Override
        public String toString() {
            return "port description " + LldpTlv.text(value);
        }
    }

    /** System name: text kept as bytes. */
    record SystemName(Bytes value) implements LldpTlv {
        public SystemName {
            checkLength(value, 0, "system name");
        }

        public static SystemName of(String text) {
            return new SystemName(Bytes.utf8(text));
        }

        public String text() {
            return value.utf8();
        }

        @Override
        public int type() {
            return TYPE_SYSTEM_NAME;
        }

        @Override
        public int valueLength() {
            return value.length();
        }

        @Override
        public String toString() {
            return "system name " + LldpTlv.text(value);
        }
    }

    /** System description: text kept as bytes. */
    record SystemDescription(Bytes value) implements LldpTlv {
        public SystemDescription {
            checkLength(value, 0, "system description");
        }

        public static SystemDescription of(String text) {
            return new SystemDescription(Bytes.utf8(text));
        }

        public String text() {
            return value.utf8();
        }

        @Override
        public int type() {
            return TYPE_SYSTEM_DESCRIPTION;
        }

        @Override
        public int valueLength() {
            return value.length();
        }

        @Override
        public String toString() {
            return "system description " + LldpTlv.text(value);
        }
    }

    /**
     * System capabilities: what the system can do and what is enabled, both bit sets (u16).
     *
     * @param capabilities e.g. {@link #BRIDGE} | {@link #ROUTER}
     * @param enabled the subset turned on
     */
    record SystemCapabilities(int capabilities, int enabled) implements LldpTlv {
        public static final int OTHER = 0x01;
        public static final int REPEATER = 0x02;
        public static final int BRIDGE = 0x04;
        public static final int WLAN_ACCESS_POINT = 0x08;
        public static final int ROUTER = 0x10;
        public static final int TELEPHONE = 0x20;
        public static final int DOCSIS = 0x40;
        public static final int STATION_ONLY = 0x80;

        public SystemCapabilities {
            if (capabilities < 0 || capabilities > 0xffff || enabled < 0 || enabled > 0xffff) {
                throw new IllegalArgumentException("LLDP capabilities are 16-bit sets");
            }
        }

        @Override
        public int type() {
            return TYPE_SYSTEM_CAPABILITIES;
        }

        @Override
        public int valueLength() {
            return 4;
        }

        @Override
        public String toString() {
            return String.format("capabilities 0x%04x enabled 0x%04x", capabilities, enabled);
        }
    }

    /**
     * Management address: where to manage the system, and on which interface.
     *
     * @param addressSubtype IANA address family, e.g. {@link #IPV4} (u8)
     * @param address the address, up to 254 bytes (the standard allows 31)
     * @param interfaceSubtype {@link #IF_UNKNOWN}, {@link #IF_INDEX} or {@link #SYSTEM_PORT_NUMBER} (u8)
     * @param interfaceNumber u32
     * @param oid object identifier, up to 255 bytes (the standard allows 128), usually empty
     */
    record ManagementAddress(int addressSubtype, Bytes address, int interfaceSubtype, long interfaceNumber, Bytes oid)
            implements LldpTlv {
        public static final int IPV4 = 1;
        public static final int IPV6 = 2;
        public static final int MAC = 6;
        public static final int IF_UNKNOWN = 1;
        public static final int IF_INDEX = 2;
        public static final int SYSTEM_PORT_NUMBER = 3;

        public ManagementAddress {
            checkU8(addressSubtype, "management address subtype");
            checkU8(interfaceSubtype, "interface numbering subtype");
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(oid, "oid");
            if (address.length() > 254 || oid.length() > 255
                    || 8 + address.length() + oid.length() > MAX_VALUE_LENGTH) {
                throw new IllegalArgumentException("management address up to 254 bytes, OID up to 255, together "
                        + "up to 503; not " + address.length() + " and " + oid.length());
            }
            if (interfaceNumber < 0 || interfaceNumber > 0xffff_ffffL) {
                throw new IllegalArgumentException("interface number is u32, not " + interfaceNumber);
            }
        }

        /** An IPv4 management address on interface index {@code ifIndex}, no OID. */
        public static ManagementAddress ofIpv4(int ip, long ifIndex) {
            return new ManagementAddress(IPV4, Bytes.of(IPv4Address.toBytes(ip)), IF_INDEX, ifIndex, Bytes.EMPTY);
        }

        @Override
        public int type() {
            return TYPE_MANAGEMENT_ADDRESS;
        }

        @Override
        public int valueLength() {
            return 1 + 1 + address.length() + 1 + 4 + 1 + oid.length();
        }

        @Override
        public String toString() {
            var a = new byte[1 + address.length()];
            a[0] = (byte) addressSubtype;
            address.copyTo(a, 1);
            return "management address " + LldpTlv.networkAddress(Bytes.of(a)) + " interface " + interfaceNumber
                    + " (subtype " + interfaceSubtype + ")" + (oid.isEmpty() ? "" : " oid " + oid.toHex());
        }
    }

    /**
     * Organisationally specific TLV: an OUI, a subtype defined by that organisation, and its data.
     *
     * @param oui 24-bit organisationally unique identifier
     * @param subtype u8
     * @param info up to 507 bytes
     */
    record OrganizationSpecific(int oui, int subtype, Bytes info) implements LldpTlv {
        public OrganizationSpecific {
            if (oui < 0 || oui > 0xffffff) {
                throw new IllegalArgumentException("OUI is 24 bits, not " + Integer.toHexString(oui));
            }
            checkU8(subtype, "organisation subtype");
            Objects.requireNonNull(info, "info");
            if (info.length() > MAX_VALUE_LENGTH - 4) {
                throw new IllegalArgumentException("organisation TLV info up to 507 bytes, not " + info.length());
            }
        }

        @Override
        public int type() {
            return TYPE_ORGANIZATION_SPECIFIC;
        }

        @Override
        public int valueLength() {
            return 4 + info.length();
        }

        @Override
        public String toString() {
            return String.format("org %02x:%02x:%02x subtype %d %s", oui >>> 16, (oui >>> 8) & 0xff, oui & 0xff,
                    subtype, info.toHex());
        }
    }

    /**
     * A TLV of a type this library does not know (9..126), kept as is.
     *
     * @param type 9..126
     * @param value up to 511 bytes
     */
    record Unknown(int type, Bytes value) implements LldpTlv {
        public Unknown {
            if (type < 9 || type > 126) {
                throw new IllegalArgumentException("unknown TLV types are 9..126, not " + type);
            }
            checkLength(value, 0, "TLV");
        }

        @Override
        public int valueLength() {
            return value.length();
        }

        @Override
        public String toString() {
            return "tlv " + type + " " + value.toHex();
        }
    }

    private static void checkU8(int v, String what) {
        if (v < 0 || v > 0xff) {
            throw new IllegalArgumentException(what + " must be 0..255, not " + v);
        }
    }

    /** Checks a value field of {@code fixed} header bytes plus {@code value} fits in the 9-bit length. */
    private static void checkLength(Bytes value, int fixed, String what) {
        Objects.requireNonNull(value, what);
        if (fixed + value.length() > MAX_VALUE_LENGTH) {
            throw new IllegalArgumentException(what + " too long for a TLV: " + value.length() + " bytes");
        }
    }

    /** Quoted text when printable ASCII, hex otherwise. */
    private static String text(Bytes b) {
        for (int i = 0; i < b.length(); i++) {
            if (b.get(i) < 0x20 || b.get(i) > 0x7e) {
                return b.toHex();
            }
        }
        return '"' + b.utf8() + '"';
    }

    /** An address-family byte followed by the address: IPv4 dotted, others in hex. */
    private static String networkAddress(Bytes b) {
        if (b.length() == 5 && b.get(0) == ManagementAddress.IPV4) {
            var a = b.toArray();
            return IPv4Address.toString(IPv4Address.fromBytes(a, 1));
        }
        return b.toHex();
    }
}
