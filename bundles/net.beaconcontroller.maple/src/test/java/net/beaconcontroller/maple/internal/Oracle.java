package net.beaconcontroller.maple.internal;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import net.beaconcontroller.maple.Policy;
import net.beaconcontroller.maple.Route;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The oracle: sends a packet into the simulated switches at its ingress and follows it switch by switch. At each
 * switch the flow table must do what the policy (called directly, nothing recorded) says for that switch, or send
 * the packet to the controller; anything else fails the test.
 */
final class Oracle {
    /** How a packet fared: switches it was checked at, and whether one sent it to the controller. */
    record Walk(int switches, boolean missed) {
    }

    private final SwitchTables tables;
    private final FakeNetwork net;

    Oracle(SwitchTables tables, FakeNetwork net) {
        this.tables = tables;
        this.net = net;
    }

    Walk walk(Policy policy, Header h) {
        Route route = policy.apply(new PlainPacket(h), net);
        var visited = new HashSet<Long>();
        var todo = new ArrayList<SwitchPort>();
        todo.add(h.ingress());
        int checked = 0;
        boolean missed = false;
        while (!todo.isEmpty()) {
            SwitchPort at = todo.remove(todo.size() - 1);
            if (!visited.add(at.dpid())) {
                continue;
            }
            checked++;
            SwitchTables.Lookup found = tables.lookup(at.dpid(), at.port(), h);
            missed |= found.controller();
            List<OFAction> actual = found.forward();
            if (actual == null) {
                continue;
            }
            Set<Integer> expected = expected(route, at);
            if (!sent(actual, at).equals(expected)) {
                fail("wrong action at " + at + " for " + h + ": the table says " + actual + ", the policy "
                        + route + " means " + expected + "\n" + tables.snapshot().get(at.dpid()));
            }
            todo.addAll(next(route, at));
        }
        return new Walk(checked, missed);
    }

    /**
     * The ports the route sends the packet out of at the switch it reached through {@code at} ({@code OFPP_FLOOD}
     * for flooding, {@code OFPP_CONTROLLER} for the controller); never the port it arrived by.
     */
    private static Set<Integer> expected(Route route, SwitchPort at) {
        if (route instanceof Route.Drop) {
            return Set.of();
        }
        if (route instanceof Route.ToController) {
            return Set.of(OFPort.CONTROLLER);
        }
        if (route instanceof Route.Flood) {
            return Set.of(OFPort.FLOOD);
        }
        Route.Hop hop = ((Route.Forward) route).hopAt(at.dpid());
        var out = new HashSet<Integer>();
        if (hop != null) {
            out.addAll(hop.outPorts());
        }
        out.remove(at.port());
        return out;
    }

    /** The ports a switch really sends out of with these actions, by OpenFlow 1.0's output semantics. */
    private static Set<Integer> sent(List<OFAction> actions, SwitchPort at) {
        var out = new HashSet<Integer>();
        for (OFAction a : actions) {
            int port = ((OFActionOutput) a).port();
            if (port == OFPort.IN_PORT) {
                out.add(at.port());
            } else if (port != at.port()) {
                out.add(port);
            }
        }
        return out;
    }

    /** Where the packet goes next: the far ends of the links it is sent out on. */
    private List<SwitchPort> next(Route route, SwitchPort at) {
        Set<Integer> ports = new HashSet<>();
        if (route instanceof Route.Flood) {
            net.links.keySet().stream().filter(p -> p.dpid() == at.dpid() && p.port() != at.port())
                    .forEach(p -> ports.add(p.port()));
        } else if (route instanceof Route.Forward f && f.hopAt(at.dpid()) != null) {
            ports.addAll(f.hopAt(at.dpid()).outPorts());
        }
        var next = new ArrayList<SwitchPort>();
        for (int p : ports) {
            Link l = net.links.get(new SwitchPort(at.dpid(), p));
            if (l != null) {
                next.add(l.dst());
            }
        }
        return next;
    }
}
