package net.beaconcontroller.maple;

import java.util.HashSet;
import java.util.List;

/**
 * What the network does with a packet, as a {@link Policy} returns it. Each kind says what every switch the packet
 * may be at does, so it compiles per switch: {@link Drop}, {@link ToController} and {@link Flood} act the same on
 * every switch; {@link Forward} names, per switch, the ports to send it out of.
 */
public sealed interface Route permits Route.Drop, Route.ToController, Route.Flood, Route.Forward {
    /** Drop the packet. */
    Route DROP = new Drop();
    /** Send the packet to the controller (rules say so explicitly, so nothing of lower priority catches it). */
    Route TO_CONTROLLER = new ToController();
    /** Send the packet out of every port but the one it came in by ({@code OFPP_FLOOD}) on every switch. */
    Route FLOOD = new Flood();

    record Drop() implements Route {
    }

    record ToController() implements Route {
    }

    record Flood() implements Route {
    }

    /**
     * Forward along the hops, listed from the first switch to the last (rules are installed in the reverse order,
     * so a packet never meets a switch that does not know the route yet). A switch not listed drops the packet.
     *
     * @param hops at least one, at most one per switch
     */
    record Forward(List<Hop> hops) implements Route {
        public Forward {
            hops = List.copyOf(hops);
            if (hops.isEmpty()) {
                throw new IllegalArgumentException("a forward route needs at least one hop");
            }
            var seen = new HashSet<Long>();
            for (Hop h : hops) {
                if (!seen.add(h.dpid())) {
                    throw new IllegalArgumentException("switch " + Long.toHexString(h.dpid())
                            + " appears twice in " + hops + "; give one hop per switch with all its ports");
                }
            }
        }

        /** The hop at switch {@code dpid}, or null when the route does not cross it. */
        public Hop hopAt(long dpid) {
            for (Hop h : hops) {
                if (h.dpid() == dpid) {
                    return h;
                }
            }
            return null;
        }
    }

    /**
     * What one switch of a {@link Forward} route does: send the packet out of these ports. As with OpenFlow's
     * output action, a packet is never sent back out of the port it arrived by.
     *
     * @param outPorts physical ports 1..0xff00, at least one, no repeats
     */
    record Hop(long dpid, List<Integer> outPorts) {
        public Hop {
            outPorts = List.copyOf(outPorts);
            if (outPorts.isEmpty() || new HashSet<>(outPorts).size() != outPorts.size()) {
                throw new IllegalArgumentException("a hop needs distinct output ports, not " + outPorts);
            }
            for (int p : outPorts) {
                if (p < 1 || p > 0xff00) {
                    throw new IllegalArgumentException("a physical port number is 1..0xff00, not " + p);
                }
            }
        }

        public Hop(long dpid, int outPort) {
            this(dpid, List.of(outPort));
        }
    }
}
