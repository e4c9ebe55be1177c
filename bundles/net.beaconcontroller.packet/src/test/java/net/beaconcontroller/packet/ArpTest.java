package net.beaconcontroller.packet;

import static net.beaconcontroller.packet.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;
import org.junit.jupiter.api.Test;

class ArpTest {
    private static final long HOST1 = MacAddress.parse("52:54:00:12:34:56");
    private static final long HOST2 = MacAddress.parse("52:54:00:ab:cd:ef");
    private static final int IP1 = IPv4Address.parse("10.0.0.1");
    private static final int IP2 = IPv4Address.parse("10.0.0.2");

    @Test
    void reply() throws Exception {
        byte[] frame = hex(Vectors.ARP_REPLY);
        Ethernet e = Ethernet.parse(frame);
        var arp = assertInstanceOf(Arp.class, e.payload());
        assertEquals(Arp.HARDWARE_ETHERNET, arp.hardwareType());
        assertEquals(Arp.PROTOCOL_IPV4, arp.protocolType());
        assertEquals(Arp.REPLY, arp.opcode());
        assertEquals(HOST2, arp.senderHardwareAddress());
        assertEquals(IP2, arp.senderProtocolAddress());
        assertEquals(HOST1, arp.targetHardwareAddress());
        assertEquals(IP1, arp.targetProtocolAddress());
        assertEquals(Arp.reply(HOST2, IP2, HOST1, IP1), arp);
        assertArrayEquals(frame, e.serialize());
        assertArrayEquals(Arrays.copyOfRange(frame, 14, 42), arp.serialize());
        assertEquals("ARP[reply 10.0.0.2 is-at 52:54:00:ab:cd:ef to 10.0.0.1 (52:54:00:12:34:56)]", arp.toString());
    }

    @Test
    void standaloneParse() throws Exception {
        byte[] frame = hex(Vectors.ARP_REQUEST);
        var arp = Arp.parse(frame, 14, 46);
        assertEquals(Arp.request(HOST1, IP1, IP2), arp);
        assertEquals(arp, Arp.parse(arp.serialize()));
    }

    @Test
    void otherAddressSizesStayRawInAFrameAndAreRejectedAlone() throws Exception {
        // ARP over a hypothetical 8-byte hardware address: not Ethernet/IPv4.
        String body = "0001" + "0800" + "08" + "04" + "0001" + "00".repeat(2 * 8 + 2 * 4);
        var frame = hex("ffffffffffff" + "525400123456" + "0806" + body);
        Ethernet e = Ethernet.parse(frame);
        assertEquals(Data.of(hex(body)), e.payload());
        assertArrayEquals(frame, e.serialize());
        var ex = assertThrows(PacketParseException.class, () -> Arp.parse(hex(body)));
        assertEquals("ARP hardware length 8 and protocol length 4 are not Ethernet/IPv4 (6 and 4)", ex.getMessage());
    }

    @Test
    void truncated() {
        var ex = assertThrows(PacketParseException.class, () -> Arp.parse(hex("0001080006040001525400123456")));
        assertEquals("Ethernet/IPv4 ARP message needs 28 bytes, only 14 present", ex.getMessage());
    }

    @Test
    void otherOpcodesPrint() {
        var rarp = new Arp(1, 0x0800, 3, HOST1, 0, HOST1, 0);
        assertEquals("ARP[op 3 0.0.0.0 (52:54:00:12:34:56) > 0.0.0.0 (52:54:00:12:34:56)]", rarp.toString());
        assertThrows(IllegalArgumentException.class, () -> new Arp(1, 0x0800, 0x10000, HOST1, 0, HOST1, 0));
    }
}
