package net.beaconcontroller.maple;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The network as a {@link Policy} sees it, read-only. Beacon records every read as a dependency of the decision
 * that made it, and drops exactly those decisions (and their rules) when what they read changes: a host's location,
 * a port or link, or (for {@link #path}) the topology as a whole.
 */
public interface Environment {
    /** Where the host with this MAC attaches, if known. A dependency on the host. */
    Optional<SwitchPort> hostLocation(long mac);

    /**
     * A shortest path of links from switch {@code src} to switch {@code dst}: empty when they are the same switch,
     * absent when there is none. A dependency on both ports of every link on it and on the topology (a new link
     * may shorten it).
     */
    Optional<List<Link>> path(long src, long dst);

    /**
     * The route that takes packets from host port {@code from} along {@link #path} to host port {@code to}: at each
     * switch the port towards the next one, at the last switch {@code to}'s port. Absent when there is no path.
     */
    default Optional<Route> route(SwitchPort from, SwitchPort to) {
        return path(from.dpid(), to.dpid()).map(links -> {
            var hops = new ArrayList<Route.Hop>(links.size() + 1);
            for (Link l : links) {
                hops.add(new Route.Hop(l.src().dpid(), l.src().port()));
            }
            hops.add(new Route.Hop(to.dpid(), to.port()));
            return new Route.Forward(hops);
        });
    }
}
