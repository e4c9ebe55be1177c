package net.beaconcontroller.packet;

import java.util.Objects;
import net.beaconcontroller.util.IPv4Address;

/**
 * One DHCP option (RFC 2132): a code and a value of up to 255 bytes. Code 0 is the one-byte Pad option (no value);
 * the End option (255) is not an option value, {@link Dhcp} writes it.
 *
 * @param code 0..254
 * @param value the option's data; empty for Pad
 */
public record DhcpOption(int code, Bytes value) {
    public static final int PAD = 0;
    public static final int SUBNET_MASK = 1;
    public static final int ROUTER = 3;
    public static final int DOMAIN_NAME_SERVER = 6;
    public static final int HOST_NAME = 12;
    public static final int DOMAIN_NAME = 15;
    public static final int REQUESTED_IP_ADDRESS = 50;
    public static final int LEASE_TIME = 51;
    public static final int MESSAGE_TYPE = 53;
    public static final int SERVER_IDENTIFIER = 54;
    public static final int PARAMETER_REQUEST_LIST = 55;
    public static final int MAXIMUM_MESSAGE_SIZE = 57;
    public static final int CLIENT_IDENTIFIER = 61;
    public static final int END = 255;

    /** The Pad option. */
    public static final DhcpOption PAD_OPTION = new DhcpOption(PAD, Bytes.EMPTY);

    public DhcpOption {
        if (code < 0 || code >= END) {
            throw new IllegalArgumentException("DHCP option code must be 0..254, not " + code);
        }
        Objects.requireNonNull(value, "value");
        if (value.length() > 255) {
            throw new IllegalArgumentException("DHCP option value up to 255 bytes, not " + value.length());
        }
        if (code == PAD && !value.isEmpty()) {
            throw new IllegalArgumentException("the Pad option has no value");
        }
    }

    public static DhcpOption of(int code, Bytes value) {
        return new DhcpOption(code, value);
    }

    /** Option 53, e.g. {@link Dhcp#DISCOVER}. */
    public static DhcpOption messageType(int type) {
        if (type < 0 || type > 0xff) {
            throw new IllegalArgumentException("DHCP message type is u8, not " + type);
        }
        return new DhcpOption(MESSAGE_TYPE, Bytes.of((byte) type));
    }

    /** Option 50. */
    public static DhcpOption requestedIpAddress(int ip) {
        return new DhcpOption(REQUESTED_IP_ADDRESS, Bytes.of(IPv4Address.toBytes(ip)));
    }

    /** Option 54. */
    public static DhcpOption serverIdentifier(int ip) {
        return new DhcpOption(SERVER_IDENTIFIER, Bytes.of(IPv4Address.toBytes(ip)));
    }

    /** Option 12. */
    public static DhcpOption hostName(String name) {
        return new DhcpOption(HOST_NAME, Bytes.utf8(name));
    }

    /** Option 55: the codes the client asks for. */
    public static DhcpOption parameterRequestList(int... codes) {
        var b = new byte[codes.length];
        for (int i = 0; i < codes.length; i++) {
            b[i] = (byte) codes[i];
        }
        return new DhcpOption(PARAMETER_REQUEST_LIST, Bytes.of(b));
    }

    /** Bytes on the wire: one for Pad, else code, length and value. */
    public int length() {
        return code == PAD ? 1 : 2 + value.length();
    }

    @Override
    public String toString() {
        if (code == PAD) {
            return "pad";
        } else if (code == MESSAGE_TYPE && value.length() == 1) {
            return "type " + Dhcp.messageTypeName(value.get(0));
        } else if (code == HOST_NAME) {
            return "host name \"" + value.utf8() + "\"";
        } else if (value.length() == 4
                && (code == SUBNET_MASK || code == REQUESTED_IP_ADDRESS || code == SERVER_IDENTIFIER)) {
            String name = code == SUBNET_MASK ? "mask " : code == SERVER_IDENTIFIER ? "server " : "requested ";
            return name + IPv4Address.toString(IPv4Address.fromBytes(value.toArray(), 0));
        }
        return code + "=" + value;
    }
}
