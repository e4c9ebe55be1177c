package net.beaconcontroller.packet;

import java.nio.ByteBuffer;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;

/**
 * An ARP message for IPv4 over Ethernet-sized hardware addresses (RFC 826): hardware length 6, protocol length 4.
 * Inside a frame, ARP with other address lengths is kept as {@link Data}.
 *
 * @param hardwareType 1 for Ethernet
 * @param protocolType 0x0800 for IPv4
 * @param opcode {@link #REQUEST}, {@link #REPLY} or another operation code (u16)
 * @param senderHardwareAddress sender MAC, low 48 bits
 * @param senderProtocolAddress sender IPv4 address
 * @param targetHardwareAddress target MAC (zero in a request)
 * @param targetProtocolAddress target IPv4 address
 */
public record Arp(int hardwareType, int protocolType, int opcode, long senderHardwareAddress,
        int senderProtocolAddress, long targetHardwareAddress, int targetProtocolAddress) implements EthernetPayload {
    public static final int HARDWARE_ETHERNET = 1;
    public static final int PROTOCOL_IPV4 = 0x0800;
    public static final int REQUEST = 1;
    public static final int REPLY = 2;
    /** Bytes of an Ethernet/IPv4 ARP message. */
    public static final int LENGTH = 28;

    public Arp {
        check16(hardwareType, "hardware type");
        check16(protocolType, "protocol type");
        check16(opcode, "opcode");
        if ((senderHardwareAddress & ~MacAddress.BROADCAST) != 0
                || (targetHardwareAddress & ~MacAddress.BROADCAST) != 0) {
            throw new IllegalArgumentException("ARP hardware addresses are 48-bit MACs");
        }
    }

    private static void check16(int v, String what) {
        if (v < 0 || v > 0xffff) {
            throw new IllegalArgumentException("ARP " + what + " must be 0..65535, not " + v);
        }
    }

    /** "Who has {@code targetIp}? Tell {@code senderIp}": target hardware address zero. */
    public static Arp request(long senderMac, int senderIp, int targetIp) {
        return new Arp(HARDWARE_ETHERNET, PROTOCOL_IPV4, REQUEST, senderMac, senderIp, 0, targetIp);
    }

    /** "{@code senderIp} is at {@code senderMac}", sent to the asker. */
    public static Arp reply(long senderMac, int senderIp, long targetMac, int targetIp) {
        return new Arp(HARDWARE_ETHERNET, PROTOCOL_IPV4, REPLY, senderMac, senderIp, targetMac, targetIp);
    }

    /** Parses an Ethernet/IPv4 ARP message; bytes after the 28 are ignored. */
    public static Arp parse(byte[] buf) throws PacketParseException {
        return parse(ByteBuffer.wrap(buf));
    }

    /**
     * Parses an Ethernet/IPv4 ARP message in {@code length} bytes of {@code buf} from {@code offset}.
     *
     * @throws PacketParseException when it is truncated or has other address lengths than 6 and 4
     */
    public static Arp parse(byte[] buf, int offset, int length) throws PacketParseException {
        return parse(ByteBuffer.wrap(buf, offset, length));
    }

    /**
     * Parses an Ethernet/IPv4 ARP message between the buffer's position and limit; the buffer is not changed.
     *
     * @throws PacketParseException when it is truncated or has other address lengths than 6 and 4
     */
    public static Arp parse(ByteBuffer message) throws PacketParseException {
        ByteBuffer b = Wire.bigEndian(message);
        int offset = b.position();
        if (parseIn(b, offset, b.remaining()) instanceof Arp arp) {
            return arp;
        }
        throw new PacketParseException("ARP hardware length " + Wire.u8(b, offset + 4) + " and protocol length "
                + Wire.u8(b, offset + 5) + " are not Ethernet/IPv4 (6 and 4)");
    }

    /** As inside a frame: ARP for other address sizes stays raw. */
    static EthernetPayload parseIn(ByteBuffer b, int off, int len) throws PacketParseException {
        Wire.need(len, 8, "ARP header");
        if (Wire.u8(b, off + 4) != 6 || Wire.u8(b, off + 5) != 4) {
            return new Data(Bytes.copyOf(b, off, len));
        }
        Wire.need(len, LENGTH, "Ethernet/IPv4 ARP message");
        return new Arp(Wire.u16(b, off), Wire.u16(b, off + 2), Wire.u16(b, off + 6), MacAddress.read(b, off + 8),
                Wire.i32(b, off + 14), MacAddress.read(b, off + 18), Wire.i32(b, off + 24));
    }

    @Override
    public int length() {
        return LENGTH;
    }

    /** The 28 bytes of this message. */
    public byte[] serialize() {
        var out = new byte[LENGTH];
        writeTo(out, 0);
        return out;
    }

    void writeTo(byte[] d, int off) {
        Wire.put16(d, off, hardwareType);
        Wire.put16(d, off + 2, protocolType);
        d[off + 4] = 6;
        d[off + 5] = 4;
        Wire.put16(d, off + 6, opcode);
        MacAddress.toBytes(senderHardwareAddress, d, off + 8);
        Wire.put32(d, off + 14, senderProtocolAddress);
        MacAddress.toBytes(targetHardwareAddress, d, off + 18);
        Wire.put32(d, off + 24, targetProtocolAddress);
    }

    @Override
    public String toString() {
        String sha = MacAddress.toString(senderHardwareAddress);
        String spa = IPv4Address.toString(senderProtocolAddress);
        String tpa = IPv4Address.toString(targetProtocolAddress);
        String tha = MacAddress.toString(targetHardwareAddress);
        String types = hardwareType == HARDWARE_ETHERNET && protocolType == PROTOCOL_IPV4 ? ""
                : " (htype " + hardwareType + ", ptype " + Wire.hex16(protocolType) + ")";
        return switch (opcode) {
            case REQUEST -> "ARP[request who-has " + tpa + " tell " + spa + " (" + sha + ")" + types + "]";
            case REPLY -> "ARP[reply " + spa + " is-at " + sha + " to " + tpa + " (" + tha + ")" + types + "]";
            default -> "ARP[op " + opcode + " " + spa + " (" + sha + ") > " + tpa + " (" + tha + ")" + types + "]";
        };
    }
}
