package net.beaconcontroller.cluster.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The masters map as this member last saw it: read on every forwarded write, so it must not cost a network round trip.
 * It learns from the map's events, the store's periodic reads, the survivors' take-overs and this member's own
 * writes, which were made at different times and arrive out of order; the rules here decide which one stands.
 *
 * <p>Changed on the coordinator's thread only, which every source posts to; read on any thread (forwarded writes, the
 * rounds, the web) through the immutable copy published after each change.
 */
final class MasterView {
    private final Map<Long, String> cache = new HashMap<>();
    /** When an event last changed a switch's entry (the clock's time): a read started before it is older. */
    private final Map<Long, Long> changedAt = new HashMap<>();
    /** When a merge last replaced the whole map (the clock's time): a read started before it is of the old map. */
    private Long replacedAt;
    private volatile Map<Long, String> published = Map.of();
    private final Predicate<String> isMember;
    private final LongSupplier clock;

    /**
     * @param isMember whether a member id is one this member sees now
     * @param clock    System::nanoTime, or a test's
     */
    MasterView(Predicate<String> isMember, LongSupplier clock) {
        this.isMember = isMember;
        this.clock = clock;
    }

    /** The switch's master as last seen, which may be a member that has left; null for none. */
    String get(long dpid) {
        return published.get(dpid);
    }

    /** The switch's master if it is a member now: a write for a switch whose master left waits for the next one. */
    String live(long dpid) {
        var m = published.get(dpid);
        return m != null && isMember.test(m) ? m : null;
    }

    /** Immutable. */
    Map<Long, String> snapshot() {
        return published;
    }

    /**
     * The entry is now {@code master} (null: removed), newer than any read of the map started before: the map's event,
     * or a survivor that lost the tie-break of two take-overs (see {@link Roles#takenOverBy}).
     */
    void changed(long dpid, String master) {
        changedAt.put(dpid, clock.getAsLong());
        publishIf(!Objects.equals(master == null ? cache.remove(dpid) : cache.put(dpid, master), master));
    }

    /** The map as read or written by this member itself (a handshake, a hand-over). */
    void learned(long dpid, String master) {
        publishIf(!master.equals(cache.put(dpid, master)));
    }

    /**
     * A survivor took over a switch of {@code dead}: it stands only over a master that is gone, as a newer decision in
     * the map does.
     */
    void takenOver(long dpid, String by, String dead) {
        changedAt.put(dpid, clock.getAsLong());
        var before = cache.get(dpid);
        publishIf(!Objects.equals(before, cache.computeIfPresent(dpid,
                (k, cached) -> cached.equals(dead) || !isMember.test(cached) ? by : cached)));
    }

    /**
     * The store's read of the entry, {@code read}, started at {@code readAt}: the master this member's role follows.
     * An event after the read started is newer than the read; an entry still naming a member that left does not undo
     * a survivor's take-over.
     */
    String reconcile(long dpid, String read, long readAt) {
        if (changedSince(dpid, readAt) || replacedAt != null && replacedAt - readAt > 0) {
            return cache.get(dpid);
        }
        var before = cache.get(dpid);
        var m = cache.compute(dpid, (k, cached) -> cached != null && !isMember.test(read) && isMember.test(cached)
                ? cached : read);
        publishIf(!m.equals(before));
        return m;
    }

    /**
     * After a merge: the merged map, read at {@code readAt}, replaces everything seen before but the events after the
     * read.
     */
    void replaceAll(Map<Long, String> merged, long readAt) {
        replacedAt = readAt;
        cache.keySet().removeIf(dpid -> !merged.containsKey(dpid) && !changedSince(dpid, readAt));
        merged.forEach((dpid, master) -> {
            if (!changedSince(dpid, readAt)) {
                cache.put(dpid, master);
            }
        });
        publish();
    }

    private boolean changedSince(long dpid, long since) {
        var changed = changedAt.get(dpid);
        return changed != null && changed - since > 0;
    }

    void clear() {
        cache.clear();
        changedAt.clear();
        replacedAt = null;
        publish();
    }

    /** A copy only when something changed: the rounds reconcile every switch twice a second. */
    private void publishIf(boolean changed) {
        if (changed) {
            publish();
        }
    }

    private void publish() {
        published = Map.copyOf(cache);
    }
}
