package net.beaconcontroller.topology.internal;

import java.time.Instant;
import java.util.function.LongSupplier;

import net.beaconcontroller.core.shared.WaitingForSwitch;
import net.beaconcontroller.topology.Link;

/**
 * The links other members of a cluster found (see {@link SharedLinks}), taken into the store. One may end at a port
 * this member does not know yet (its switch is not added here yet, as after a start): it waits for the switch instead
 * of being lost until a probe crosses the link again. Called on the cluster's thread and the switches' I/O threads;
 * what waits is kept by {@link WaitingForSwitch}, which any thread may use.
 */
final class RemoteLinks {
    /** Other members' links waiting for a switch here, at most: more are written again at their next probe. */
    private static final int MAX_WAITING = 100_000;

    private record Pending(Link link, Instant firstSeen, long came) { }

    private final TopologyStore store;
    private final TopologyListeners listeners;
    private final LongSupplier nanoClock;
    private final long timeoutNanos;
    /** With when they came: tried again when a switch is added, dropped after the link timeout. */
    private final WaitingForSwitch<Link, Pending> waiting = new WaitingForSwitch<>(
            (was, now) -> now.came() - was.came() > 0 ? now : was, MAX_WAITING);

    /** @param timeoutNanos how long a link waits for its switch: the link timeout */
    RemoteLinks(TopologyStore store, TopologyListeners listeners, LongSupplier nanoClock, long timeoutNanos) {
        this.store = store;
        this.listeners = listeners;
        this.nanoClock = nanoClock;
        this.timeoutNanos = timeoutNanos;
    }

    /** Another member wrote that a probe crossed {@code link}. */
    void seen(Link link, Instant firstSeen) {
        long now = nanoClock.getAsLong();
        switch (store.linkSeen(link, now, firstSeen)) {
            case NEW -> listeners.deliver();
            case UNKNOWN_PORT -> waiting.park(link, new Pending(link, firstSeen, now), link.src().dpid(),
                    link.dst().dpid());
            case REFRESHED -> { }
        }
    }

    /** Switch {@code dpid} was added: the links waiting for it are tried again. */
    void switchAdded(long dpid) {
        // Taken out first: one whose other end is not here yet goes back in.
        waiting.take(dpid).forEach(p -> seen(p.link(), p.firstSeen()));
    }

    /** Forgets the links that waited longer than the link timeout by {@code now}. */
    void dropStale(long now) {
        waiting.drop(p -> now - p.came() > timeoutNanos);
    }
}
