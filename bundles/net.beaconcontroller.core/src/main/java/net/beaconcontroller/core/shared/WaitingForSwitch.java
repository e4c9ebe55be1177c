package net.beaconcontroller.core.shared;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BinaryOperator;
import java.util.function.Predicate;

/**
 * Records other members wrote about a switch this member cannot place yet: the switch is not connected here (it is
 * starting, or joined another member first) or the port is not known. Kept by key until a switch they name comes,
 * when the application takes them out and tries them again, or until they are stale. Any thread.
 */
public final class WaitingForSwitch<K, R> {
    private record Waiting<R>(R record, long[] dpids) {
        boolean names(long dpid) {
            for (long d : dpids) {
                if (d == dpid) {
                    return true;
                }
            }
            return false;
        }
    }

    private final BinaryOperator<R> keep;
    private final int capacity;
    /** Guarded by this. */
    private final Map<K, Waiting<R>> waiting = new HashMap<>();

    /**
     * @param keep     of the record waiting under a key and another one for it, the one that waits on
     * @param capacity how many records wait at most: one more is not kept (the members write again, and the record
     *                 comes back with the next write)
     */
    public WaitingForSwitch(BinaryOperator<R> keep, int capacity) {
        this.keep = keep;
        this.capacity = capacity;
    }

    /** Waits for any of {@code dpids}; false when it is not kept (full). */
    public synchronized boolean park(K key, R record, long... dpids) {
        var was = waiting.get(key);
        if (was == null && waiting.size() >= capacity) {
            return false;
        }
        waiting.put(key, was == null ? new Waiting<>(record, dpids.clone())
                : new Waiting<>(keep.apply(was.record(), record), dpids.clone()));
        return true;
    }

    /** The records naming {@code dpid}, taken out: one that still cannot be placed is parked again by the caller. */
    public synchronized List<R> take(long dpid) {
        var taken = new ArrayList<R>();
        waiting.values().removeIf(w -> w.names(dpid) && taken.add(w.record()));
        return taken;
    }

    /** Every record, taken out: for an application that cannot tell which switches came meanwhile. */
    public synchronized List<R> takeAll() {
        var taken = waiting.values().stream().map(Waiting::record).toList();
        waiting.clear();
        return taken;
    }

    /** Forgets the records {@code stale} matches. */
    public synchronized void drop(Predicate<R> stale) {
        waiting.values().removeIf(w -> stale.test(w.record()));
    }

    public synchronized int size() {
        return waiting.size();
    }
}
