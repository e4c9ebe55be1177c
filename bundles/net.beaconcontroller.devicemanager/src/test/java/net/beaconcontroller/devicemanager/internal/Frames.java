package net.beaconcontroller.devicemanager.internal;

import net.beaconcontroller.packet.Arp;
import net.beaconcontroller.packet.Data;
import net.beaconcontroller.packet.Dhcp;
import net.beaconcontroller.packet.DhcpOption;
import net.beaconcontroller.packet.Ethernet;
import net.beaconcontroller.packet.EthernetPayload;
import net.beaconcontroller.packet.Ipv4;
import net.beaconcontroller.packet.Udp;
import net.beaconcontroller.packet.VlanTag;
import net.beaconcontroller.util.MacAddress;

/** Frames made with the packet library, as hosts send them. */
final class Frames {
    static final int UNTAGGED = -1;

    private Frames() {
    }

    static byte[] frame(long dst, long src, int vlan, EthernetPayload payload) {
        return Ethernet.builder().destination(dst).source(src).vlan(vlan == UNTAGGED ? null : VlanTag.of(vlan))
                .payload(payload).build().padded().serialize();
    }

    static byte[] udp(long src, long dst, int srcIp, int dstIp) {
        return udp(src, dst, UNTAGGED, srcIp, dstIp);
    }

    static byte[] udp(long src, long dst, int vlan, int srcIp, int dstIp) {
        return frame(dst, src, vlan, Ipv4.builder().source(srcIp).destination(dstIp)
                .payload(Udp.of(1234, 5678, Data.of(new byte[8]))).build());
    }

    static byte[] arpRequest(long src, int srcIp, int targetIp) {
        return frame(MacAddress.BROADCAST, src, UNTAGGED, Arp.request(src, srcIp, targetIp));
    }

    static byte[] arpReply(long src, int srcIp, long dst, int dstIp) {
        return frame(dst, src, UNTAGGED, Arp.reply(src, srcIp, dst, dstIp));
    }

    /** A DHCP DISCOVER from a client without an address yet. */
    static byte[] dhcpDiscover(long client) {
        var dhcp = Dhcp.builder().xid(7).clientMac(client).option(DhcpOption.messageType(Dhcp.DISCOVER)).build();
        return frame(MacAddress.BROADCAST, client, UNTAGGED, Ipv4.builder().source(0).destination(-1)
                .payload(Udp.of(Udp.DHCP_CLIENT_PORT, Udp.DHCP_SERVER_PORT, dhcp)).build());
    }

    static byte[] dhcpAck(long server, int serverIp, long client, int yiaddr) {
        var dhcp = Dhcp.builder().op(Dhcp.BOOT_REPLY).xid(7).clientMac(client).yiaddr(yiaddr).siaddr(serverIp)
                .option(DhcpOption.messageType(Dhcp.ACK)).option(DhcpOption.serverIdentifier(serverIp)).build();
        return frame(client, server, UNTAGGED, Ipv4.builder().source(serverIp).destination(yiaddr)
                .payload(Udp.of(Udp.DHCP_SERVER_PORT, Udp.DHCP_CLIENT_PORT, dhcp)).build());
    }

    /** UDP between the DHCP ports whose payload is no DHCP message (too short, no magic cookie). */
    static byte[] malformedDhcp(long server, int serverIp, long client) {
        return frame(client, server, UNTAGGED, Ipv4.builder().source(serverIp).destination(-1)
                .payload(Udp.of(Udp.DHCP_SERVER_PORT, Udp.DHCP_CLIENT_PORT, Data.of(new byte[40]))).build());
    }

    /** An ARP frame for Ethernet/IPv4 with an operation that is neither request nor reply. */
    static byte[] arpUnknownOperation(long src) {
        var arp = new Arp(Arp.HARDWARE_ETHERNET, Arp.PROTOCOL_IPV4, 9, src, 0x0a000009, 0, 0x0a000001);
        return frame(MacAddress.BROADCAST, src, UNTAGGED, arp);
    }

    /** Ether type ARP with a payload that is no Ethernet/IPv4 ARP message (hardware type 6, cut short). */
    static byte[] arpTruncated(long src) {
        return Ethernet.builder().destination(MacAddress.BROADCAST).source(src).etherType(Ethernet.TYPE_ARP)
                .payload(Data.of(new byte[] {0, 6, 8, 0, 6, 4, 0, 1})).build().serialize();
    }
}
