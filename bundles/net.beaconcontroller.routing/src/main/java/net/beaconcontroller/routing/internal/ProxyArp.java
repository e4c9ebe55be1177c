package net.beaconcontroller.routing.internal;

import net.beaconcontroller.packet.Arp;
import net.beaconcontroller.packet.Ethernet;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.packet.VlanTag;

/** The ARP reply a host would send, built by the controller for a host it knows. */
final class ProxyArp {
    private ProxyArp() {
    }

    /**
     * "{@code ip} is at {@code mac}", addressed to the asker of {@code request} on the request's VLAN, padded to the
     * minimum frame length.
     */
    static byte[] reply(Frame request, long mac, int ip) {
        var b = Ethernet.builder()
                .destination(request.arpSenderMac())
                .source(mac)
                .payload(Arp.reply(mac, ip, request.arpSenderMac(), request.arpSenderIp()));
        if (request.vlanId() != Frame.VLAN_NONE) {
            b.vlan(VlanTag.of(request.vlanId()));
        }
        return b.build().padded().serialize();
    }
}
