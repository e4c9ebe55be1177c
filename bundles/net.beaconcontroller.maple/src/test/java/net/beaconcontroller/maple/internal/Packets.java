package net.beaconcontroller.maple.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import net.beaconcontroller.topology.SwitchPort;

/** Random packets between a network's hosts: a mix of types, a few values each so that flows repeat. */
final class Packets {
    private static final int[] PORTS = {22, 53, 80, 443, 1024, 5000, 8080};

    private final Random rnd;
    private final FakeNetwork net;

    Packets(Random rnd, FakeNetwork net) {
        this.rnd = rnd;
        this.net = net;
    }

    /** A packet from a host, entering at its location. */
    Header next() {
        List<Long> macs = new ArrayList<>(net.hosts.keySet());
        long src = macs.get(rnd.nextInt(macs.size()));
        return from(src, net.hosts.get(src));
    }

    /** A packet claiming to come from a host, entering at any edge port (a spoofed or moved source). */
    Header anywhere() {
        List<Long> macs = new ArrayList<>(net.hosts.keySet());
        List<SwitchPort> edges = net.edgePorts();
        return from(macs.get(rnd.nextInt(macs.size())), edges.get(rnd.nextInt(edges.size())));
    }

    private Header from(long src, SwitchPort ingress) {
        List<Long> macs = new ArrayList<>(net.hosts.keySet());
        long dst;
        int roll = rnd.nextInt(20);
        if (roll == 0) {
            dst = 0xffff_ffff_ffffL;
        } else if (roll == 1) {
            dst = 0x0200_0000_0000L + rnd.nextInt(3); // nobody's
        } else {
            do {
                dst = macs.get(rnd.nextInt(macs.size()));
            } while (dst == src);
        }
        int vlan = rnd.nextInt(8) == 0 ? 1 + rnd.nextInt(3) : Field.VLAN_NONE;
        int pcp = rnd.nextInt(8);
        int type = switch (rnd.nextInt(10)) {
            case 0, 1 -> Field.ETH_ARP;
            case 2 -> 0x86dd;
            default -> Field.ETH_IPV4;
        };
        int proto = type == Field.ETH_ARP ? 1 + rnd.nextInt(2) : new int[] {6, 6, 17, 17, 1, 47}[rnd.nextInt(6)];
        int nwSrc = rnd.nextInt(5) == 0 ? TestPolicies.randomHostIp(rnd) : net.ips.getOrDefault(src, 0);
        int nwDst = rnd.nextInt(5) == 0 ? TestPolicies.randomHostIp(rnd) : net.ips.getOrDefault(dst, 0);
        int tos = rnd.nextInt(4) << 2;
        int tpSrc = rnd.nextBoolean() ? PORTS[rnd.nextInt(PORTS.length)] : 30000 + rnd.nextInt(4);
        int tpDst = PORTS[rnd.nextInt(PORTS.length)];
        return Header.of(ingress, src, dst, vlan, pcp, type, tos, proto, nwSrc, nwDst, tpSrc, tpDst);
    }
}
