package net.beaconcontroller.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@link Frame}'s getters against the packet library's full decode of the same bytes, where that succeeds. The two
 * differ on purpose where the library has rules of its own, and the comparison leaves those out: 802.1ad tags and
 * LLC/SNAP (the library knows neither), type fields 1501 to 1535 (OpenFlow takes them as 802.3, the library as ether
 * types), RARP (the library keeps it raw) and ARP for other hardware or protocol types (the library parses any with
 * address lengths 6 and 4).
 */
final class FrameAgreement {
    private static final int MIN_ETHER_TYPE = 0x0600;
    private static final int TYPE_QINQ = 0x88a8;
    private static final int TYPE_RARP = 0x8035;

    private FrameAgreement() {
    }

    /** Whether the frame decoded, after checking that the getters agree with the decode. */
    static boolean check(Frame f) {
        Ethernet e;
        try {
            e = f.decode();
        } catch (PacketParseException rejected) {
            return false;
        }
        String what = e.toString();
        assertTrue(f.isEthernet(), what);
        assertEquals(e.destination(), f.dlDst(), what);
        assertEquals(e.source(), f.dlSrc(), what);
        assertEquals(e.destination() == 0xffff_ffff_ffffL, f.isBroadcast(), what);
        if (e.etherType() < MIN_ETHER_TYPE || e.etherType() == TYPE_QINQ) {
            return true;
        }
        assertEquals(e.vlan() == null ? Frame.VLAN_NONE : e.vlan().vlanId(), f.vlanId(), what);
        assertEquals(e.vlan() == null ? 0 : e.vlan().priority(), f.vlanPcp(), what);
        assertEquals(e.etherType(), f.etherType(), what);
        assertEquals(f.offset() + e.headerLength(), f.l3Offset(), what);
        assertEquals(e.payload() instanceof Lldp, f.isLldp(), what);
        if (e.payload() instanceof Arp arp) {
            boolean ethernetIpv4 =
                    arp.hardwareType() == Arp.HARDWARE_ETHERNET && arp.protocolType() == Arp.PROTOCOL_IPV4;
            assertEquals(ethernetIpv4, f.isArp(), what);
            if (ethernetIpv4) {
                assertEquals(arp.opcode(), f.arpOpcode(), what);
                assertEquals(arp.senderHardwareAddress(), f.arpSenderMac(), what);
                assertEquals(arp.senderProtocolAddress(), f.arpSenderIp(), what);
                assertEquals(arp.targetHardwareAddress(), f.arpTargetMac(), what);
                assertEquals(arp.targetProtocolAddress(), f.arpTargetIp(), what);
            }
        } else if (e.etherType() != TYPE_RARP) {
            assertFalse(f.isArp(), what);
        }
        if (e.payload() instanceof Ipv4 ip) {
            checkIpv4(f, ip, what);
        } else {
            assertFalse(f.isIpv4(), what);
            assertFalse(f.isTcp() || f.isUdp() || f.isIcmp() || f.isDhcp(), what);
        }
        return true;
    }

    private static void checkIpv4(Frame f, Ipv4 ip, String what) {
        assertTrue(f.isIpv4(), what);
        assertEquals(ip.source(), f.ipv4Src(), what);
        assertEquals(ip.destination(), f.ipv4Dst(), what);
        assertEquals(ip.protocol(), f.ipProto(), what);
        assertEquals(ip.tos() & 0xfc, f.ipTos(), what);
        assertEquals(ip.isFragment(), f.isFragment(), what);
        assertEquals(f.l3Offset() + ip.headerLength(), f.l4Offset(), what);
        assertEquals(ip.payload() instanceof Tcp, f.isTcp(), what);
        assertEquals(ip.payload() instanceof Udp, f.isUdp(), what);
        assertEquals(ip.payload() instanceof Icmp, f.isIcmp(), what);
        if (ip.payload() instanceof Tcp tcp) {
            assertEquals(tcp.sourcePort(), f.tpSrc(), what);
            assertEquals(tcp.destinationPort(), f.tpDst(), what);
        } else if (ip.payload() instanceof Udp udp) {
            assertEquals(udp.sourcePort(), f.tpSrc(), what);
            assertEquals(udp.destinationPort(), f.tpDst(), what);
            assertEquals(isDhcpPort(udp.sourcePort()) && isDhcpPort(udp.destinationPort()), f.isDhcp(), what);
        } else if (ip.payload() instanceof Icmp icmp) {
            assertEquals(icmp.type(), f.tpSrc(), what);
            assertEquals(icmp.code(), f.tpDst(), what);
        }
    }

    private static boolean isDhcpPort(int port) {
        return port == Udp.DHCP_SERVER_PORT || port == Udp.DHCP_CLIENT_PORT;
    }
}
