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

    /**
     * Whether {@code port} of switch {@code dpid} ends no inter-switch link: a port hosts may attach to. A broadcast
     * domain port (see {@link #isBroadcastDomainPort}) is one too.
     */
    boolean isEdgePort(long dpid, int port);

    /**
     * Whether {@code port} of switch {@code dpid} reaches ports of Beacon's switches through switches Beacon does not
     * manage (bridges that flood broadcasts but do not forward LLDP): a broadcast-domain probe (BDDP) crossed from or
     * to it, and it ends no LLDP link. Hosts behind those bridges attach there, but so do copies of frames that went
     * round through them: a host already known at another edge port is not taken to be there. Of a domain's ports,
     * only those {@link #getBroadcastPorts} lists carry broadcasts; a broadcast that comes in at another one is a copy
     * the domain has delivered through one of those, and is dropped.
     *
     * @since 1.2
     */
    default boolean isBroadcastDomainPort(long dpid, int port) {
        return false;
    }

    /**
     * Whether {@code a} and {@code b} are ports of one broadcast domain (see {@link #isBroadcastDomainPort}): the
     * bridges deliver a frame sent into either of them to the other themselves.
     *
     * @since 1.2
     */
    default boolean inSameBroadcastDomain(SwitchPort a, SwitchPort b) {
        return false;
    }

    /**
     * The broadcast-domain links (see {@link #isBroadcastDomainPort}), each direction separately: not links to route
     * over, nor told to {@link ITopologyListener}s.
     *
     * @since 1.2
     */
    default Set<Link> getBroadcastDomainLinks() {
        return Set.of();
    }

    /**
     * The islands: sets of switches connected by links (in both directions), every active switch in exactly one.
     * A switch without links is an island of its own.
     */
    Set<Set<Long>> getIslands();

    /**
     * The ports of switch {@code dpid} a broadcast (or a frame to an unknown destination) goes out of so that every
     * host of the island gets it exactly once, loops or not: its edge ports plus its links on a spanning tree of the
     * island. Of the ports of a broadcast domain (see {@link #isBroadcastDomainPort}) only those on a spanning tree of
     * the islands and domains are listed, one per island and domain. The sender leaves out the port the frame came in
     * on. A port in quarantine (see
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
