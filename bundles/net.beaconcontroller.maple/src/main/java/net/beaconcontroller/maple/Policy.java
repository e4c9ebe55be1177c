package net.beaconcontroller.maple;

/**
 * An algorithmic policy: what the network does with a packet entering it. Beacon calls it for packets no compiled
 * rule handles and caches its answer as rules, so it must be a deterministic function of what it reads: the
 * packet's fields through {@link Packet} and the network through {@link Environment}. Anything else it depends on
 * (its own settings, time, counters) is invisible to the cache; a change of such state is a new policy. A policy
 * that answers differently for packets it cannot tell apart is reported as inconsistent.
 */
@FunctionalInterface
public interface Policy {
    /**
     * The route for {@code packet}.
     *
     * @param packet the packet at its network ingress; reads and tests are recorded
     * @param env    the network as the policy may see it; reads are recorded as dependencies
     */
    Route apply(Packet packet, Environment env);
}
