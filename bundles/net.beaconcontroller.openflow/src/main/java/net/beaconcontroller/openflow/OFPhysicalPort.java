package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.Objects;

import net.beaconcontroller.util.MacAddress;

/**
 * A port description ({@code ofp_phy_port}, 48 bytes), as carried by FEATURES_REPLY and PORT_STATUS.
 *
 * @param portNo     the port number ({@link OFPort} has the reserved ones)
 * @param hwAddr     the MAC address, low 48 bits
 * @param name       the interface name, at most 16 characters
 * @param config     {@code CONFIG_*} bits
 * @param state      {@code STATE_*} bits
 * @param curr       {@code FEATURE_*} bits of the current link, 0 when unknown
 * @param advertised {@code FEATURE_*} bits advertised by the port
 * @param supported  {@code FEATURE_*} bits supported by the port
 * @param peer       {@code FEATURE_*} bits advertised by the peer
 */
public record OFPhysicalPort(int portNo, long hwAddr, String name, long config, long state, long curr,
        long advertised, long supported, long peer) {
    public static final int LENGTH = 48;
    public static final int NAME_LENGTH = 16;

    /** {@code ofp_port_config}: administratively down. */
    public static final long CONFIG_PORT_DOWN = 1 << 0;
    public static final long CONFIG_NO_STP = 1 << 1;
    public static final long CONFIG_NO_RECV = 1 << 2;
    public static final long CONFIG_NO_RECV_STP = 1 << 3;
    /** Excluded from {@link OFPort#FLOOD}. */
    public static final long CONFIG_NO_FLOOD = 1 << 4;
    public static final long CONFIG_NO_FWD = 1 << 5;
    public static final long CONFIG_NO_PACKET_IN = 1 << 6;

    /** {@code ofp_port_state}: no physical link. */
    public static final long STATE_LINK_DOWN = 1 << 0;
    public static final long STATE_STP_LISTEN = 0 << 8;
    public static final long STATE_STP_LEARN = 1 << 8;
    public static final long STATE_STP_FORWARD = 2 << 8;
    public static final long STATE_STP_BLOCK = 3 << 8;
    public static final long STATE_STP_MASK = 3 << 8;

    /** {@code ofp_port_features}. */
    public static final long FEATURE_10MB_HD = 1 << 0;
    public static final long FEATURE_10MB_FD = 1 << 1;
    public static final long FEATURE_100MB_HD = 1 << 2;
    public static final long FEATURE_100MB_FD = 1 << 3;
    public static final long FEATURE_1GB_HD = 1 << 4;
    public static final long FEATURE_1GB_FD = 1 << 5;
    public static final long FEATURE_10GB_FD = 1 << 6;
    public static final long FEATURE_COPPER = 1 << 7;
    public static final long FEATURE_FIBER = 1 << 8;
    public static final long FEATURE_AUTONEG = 1 << 9;
    public static final long FEATURE_PAUSE = 1 << 10;
    public static final long FEATURE_PAUSE_ASYM = 1 << 11;

    public OFPhysicalPort {
        OFWire.u16(portNo, "port_no");
        if ((hwAddr & ~0xffff_ffff_ffffL) != 0) {
            throw new IllegalArgumentException("hw_addr must be a 48-bit value, not " + Long.toHexString(hwAddr));
        }
        OFWire.checkString(Objects.requireNonNull(name, "name"), NAME_LENGTH, "port name");
        OFWire.u32(config, "config");
        OFWire.u32(state, "state");
        OFWire.u32(curr, "curr");
        OFWire.u32(advertised, "advertised");
        OFWire.u32(supported, "supported");
        OFWire.u32(peer, "peer");
    }

    /** Administratively down or without link: not usable for forwarding. */
    public boolean isDown() {
        return (config & CONFIG_PORT_DOWN) != 0 || (state & STATE_LINK_DOWN) != 0;
    }

    /**
     * Reads 48 bytes at the buffer's position and advances past them.
     *
     * @throws OFParseException when fewer than 48 bytes remain
     */
    public static OFPhysicalPort readFrom(ByteBuffer buf) throws OFParseException {
        int p = buf.position();
        if (buf.limit() - p < LENGTH) {
            throw new OFParseException("port description needs " + LENGTH + " bytes, " + (buf.limit() - p) + " left");
        }
        var port = new OFPhysicalPort(buf.getShort(p) & 0xffff, MacAddress.read(buf, p + 2),
                OFWire.readString(buf, p + 8, NAME_LENGTH), u32(buf, p + 24), u32(buf, p + 28), u32(buf, p + 32),
                u32(buf, p + 36), u32(buf, p + 40), u32(buf, p + 44));
        buf.position(p + LENGTH);
        return port;
    }

    private static long u32(ByteBuffer buf, int index) {
        return buf.getInt(index) & 0xffff_ffffL;
    }

    /** Writes 48 bytes at the buffer's position. */
    public void writeTo(ByteBuffer buf) {
        MacAddress.write(buf.putShort((short) portNo), hwAddr);
        OFWire.writeString(buf, name, NAME_LENGTH);
        buf.putInt((int) config).putInt((int) state).putInt((int) curr).putInt((int) advertised)
                .putInt((int) supported).putInt((int) peer);
    }

    @Override
    public String toString() {
        return "OFPhysicalPort[" + OFPort.toString(portNo) + " '" + name + "' " + MacAddress.toString(hwAddr)
                + ", config=" + OFWire.hex(config) + ", state=" + OFWire.hex(state) + ", curr=" + OFWire.hex(curr)
                + ", advertised=" + OFWire.hex(advertised) + ", supported=" + OFWire.hex(supported) + ", peer="
                + OFWire.hex(peer) + "]";
    }
}
