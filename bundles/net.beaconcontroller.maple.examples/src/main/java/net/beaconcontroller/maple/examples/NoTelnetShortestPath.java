package net.beaconcontroller.maple.examples;

import java.util.Optional;

import org.osgi.service.component.annotations.Component;

import net.beaconcontroller.maple.Environment;
import net.beaconcontroller.maple.Packet;
import net.beaconcontroller.maple.Policy;
import net.beaconcontroller.maple.Route;
import net.beaconcontroller.topology.SwitchPort;

/**
 * Shortest-path forwarding between the hosts Beacon knows, behind a one-line access list: TCP to port 23 (telnet) is
 * dropped. A plain function of the packet: Maple's runtime records what it reads and tests, and caches each answer
 * as wildcard rules on the switches (here: one rule per switch and pair of hosts for all their traffic, whatever the
 * ports), so a new connection between hosts that already talked never reaches the controller.
 *
 * <p>Publishing it as a {@link Policy} service is all it takes: the runtime in {@code net.beaconcontroller.maple}
 * starts running it, and stops (deleting its rules) when this bundle stops.
 */
@Component(service = Policy.class)
public final class NoTelnetShortestPath implements Policy {
    private static final int TCP = 6;
    private static final int TELNET = 23;

    @Override
    public Route apply(Packet p, Environment env) {
        // Three tests: a rule drops tcp,tp_dst=23 once such a packet has been seen; until then a barrier sends those
        // packets to the controller, so the forwarding rules below never let one through.
        if (p.isIpv4() && p.nwProtoIs(TCP) && p.tpDstIs(TELNET)) {
            return Route.DROP;
        }
        Optional<SwitchPort> dst = env.hostLocation(p.dlDst());
        if (dst.isEmpty()) {
            // Broadcasts, and hosts not seen yet: when the host appears, this decision is dropped.
            return Route.FLOOD;
        }
        // From where the sender is attached, so the rules hold on every switch of the path. Only a sender nobody
        // knows is routed from where its packet entered: reading that makes a rule for the first switch only.
        Optional<SwitchPort> src = env.hostLocation(p.dlSrc());
        SwitchPort from = src.isPresent() ? src.get() : p.inPort();
        return env.route(from, dst.get()).orElse(Route.DROP);
    }

    @Override
    public String toString() {
        return "shortest path, telnet dropped (net.beaconcontroller.maple.examples)";
    }
}
