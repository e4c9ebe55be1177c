package net.beaconcontroller.maple.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import net.beaconcontroller.maple.Environment;
import net.beaconcontroller.maple.Packet;
import net.beaconcontroller.maple.Policy;
import net.beaconcontroller.maple.Route;
import net.beaconcontroller.topology.SwitchPort;

/** The policies the oracle runs, written as an application would write them. */
final class TestPolicies {
    private TestPolicies() {
    }

    /** Shortest-path L2 routing: from the source host's location to the destination's; unknown destinations flood. */
    static Route l2(Packet p, Environment env) {
        Optional<SwitchPort> dst = env.hostLocation(p.dlDst());
        if (dst.isEmpty()) {
            return Route.FLOOD;
        }
        Optional<SwitchPort> src = env.hostLocation(p.dlSrc());
        if (src.isEmpty()) {
            return Route.TO_CONTROLLER;
        }
        return env.route(src.get(), dst.get()).orElse(Route.DROP);
    }

    /**
     * Reads transport, network and VLAN fields with no checks first (the prerequisites are the tracer's job):
     * SSH is dropped, high-priority VLAN traffic to 10.0.2.0/24 goes to the controller, DSCP 3 floods, the rest
     * is {@link #l2}.
     */
    static Route filtered(Packet p, Environment env) {
        if (p.tpDst() == 22) {
            return Route.DROP;
        }
        if (p.dlVlanPcp() > 5 && p.ipDstIn(0x0a000200, 24)) {
            return Route.TO_CONTROLLER;
        }
        if (p.nwTos() == 3 << 2) {
            return Route.FLOOD;
        }
        return l2(p, env);
    }

    /** The paper's mt-route: hosts in tenants; traffic within a tenant on shortest paths, the rest dropped. */
    static Policy mtRoute(Map<Long, Integer> tenantOf) {
        return (p, env) -> {
            Integer src = tenantOf.get(p.dlSrc());
            Integer dst = tenantOf.get(p.dlDst());
            if (src == null || !src.equals(dst)) {
                return Route.DROP;
            }
            Optional<SwitchPort> from = env.hostLocation(p.dlSrc());
            Optional<SwitchPort> to = env.hostLocation(p.dlDst());
            if (from.isEmpty() || to.isEmpty()) {
                return Route.DROP;
            }
            return env.route(from.get(), to.get()).orElse(Route.DROP);
        };
    }

    /** Blocks one ingress port, routes the rest like {@link #l2}: tests on the ingress. */
    static Policy blockIngress(SwitchPort blocked) {
        return (p, env) -> p.inPortIs(blocked) ? Route.DROP : l2(p, env);
    }

    /**
     * Sends everything entering at {@code watched} to the host {@code monitor} (IPv4 only, the rest like
     * {@link #l2}), the rest like {@link #l2}: a test on the ingress whose true branch crosses other switches.
     */
    static Policy divertIngress(SwitchPort watched, long monitor) {
        return (p, env) -> {
            if (p.isIpv4() && p.inPortIs(watched)) {
                Optional<SwitchPort> to = env.hostLocation(monitor);
                return to.isEmpty() ? Route.DROP : env.route(watched, to.get()).orElse(Route.DROP);
            }
            return l2(p, env);
        };
    }

    /** One ACL entry: prefixes, protocol (-1 any), destination port range, permit or deny. */
    record AclEntry(int src, int srcLen, int dst, int dstLen, int proto, int portLo, int portHi, boolean permit) {
    }

    /**
     * A first-match ACL over IPv4 (non-IPv4 floods, the default denies); a permitted packet goes from its ingress
     * to its destination host's port.
     */
    static Policy acl(List<AclEntry> entries) {
        return (p, env) -> {
            if (!p.isIpv4()) {
                return Route.FLOOD;
            }
            for (AclEntry e : entries) {
                if (!p.ipSrcIn(e.src(), e.srcLen()) || !p.ipDstIn(e.dst(), e.dstLen())) {
                    continue;
                }
                if (e.proto() >= 0 && !p.nwProtoIs(e.proto())) {
                    continue;
                }
                if (e.portLo() > 0 || e.portHi() < 0xffff) {
                    int port = p.tpDst();
                    if (port < e.portLo() || port > e.portHi()) {
                        continue;
                    }
                }
                if (!e.permit()) {
                    return Route.DROP;
                }
                Optional<SwitchPort> to = env.hostLocation(p.dlDst());
                return to.isEmpty() ? Route.DROP : env.route(p.inPort(), to.get()).orElse(Route.DROP);
            }
            return Route.DROP;
        };
    }

    /** Random ACL entries over the hosts' 10.0.0.0/16 addresses, with the port classes ClassBench describes. */
    static List<AclEntry> randomAcl(Random rnd, int n) {
        var entries = new ArrayList<AclEntry>();
        int[][] ranges = {{0, 0xffff}, {0, 0xffff}, {80, 80}, {22, 22}, {0, 1023}, {1024, 0xffff}, {20, 443}};
        int[] protos = {-1, -1, 6, 17};
        for (int i = 0; i < n; i++) {
            int srcLen = pickLength(rnd);
            int dstLen = pickLength(rnd);
            int[] range = ranges[rnd.nextInt(ranges.length)];
            int proto = protos[rnd.nextInt(protos.length)];
            if (proto == -1) {
                range = ranges[0]; // ports need a transport protocol
            }
            entries.add(new AclEntry(randomHostIp(rnd), srcLen, randomHostIp(rnd), dstLen, proto, range[0],
                    range[1], rnd.nextInt(3) > 0));
        }
        return entries;
    }

    private static int pickLength(Random rnd) {
        int[] lengths = {0, 8, 16, 24, 24, 32};
        return lengths[rnd.nextInt(lengths.length)];
    }

    static int randomHostIp(Random rnd) {
        return (10 << 24) | ((1 + rnd.nextInt(4)) << 8) | rnd.nextInt(4);
    }
}
