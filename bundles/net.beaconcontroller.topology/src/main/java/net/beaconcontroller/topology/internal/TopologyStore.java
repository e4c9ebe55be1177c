package net.beaconcontroller.topology.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Predicate;

import net.beaconcontroller.topology.ITopologyListener;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * Owns the topology: the current {@link TopologyView} and when each link was last seen. Pure logic, time passed in
 * ({@code System.nanoTime()}-based {@code now}), so tests drive it without sockets or clocks.
 *
 * <p>Concurrency: switch I/O threads and the scheduler thread change it. Structural changes (a switch, port or link
 * appears or goes) take {@code lock}, build the next view from the current one and publish it through a volatile
 * field; readers never lock. Refreshing a link that is already known, by far the most frequent change (every probe of
 * every link, every interval), only writes its last-seen time into a concurrent map and rebuilds nothing. The link
 * changes of a structural update are queued under the same lock, so their order is the order of the views, and are
 * delivered by {@link #drain} outside it.
 */
final class TopologyStore {
    /** A link that appeared or went, for every listener, or for {@code only} one (see {@link #replayTo}). */
    record LinkChange(Link link, boolean added, ITopologyListener only) {
        LinkChange(Link link, boolean added) {
            this(link, added, null);
        }
    }

    /**
     * What a probe that came back did. {@code DIRECT}: a BDDP probe between ports an LLDP link ends at, which took the
     * cable rather than a bridge, so it makes no broadcast-domain link. {@code EARLY}: a BDDP probe at a port in
     * quarantine, held until the quarantine ends (see {@link EarlyDomainProbes}).
     */
    enum Seen { NEW, REFRESHED, UNKNOWN_PORT, DIRECT, EARLY }

    /**
     * What an expiry run did.
     *
     * @param ends    the ends of the links that went, still up, now in quarantine: to be probed at once, so that a link
     *                whose cable is there comes back
     * @param domains the broadcast-domain links that probes held in quarantine made
     */
    record Expired(Set<SwitchPort> ends, List<Link> domains) { }

    private final long quarantineNanos;
    private final long holdNanos;
    private final Object lock = new Object();
    private volatile TopologyView view = TopologyView.EMPTY;
    /** Soft state beside the view: when each link was last seen; entries of links that went are swept by expire. */
    private final ConcurrentHashMap<Link, Long> lastSeen = new ConcurrentHashMap<>();
    /** The same for the broadcast-domain links. */
    private final ConcurrentHashMap<Link, Long> domainLastSeen = new ConcurrentHashMap<>();
    /** Under {@code lock}. */
    private final EarlyDomainProbes early = new EarlyDomainProbes();
    private final ConcurrentLinkedQueue<LinkChange> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean draining = new AtomicBoolean();

    /**
     * @param quarantineNanos how long the ports of a newly added switch, and a port that came up, stay out of broadcasts
     * @param holdNanos       the most a port is held in quarantine past its end for a BDDP probe to be judged: more
     *                        than the time between two runs of {@link #expire}
     */
    TopologyStore(long quarantineNanos, long holdNanos) {
        this.quarantineNanos = quarantineNanos;
        this.holdNanos = holdNanos;
    }

    TopologyView view() {
        return view;
    }

    /** A switch became active with these ports up (again: its links at ports it no longer has go). */
    void switchAdded(long dpid, Set<Integer> upPorts, long now) {
        synchronized (lock) {
            publish(view.withSwitch(dpid, upPorts, now + quarantineNanos));
        }
    }

    /** The switch left; the far ends of its links go into quarantine from {@code now}. */
    void switchRemoved(long dpid, long now) {
        synchronized (lock) {
            publish(view.withoutSwitch(dpid, now + quarantineNanos));
        }
    }

    /** {@code ports} that are up into quarantine from {@code now}: this member now probes their switch. */
    void quarantine(Collection<SwitchPort> ports, long now) {
        var until = new HashMap<SwitchPort, Long>();
        ports.forEach(p -> until.put(p, now + quarantineNanos));
        synchronized (lock) {
            publish(view.withPortsQuarantined(until));
        }
    }

    /** @return whether the port was not up before (so it needs a probe); false for an unknown switch too */
    boolean portUp(long dpid, int port, long now) {
        synchronized (lock) {
            var s = view.switches().get(dpid);
            if (s == null || s.ports().contains(port)) {
                return false;
            }
            publish(view.withPort(dpid, port, now + quarantineNanos));
            return true;
        }
    }

    void portDown(long dpid, int port) {
        synchronized (lock) {
            publish(view.withoutPort(dpid, port));
        }
    }

    /** A probe sent out of {@code link.src()} came back at {@code link.dst()}. */
    Seen linkSeen(Link link, long now, Instant wallNow) {
        var v = view;
        if (v.links().containsKey(link)) {
            lastSeen.put(link, now);
            return Seen.REFRESHED;
        }
        synchronized (lock) {
            v = view;
            if (!v.hasPort(link.src()) || !v.hasPort(link.dst())) {
                return Seen.UNKNOWN_PORT;
            }
            lastSeen.put(link, now);
            if (v.links().containsKey(link)) {
                return Seen.REFRESHED;
            }
            publish(v.withLink(link, wallNow));
            return Seen.NEW;
        }
    }

    /**
     * A BDDP probe sent out of {@code link.src()} came back at {@code link.dst()} at {@code now}: a broadcast-domain
     * link unless an LLDP link ends at either port. Listeners are told nothing: it is not a link to route over.
     */
    Seen domainLinkSeen(Link link, long now) {
        if (view.domainLinks().contains(link)) {
            domainLastSeen.put(link, now);
            return Seen.REFRESHED;
        }
        synchronized (lock) {
            var v = view;
            if (!v.hasPort(link.src()) || !v.hasPort(link.dst())) {
                return Seen.UNKNOWN_PORT;
            }
            if (!v.isEdgePort(link.src().dpid(), link.src().port())
                    || !v.isEdgePort(link.dst().dpid(), link.dst().port())) {
                return Seen.DIRECT;
            }
            var quarantined = new HashMap<SwitchPort, Long>();
            for (var end : List.of(link.src(), link.dst())) {
                if (v.isQuarantined(end, now)) {
                    quarantined.put(end, v.quarantineEnd(end));
                }
            }
            if (!quarantined.isEmpty()) {
                publish(v.withPortsQuarantined(early.add(link, now, quarantined, holdNanos)));
                return Seen.EARLY;
            }
            domainLastSeen.put(link, now);
            if (v.domainLinks().contains(link)) {
                return Seen.REFRESHED;
            }
            publish(v.withDomainLink(link));
            return Seen.NEW;
        }
    }

    /**
     * Removes the links not seen for longer than {@code timeoutNanos} whose probes {@code lost} says stopped coming
     * back, putting their ends that are still up into quarantine, and drops quarantine entries that have ended.
     *
     * Broadcast-domain links go when not seen for longer than {@code domainTimeoutNanos} (their ports are probed every
     * probe round only); their ends go into quarantine and are probed too. BDDP probes held while their ends were in
     * quarantine become broadcast-domain links now that it ended, unless an LLDP link ends there by now.
     */
    Expired expire(long now, long timeoutNanos, Predicate<Link> lost, long domainTimeoutNanos) {
        synchronized (lock) {
            var v = view;
            lastSeen.keySet().removeIf(l -> !v.links().containsKey(l));
            domainLastSeen.keySet().removeIf(l -> !v.domainLinks().contains(l));
            var oldDomain = new ArrayList<Link>();
            for (Link l : v.domainLinks()) {
                Long seen = domainLastSeen.get(l);
                if (seen == null || now - seen > domainTimeoutNanos) {
                    oldDomain.add(l);
                }
            }
            var old = new ArrayList<Link>();
            for (Link l : v.links().keySet()) {
                Long seen = lastSeen.get(l);
                if (seen == null || now - seen > timeoutNanos && lost.test(l)) {
                    old.add(l);
                }
            }
            var next = v.withoutEndedQuarantine(now);
            if (!oldDomain.isEmpty()) {
                domainLastSeen.keySet().removeAll(oldDomain);
                next = next.withoutDomainLinks(oldDomain, now + quarantineNanos);
            }
            if (!old.isEmpty()) {
                lastSeen.keySet().removeAll(old);
                next = next.withoutLinks(old, now + quarantineNanos);
            }
            var ends = new HashSet<SwitchPort>();
            for (var l : old) {
                addEndsUp(ends, l, next);
            }
            for (var l : oldDomain) {
                addEndsUp(ends, l, next);
            }
            var due = early.due(now);
            var found = new ArrayList<Link>();
            for (var e : due.probes()) {
                if (now - e.seen() <= domainTimeoutNanos && !next.domainLinks().contains(e.link())) {
                    next = next.withDomainLink(e.link());
                    if (next.domainLinks().contains(e.link())) {
                        domainLastSeen.put(e.link(), e.seen());
                        found.add(e.link());
                    }
                }
            }
            // In the same view as the links they make: never an edge port that floods in between.
            next = next.withQuarantineEnded(due.released());
            publish(next);
            return new Expired(ends, found);
        }
    }

    private static void addEndsUp(Set<SwitchPort> ends, Link l, TopologyView v) {
        for (var end : List.of(l.src(), l.dst())) {
            if (v.hasPort(end)) {
                ends.add(end);
            }
        }
    }

    /**
     * Queues every current link as added, for {@code listener} alone, behind the changes already queued and before
     * any later one: a listener that read the links before it was registered (the routing engine does, as it starts)
     * hears what it missed in between, and a link that goes meanwhile is removed after it was added.
     */
    void replayTo(ITopologyListener listener) {
        synchronized (lock) {
            view.links().keySet().forEach(l -> pending.add(new LinkChange(l, true, listener)));
        }
    }

    /** Hands every queued change to {@code sink}, in order, one thread at a time; call after each update. */
    void drain(Consumer<LinkChange> sink) {
        while (!pending.isEmpty()) {
            // Another thread delivering takes our changes too: it re-checks the queue after letting go.
            if (!draining.compareAndSet(false, true)) {
                return;
            }
            try {
                LinkChange c;
                while ((c = pending.poll()) != null) {
                    sink.accept(c);
                }
            } finally {
                draining.set(false);
            }
        }
    }

    private void publish(TopologyView next) {
        var before = view;
        if (next == before) {
            return;
        }
        view = next;
        queue(before.links().keySet(), next.links().keySet(), false);
        queue(next.links().keySet(), before.links().keySet(), true);
    }

    /** Queues the links of {@code from} missing in {@code without}. */
    private void queue(Collection<Link> from, Set<Link> without, boolean added) {
        for (Link l : from) {
            if (!without.contains(l)) {
                pending.add(new LinkChange(l, added));
            }
        }
    }
}
