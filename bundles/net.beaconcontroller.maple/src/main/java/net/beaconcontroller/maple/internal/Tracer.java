package net.beaconcontroller.maple.internal;

import java.util.ArrayList;
import java.util.List;

import net.beaconcontroller.maple.Environment;
import net.beaconcontroller.maple.Policy;
import net.beaconcontroller.maple.Route;
import net.beaconcontroller.topology.SwitchPort;

/** Runs a policy on one packet and records the run as a {@link Trace}. */
final class Tracer {
    private Tracer() {
    }

    /**
     * @throws IllegalStateException when the policy returns null; anything the policy throws passes through
     */
    static Trace trace(Policy policy, Header header, Environment network) {
        var packet = new TracedPacket(header);
        var env = new TracedEnvironment(network);
        Route route = policy.apply(packet, env);
        if (route == null) {
            throw new IllegalStateException("the policy returned no route for " + header);
        }
        return new Trace(packet.events(), route, env.dependencies(outputPorts(route)));
    }

    private static List<SwitchPort> outputPorts(Route route) {
        var ports = new ArrayList<SwitchPort>();
        if (route instanceof Route.Forward f) {
            for (Route.Hop h : f.hops()) {
                h.outPorts().forEach(p -> ports.add(new SwitchPort(h.dpid(), p)));
            }
        }
        return ports;
    }
}
