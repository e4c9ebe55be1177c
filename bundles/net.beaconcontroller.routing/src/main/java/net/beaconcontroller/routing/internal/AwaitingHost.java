package net.beaconcontroller.routing.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;

/**
 * Routing's flows that reconciliation kept as unsure because their destination host was not known yet (after a
 * restart), by host, to be judged again when the device manager learns the host: a host that moved while Beacon was
 * down then gets the flows towards its old place removed as soon as it speaks, not when they idle out (never, while
 * traffic keeps them alive). Bounded in number and age. Written by the reconciliation threads, read by the I/O thread
 * that learns the host.
 */
final class AwaitingHost {
    /** A flow found on switch {@code dpid}, kept at {@code at} (System.nanoTime). */
    record Flow(long dpid, OFFlowStatsEntry entry, long at) { }

    private record Host(long mac, int vlan) { }

    private final Map<Host, List<Flow>> flows = new ConcurrentHashMap<>();
    private final AtomicInteger size = new AtomicInteger();
    private final int limit;
    private final long maxAgeNanos;

    AwaitingHost(int limit, long maxAgeNanos) {
        this.limit = limit;
        this.maxAgeNanos = maxAgeNanos;
    }

    /**
     * Keeps the flow for its destination host, unless {@link #limit} flows wait already. What waited too long is
     * dropped only when the limit is reached: a walk over every host per flow would make a large table's
     * reconciliation quadratic, and {@link #take} leaves out what is too old anyway.
     */
    void add(long mac, int vlan, long dpid, OFFlowStatsEntry entry, long now) {
        if (size.get() >= limit) {
            expire(now);
        }
        if (size.incrementAndGet() > limit) {
            size.decrementAndGet();
            return;
        }
        flows.compute(new Host(mac, vlan), (h, list) -> {
            var next = list == null ? new ArrayList<Flow>() : list;
            next.add(new Flow(dpid, entry, now));
            return next;
        });
    }

    /** The host's waiting flows that are not too old, which stop waiting. */
    List<Flow> take(long mac, int vlan, long now) {
        var taken = flows.remove(new Host(mac, vlan));
        if (taken == null) {
            return List.of();
        }
        size.addAndGet(-taken.size());
        return taken.stream().filter(f -> now - f.at() <= maxAgeNanos).toList();
    }

    /** Drops what waited too long. */
    void expire(long now) {
        flows.keySet().forEach(h -> flows.computeIfPresent(h, (k, list) -> {
            int before = list.size();
            list.removeIf(f -> now - f.at() > maxAgeNanos);
            size.addAndGet(list.size() - before);
            return list.isEmpty() ? null : list;
        }));
    }

    int size() {
        return size.get();
    }
}
