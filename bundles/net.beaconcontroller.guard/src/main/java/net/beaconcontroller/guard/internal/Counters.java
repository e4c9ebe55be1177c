package net.beaconcontroller.guard.internal;

import java.util.Comparator;
import java.util.concurrent.ConcurrentHashMap;

import net.beaconcontroller.guard.GuardCounters;

/**
 * The guard's counts by switch and port, for every port that ever went over a budget. A port's entry outlives its
 * switch's connection (a counter only grows until a restart), so a switch that reconnects counts on.
 */
final class Counters {
    private record Key(long dpid, int port) { }

    private static final Comparator<GuardCounters.Port> ORDER = Comparator
            .comparing(GuardCounters.Port::dpid, Long::compareUnsigned).thenComparingInt(GuardCounters.Port::port);

    private final ConcurrentHashMap<Key, PortCounters> ports = new ConcurrentHashMap<>();

    PortCounters of(long dpid, int port) {
        return ports.computeIfAbsent(new Key(dpid, port), k -> new PortCounters());
    }

    GuardCounters snapshot() {
        return new GuardCounters(ports.entrySet().stream()
                .map(e -> e.getValue().snapshot(e.getKey().dpid(), e.getKey().port())).sorted(ORDER).toList());
    }
}
