package net.beaconcontroller.packet;

import static net.beaconcontroller.packet.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
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
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;
import org.junit.jupiter.api.Test;

class LldpTest {
    private static final long HOST1 = MacAddress.parse("52:54:00:12:34:56");
    private static final String DESCRIPTION =
            "Debian GNU/Linux 12 (bookworm) Linux 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC x86_64";

    @Test
    void everyStandardTlvAsLldpdSendsThem() throws Exception {
        byte[] frame = hex(Vectors.LLDP_LLDPD);
        Ethernet e = Ethernet.parse(frame);
        assertEquals(Lldp.NEAREST_BRIDGE, e.destination());
        assertEquals(Ethernet.TYPE_LLDP, e.etherType());
        var lldp = assertInstanceOf(Lldp.class, e.payload());
        var expected = List.of(ChassisId.ofMac(HOST1), PortId.ofMac(HOST1), new Ttl(120), SystemName.of("host1"),
                SystemDescription.of(DESCRIPTION),
                new SystemCapabilities(SystemCapabilities.BRIDGE | SystemCapabilities.ROUTER,
                        SystemCapabilities.ROUTER),
                ManagementAddress.ofIpv4(IPv4Address.parse("10.0.0.1"), 2), PortDescription.of("eth0"),
                new OrganizationSpecific(0x00120f, 1, Bytes.fromHex("03006c0000")), new End());
        assertEquals(expected, lldp.tlvs());
        assertEquals(OptionalLong.of(HOST1), lldp.chassisId().orElseThrow().mac());
        assertEquals(PortId.MAC_ADDRESS, lldp.portId().orElseThrow().subtype());
        assertEquals(OptionalInt.empty(), lldp.portId().orElseThrow().portNumber());
        assertEquals(OptionalInt.of(120), lldp.ttl());
        assertEquals(Optional.of("host1"), lldp.systemName());
        assertEquals(Optional.of(DESCRIPTION), lldp.systemDescription());
        assertEquals(Optional.of("eth0"), lldp.portDescription());
        assertEquals(0x14, lldp.systemCapabilities().orElseThrow().capabilities());
        assertEquals(1, lldp.managementAddresses().size());
        assertEquals(1, lldp.organizationSpecific(0x00120f, 1).size());
        assertEquals(Optional.empty(), lldp.discovery());
        assertTrue(e.trailer().isEmpty());
        assertArrayEquals(frame, e.serialize());

        var built = Ethernet.of(Lldp.NEAREST_BRIDGE, HOST1, Lldp.of(ChassisId.ofMac(HOST1), PortId.ofMac(HOST1), 120,
                expected.subList(3, expected.size()).toArray(LldpTlv[]::new)));
        assertEquals(e, built);
        assertEquals("LLDP[chassis mac 52:54:00:12:34:56, port mac 52:54:00:12:34:56, ttl 120, system name \"host1\", "
                + "system description \"" + DESCRIPTION + "\", capabilities 0x0014 enabled 0x0010, management address "
                + "10.0.0.1 interface 2 (subtype 2), port description \"eth0\", org 00:12:0f subtype 1 03006c0000, "
                + "end]", lldp.toString());
    }

    @Test
    void textIdentifiersAndThePaddingAfterEnd() throws Exception {
        byte[] frame = hex(Vectors.LLDP_IFNAME);
        Ethernet e = Ethernet.parse(frame);
        var lldp = (Lldp) e.payload();
        assertEquals(new ChassisId(ChassisId.LOCALLY_ASSIGNED, Bytes.utf8("br0-chassis")), lldp.chassisId().get());
        assertEquals(PortId.ofInterfaceName("veth1"), lldp.portId().get());
        assertEquals(OptionalInt.of(0), lldp.ttl());
        assertEquals(Bytes.zeros(22), e.trailer());
        assertArrayEquals(frame, e.serialize());
        assertEquals("LLDP[chassis subtype 7 \"br0-chassis\", port subtype 5 \"veth1\", ttl 0, end]", lldp.toString());
    }

    /** The bytes of Beacon's discovery LLDP, written out by hand from the TLV formats. */
    @Test
    void discoveryFrameAsBeaconSendsIt() throws Exception {
        long dpid = 0x1122334455667788L;
        String expected = "0180c200000e" + "525400000001" + "88cc"
                + "0207" + "04" + "334455667788" // chassis ID: MAC = low 48 bits of the DPID
                + "0403" + "02" + "0003" // port ID: port component, port 3
                + "0602" + "0078" // TTL 120
                + "fe0c" + "0026e1" + "00" + "1122334455667788" // OUI 00:26:e1 subtype 0: the DPID
                + "0000" // End
                + "000000000000000000000000"; // padding to 60 bytes
        Ethernet frame = Lldp.discoveryFrame(MacAddress.parse("52:54:00:00:00:01"), dpid, 3, Lldp.DEFAULT_TTL);
        assertArrayEquals(hex(expected), frame.serialize());
        var parsed = Ethernet.parse(hex(expected));
        assertEquals(frame, parsed);
        var lldp = (Lldp) parsed.payload();
        assertEquals(Optional.of(new Lldp.Discovery(dpid, 3)), lldp.discovery());
        assertEquals(OptionalInt.of(3), lldp.portId().orElseThrow().portNumber());
        assertEquals("Discovery[dpid 1122334455667788 port 3]", lldp.discovery().get().toString());
    }

    @Test
    void discoveryWithExtremeValues() throws Exception {
        var lldp = Lldp.forDiscovery(-1L, 0xfffe, 0);
        var parsed = Lldp.parse(lldp.serialize());
        assertEquals(Optional.of(new Lldp.Discovery(-1L, 0xfffe)), parsed.discovery());
        assertEquals(OptionalLong.of(MacAddress.BROADCAST), parsed.chassisId().orElseThrow().mac());
        assertThrows(IllegalArgumentException.class, () -> Lldp.forDiscovery(1, 0x10000, 120));
    }

    @Test
    void unknownTlvsAreKeptAndEndIsOptional() throws Exception {
        byte[] lldpdu = hex("020704525400123456" + "0403020001" + "06020078" + "1203aabbcc" + "fc00");
        var lldp = Lldp.parse(lldpdu);
        assertEquals(new Unknown(9, Bytes.fromHex("aabbcc")), lldp.tlvs().get(3));
        assertEquals(new Unknown(126, Bytes.EMPTY), lldp.tlvs().get(4));
        assertEquals(5, lldp.tlvs().size());
        assertArrayEquals(lldpdu, lldp.serialize());
        assertEquals(Optional.empty(), lldp.discovery());
        assertEquals(List.of(), Lldp.parse(new byte[0]).tlvs());
    }

    @Test
    void malformedTlvsGiveClearErrors() {
        assertError("LLDP TLV type 1 at offset 0 has length 7, past the end (3 bytes left)", "0207045254");
        assertError("LLDP TLV header at offset 4 is cut off", "06020078" + "02");
        assertError("LLDP TTL TLV has length 3, expected 2", "0603007800");
        assertError("LLDP End TLV has length 1, expected 0", "000100");
        assertError("LLDP chassis ID TLV has length 0, at least 1 needed", "0200");
        assertError("LLDP port ID TLV has length 0, at least 1 needed", "0400");
        assertError("LLDP system capabilities TLV has length 2, expected 4", "0e020014");
        assertError("LLDP organisationally specific TLV has length 3, at least 4 needed", "fe030026e1");
        assertError("LLDP management address TLV has length 0, at least 1 needed", "1000");
        assertError("LLDP management address string length is 0; it must hold the subtype", "100100");
        assertError("LLDP management address string length 5 leaves no room for the interface fields in a 10-byte TLV",
                "100a" + "05010a000001" + "02000000");
        assertError("LLDP management address TLV length 12 disagrees with its contents (13 bytes)",
                "100c" + "05010a000001" + "0200000002" + "01");
    }

    private static void assertError(String message, String hex) {
        var e = assertThrows(PacketParseException.class, () -> Lldp.parse(hex(hex)));
        assertEquals(message, e.getMessage());
    }

    @Test
    void aBrokenLldpduFailsTheFrame() {
        byte[] frame = hex(Vectors.LLDP_LLDPD);
        frame[14] = 0x03; // chassis ID length 0x107 = 263
        var e = assertThrows(PacketParseException.class, () -> Ethernet.parse(frame));
        assertEquals("LLDP TLV type 1 at offset 0 has length 263, past the end (149 bytes left)", e.getMessage());
    }

    @Test
    void valuesAreChecked() throws Exception {
        assertThrows(IllegalArgumentException.class, () -> new Lldp(List.of(new End(), new Ttl(1))));
        assertThrows(IllegalArgumentException.class, () -> new Unknown(8, Bytes.EMPTY));
        assertThrows(IllegalArgumentException.class, () -> new Unknown(127, Bytes.EMPTY));
        assertThrows(IllegalArgumentException.class, () -> new SystemName(Bytes.zeros(512)));
        assertThrows(IllegalArgumentException.class, () -> new ChassisId(4, Bytes.zeros(511)));
        assertThrows(IllegalArgumentException.class, () -> new OrganizationSpecific(1 << 24, 0, Bytes.EMPTY));
        assertThrows(IllegalArgumentException.class, () -> new Ttl(65536));
        // the largest values that fit the 9-bit length
        var big = Lldp.of(new ChassisId(7, Bytes.zeros(510)), PortId.ofPortNumber(1), 1,
                new SystemDescription(Bytes.zeros(511)), new OrganizationSpecific(1, 2, Bytes.zeros(507)),
                new ManagementAddress(1, Bytes.zeros(254), 1, 0xffff_ffffL, Bytes.zeros(249)));
        assertEquals(big, Lldp.parse(big.serialize()));
        assertThrows(IllegalArgumentException.class,
                () -> new ManagementAddress(1, Bytes.zeros(254), 1, 0, Bytes.zeros(250)));
    }
}
