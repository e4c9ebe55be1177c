package net.beaconcontroller.topology;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * The links between switches, as LLDP discovery sees them now. Readable from any thread; every change is told to the
 * {@link ITopologyListener} services, on the thread that found it, after the view here already shows it.
 */
public interface ITopology {
    /** Every link currently up, each direction separately, with when it was first seen. */
    Map<Link, Instant> getLinks();

    /** Whether {@code port} of switch {@code dpid} ends no inter-switch link: a port hosts may attach to. */
    boolean isEdgePort(long dpid, int port);

    /**
     * The islands: sets of switches connected by links (in both directions), every active switch in exactly one.
     * A switch without links is an island of its own.
     */
    Set<Set<Long>> getIslands();

    /**
     * The ports of switch {@code dpid} a broadcast (or a frame to an unknown destination) goes out of so that every
     * host of the island gets it exactly once, loops or not: its edge ports plus its links on a spanning tree of the
     * island. The sender leaves out the port the frame came in on. A port in quarantine (see
     * {@link #getQuarantinedPorts}) is left out unless discovery has put it on the spanning tree.
     */
    Set<Integer> getBroadcastPorts(long dpid);

    /**
     * Whether discovery has settled: no port is in quarantine, so every port has been probed since it (or its switch)
     * came up and the probes had time to come back.
     */
    boolean isSettled();

    /**
     * The ports in quarantine now: new (their switch connected, or they came up) and not yet probed long enough for a
     * link there to be known, so left out of broadcasts unless on the spanning tree.
     */
    default Set<SwitchPort> getQuarantinedPorts() {
        return Set.of();
    }

    /** Whether one port is in quarantine now (see {@link #getQuarantinedPorts}), without collecting them all. */
    default boolean isQuarantined(SwitchPort port) {
        return getQuarantinedPorts().contains(port);
    }

    /**
     * What discovery has done so far: probes sent and accepted, LLDP frames ignored by reason. Implementations that
     * do not probe report {@link DiscoveryCounters#NONE}.
     */
    default DiscoveryCounters getDiscoveryCounters() {
        return DiscoveryCounters.NONE;
    }
}
