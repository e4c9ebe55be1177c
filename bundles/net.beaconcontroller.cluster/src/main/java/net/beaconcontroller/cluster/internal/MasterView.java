package net.beaconcontroller.cluster.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The masters map as this member last saw it: read on every forwarded write, so it must not cost a network round trip.
 * It learns from the map's events, the store's periodic reads, the survivors' take-overs and this member's own
 * writes, which arrive on different threads and out of order; the rules here decide which one stands. Any thread.
 */
final class MasterView {
    private final Map<Long, String> cache = new ConcurrentHashMap<>();
    /** When an event last changed a switch's entry (the clock's time): a read started before it is older. */
    private final Map<Long, Long> changedAt = new ConcurrentHashMap<>();
    /** When a merge last replaced the whole map (the clock's time): a read started before it is of the old map. */
    private volatile Long replacedAt;
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
        return cache.get(dpid);
    }

    /** The switch's master if it is a member now: a write for a switch whose master left waits for the next one. */
    String live(long dpid) {
        var m = cache.get(dpid);
        return m != null && isMember.test(m) ? m : null;
    }

    Map<Long, String> snapshot() {
        return new HashMap<>(cache);
    }

    /**
     * The entry is now {@code master} (null: removed), newer than any read of the map started before: the map's event,
     * or a survivor that lost the tie-break of two take-overs (see {@link Roles#takenOverBy}).
     */
    void changed(long dpid, String master) {
        changedAt.put(dpid, clock.getAsLong());
        if (master == null) {
            cache.remove(dpid);
        } else {
            cache.put(dpid, master);
        }
    }

    /** The map as read or written by this member itself (a handshake, a hand-over). */
    void learned(long dpid, String master) {
        cache.put(dpid, master);
    }

    /**
     * A survivor took over a switch of {@code dead}: it stands only over a master that is gone, as a newer decision in
     * the map does.
     */
    void takenOver(long dpid, String by, String dead) {
        changedAt.put(dpid, clock.getAsLong());
        cache.computeIfPresent(dpid, (k, cached) -> cached.equals(dead) || !isMember.test(cached) ? by : cached);
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
        return cache.compute(dpid, (k, cached) -> cached != null && !isMember.test(read) && isMember.test(cached)
                ? cached : read);
    }

    /**
     * After a merge: the merged map, read at {@code readAt}, replaces everything seen before but the events after the
     * read. Entry by entry, so a forwarded write meanwhile never finds the view empty.
     */
    void replaceAll(Map<Long, String> merged, long readAt) {
        replacedAt = readAt;
        cache.keySet().removeIf(dpid -> !merged.containsKey(dpid) && !changedSince(dpid, readAt));
        merged.forEach((dpid, master) -> {
            if (!changedSince(dpid, readAt)) {
                cache.put(dpid, master);
            }
        });
    }

    private boolean changedSince(long dpid, long since) {
        var changed = changedAt.get(dpid);
        return changed != null && changed - since > 0;
    }

    void clear() {
        cache.clear();
        changedAt.clear();
    }
}
