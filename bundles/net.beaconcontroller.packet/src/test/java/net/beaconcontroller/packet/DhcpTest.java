package net.beaconcontroller.packet;

import static net.beaconcontroller.packet.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;
import org.junit.jupiter.api.Test;

class DhcpTest {
    private static final long CLIENT = MacAddress.parse("52:54:00:12:34:56");
    private static final int SERVER_IP = IPv4Address.parse("10.0.0.254");
    private static final int LEASED_IP = IPv4Address.parse("10.0.0.100");
    private static final int BROADCAST_IP = IPv4Address.parse("255.255.255.255");

    @Test
    void discoverPaddedTo300Bytes() throws Exception {
        byte[] frame = hex(Vectors.DHCP_DISCOVER);
        Ethernet e = Ethernet.parse(frame);
        var ip = (Ipv4) e.payload();
        var udp = (Udp) ip.payload();
        assertEquals(68, udp.sourcePort());
        assertEquals(67, udp.destinationPort());
        var dhcp = assertInstanceOf(Dhcp.class, udp.payload());
        assertEquals(Dhcp.BOOT_REQUEST, dhcp.op());
        assertEquals(1, dhcp.htype());
        assertEquals(6, dhcp.hlen());
        assertEquals(0x3903f326L, dhcp.xid());
        assertEquals(3, dhcp.secs());
        assertEquals(CLIENT, dhcp.clientMac());
        assertEquals(0, dhcp.ciaddr());
        assertEquals(0, dhcp.yiaddr());
        assertEquals(OptionalInt.of(Dhcp.DISCOVER), dhcp.messageType());
        assertEquals(Optional.of("beacon-host"), dhcp.hostName());
        assertEquals(OptionalInt.empty(), dhcp.requestedIpAddress());
        assertEquals(Bytes.zeros(28), dhcp.padding());
        assertEquals(300, dhcp.length());
        assertTrue(ip.checksumsValid());
        assertArrayEquals(frame, e.serialize());
        assertArrayEquals(Arrays.copyOfRange(frame, 42, frame.length), dhcp.serialize());

        var built = Ethernet.of(MacAddress.BROADCAST, CLIENT, Ipv4.builder().tos(0x10).source(0)
                .destination(BROADCAST_IP).payload(Udp.of(68, 67, Dhcp.builder().xid(0x3903f326L).secs(3)
                        .clientMac(CLIENT).option(DhcpOption.messageType(Dhcp.DISCOVER))
                        .option(DhcpOption.hostName("beacon-host"))
                        .option(DhcpOption.parameterRequestList(1, 28, 2, 3, 15, 6, 119, 12, 44, 47, 26, 121, 42))
                        .padding(Bytes.zeros(28)).build()))
                .build());
        assertEquals(e, built);
        assertArrayEquals(frame, built.serialize());
    }

    @Test
    void requestNamesTheServerAndTheAddress() throws Exception {
        byte[] frame = hex(Vectors.DHCP_REQUEST);
        var dhcp = (Dhcp) ((Udp) ((Ipv4) Ethernet.parse(frame).payload()).payload()).payload();
        assertEquals(OptionalInt.of(Dhcp.REQUEST), dhcp.messageType());
        assertEquals(OptionalInt.of(SERVER_IP), dhcp.serverIdentifier());
        assertEquals(OptionalInt.of(LEASED_IP), dhcp.requestedIpAddress());
        assertEquals(Optional.of("beacon-host"), dhcp.hostName());
        assertEquals(List.of(DhcpOption.messageType(Dhcp.REQUEST), DhcpOption.serverIdentifier(SERVER_IP),
                DhcpOption.requestedIpAddress(LEASED_IP), DhcpOption.hostName("beacon-host"),
                DhcpOption.parameterRequestList(1, 3, 6, 15)), dhcp.options());
        assertTrue(dhcp.padding().isEmpty());
        assertArrayEquals(frame, Ethernet.parse(frame).serialize());
        assertEquals("DHCP[REQUEST, xid 0x3903f326, client 52:54:00:12:34:56, options [type REQUEST, server 10.0.0.254,"
                + " requested 10.0.0.100, host name \"beacon-host\", 55=0103060f]]", dhcp.toString());
    }

    @Test
    void ackFromTheServer() throws Exception {
        byte[] frame = hex(Vectors.DHCP_ACK);
        var udp = (Udp) ((Ipv4) Ethernet.parse(frame).payload()).payload();
        assertEquals(67, udp.sourcePort());
        var dhcp = (Dhcp) udp.payload();
        assertEquals(Dhcp.BOOT_REPLY, dhcp.op());
        assertEquals(LEASED_IP, dhcp.yiaddr());
        assertEquals(SERVER_IP, dhcp.siaddr());
        assertEquals(OptionalInt.of(Dhcp.ACK), dhcp.messageType());
        assertEquals(Bytes.fromHex("00000e10"), dhcp.option(DhcpOption.LEASE_TIME).get().value());
        assertEquals(Bytes.fromHex("0a0000fe"), dhcp.option(DhcpOption.ROUTER).get().value());
        assertFalse(dhcp.broadcast());
        assertArrayEquals(frame, Ethernet.parse(frame).serialize());
        assertEquals(dhcp, dhcp.toBuilder().build());
    }

    @Test
    void padOptionsBetweenOptionsAreKept() throws Exception {
        var dhcp = Dhcp.builder().op(Dhcp.BOOT_REQUEST).xid(1).flags(Dhcp.FLAG_BROADCAST).clientMac(CLIENT)
                .option(DhcpOption.messageType(Dhcp.INFORM)).option(DhcpOption.PAD_OPTION)
                .option(DhcpOption.PAD_OPTION).option(DhcpOption.of(61, Bytes.fromHex("01525400123456"))).build();
        byte[] wire = dhcp.serialize();
        assertEquals(240 + 3 + 2 + 9 + 1, wire.length);
        var parsed = Dhcp.parse(wire);
        assertEquals(dhcp, parsed);
        assertTrue(parsed.broadcast());
        assertTrue(parsed.toString().startsWith("DHCP[INFORM, xid 0x00000001, client 52:54:00:12:34:56, broadcast"),
                parsed.toString());
    }

    @Test
    void otherTrafficOnTheDhcpPortsStaysRaw() throws Exception {
        var notDhcp = Udp.of(67, 68, new Data(Bytes.zeros(300)));
        var ip = Ipv4.builder().source(1).destination(2).payload(notDhcp).build();
        assertEquals(notDhcp.payload(), ((Udp) Ipv4.parse(ip.serialize()).payload()).payload());
        var shortOne = Udp.of(68, 67, Data.of((byte) 1, (byte) 1, (byte) 6));
        var ip2 = Ipv4.builder().source(1).destination(2).payload(shortOne).build();
        assertInstanceOf(Data.class, ((Udp) Ipv4.parse(ip2.serialize()).payload()).payload());
    }

    @Test
    void malformedOptionsGiveClearErrors() throws Exception {
        byte[] good = Dhcp.builder().xid(9).clientMac(CLIENT).option(DhcpOption.messageType(Dhcp.DISCOVER)).build()
                .serialize();
        byte[] noEnd = Arrays.copyOf(good, good.length - 1);
        assertError("DHCP options end without the End option (255)", noEnd);
        byte[] pastEnd = good.clone();
        pastEnd[241] = 5;
        assertError("DHCP option 53 at offset 240 has length 5, past the end (2 bytes left)", pastEnd);
        byte[] noLength = Arrays.copyOf(good, 241);
        assertError("DHCP option 53 at offset 240 has no length byte", noLength);
        byte[] wrongType = Arrays.copyOf(good, good.length + 1);
        wrongType[241] = 2;
        wrongType[244] = (byte) 0xff;
        assertError("DHCP option 53 has length 2, expected 1", wrongType);
        byte[] noCookie = good.clone();
        noCookie[239] = 0;
        assertError("DHCP magic cookie is 0x63825300, expected 0x63825363", noCookie);
        assertError("DHCP header with magic cookie needs 240 bytes, only 239 present", Arrays.copyOf(good, 239));
    }

    private static void assertError(String message, byte[] bytes) {
        var e = assertThrows(PacketParseException.class, () -> Dhcp.parse(bytes));
        assertEquals(message, e.getMessage());
    }

    @Test
    void aMalformedDhcpMessageFailsTheFrame() {
        byte[] frame = hex(Vectors.DHCP_REQUEST);
        frame[frame.length - 1] = 0x01; // End becomes option 1 without a length byte
        var e = assertThrows(PacketParseException.class, () -> Ethernet.parse(frame));
        assertEquals("DHCP option 1 at offset 274 has no length byte", e.getMessage());
    }

    @Test
    void fieldsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> Dhcp.builder().chaddr(Bytes.zeros(6)).build());
        assertThrows(IllegalArgumentException.class, () -> Dhcp.builder().xid(-1).build());
        assertThrows(IllegalArgumentException.class, () -> DhcpOption.of(255, Bytes.EMPTY));
        assertThrows(IllegalArgumentException.class, () -> DhcpOption.of(0, Bytes.zeros(1)));
        assertThrows(IllegalArgumentException.class, () -> DhcpOption.of(12, Bytes.zeros(256)));
    }
}
