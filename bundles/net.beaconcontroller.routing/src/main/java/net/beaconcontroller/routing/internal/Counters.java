package net.beaconcontroller.routing.internal;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import net.beaconcontroller.routing.RoutingCounters;

/** What routing did with the PACKET_INs it saw; updated from every I/O thread. */
public final class Counters {
    public enum Event {
        /** Flows installed along a route and the packet sent on. */
        ROUTED,
        /** Sent along the spanning tree: broadcast, multicast, unknown destination, no route or no engine. */
        FLOODED,
        /** Dropped because the same frame was flooded at this switch moments before: it went round a loop. */
        DROPPED_REPEAT,
        /** Dropped because it came in on an inter-switch port off the spanning tree: a copy going round a loop. */
        DROPPED_LOOP_COPY,
        /** A known destination with no route to it (another island): flooded. */
        NO_ROUTE,
        /** A known destination while no routing engine runs: flooded. */
        NO_ENGINE,
        /** An ARP request answered by the controller. */
        PROXY_ARP_REPLY,
        /** Dropped because it came in over a link and its route leaves by the same port (see Bounces). */
        DROPPED_BOUNCE,
    }

    private final Map<Event, LongAdder> counts = new EnumMap<>(Event.class);

    public Counters() {
        for (var e : Event.values()) {
            counts.put(e, new LongAdder());
        }
    }

    void add(Event e) {
        counts.get(e).increment();
    }

    public long get(Event e) {
        return counts.get(e).sum();
    }

    RoutingCounters snapshot() {
        return new RoutingCounters(get(Event.ROUTED), get(Event.FLOODED), get(Event.DROPPED_REPEAT),
                get(Event.DROPPED_LOOP_COPY), get(Event.NO_ROUTE), get(Event.NO_ENGINE), get(Event.PROXY_ARP_REPLY),
                get(Event.DROPPED_BOUNCE));
    }

    @Override
    public String toString() {
        var sb = new StringBuilder();
        counts.forEach((e, n) -> sb.append(sb.isEmpty() ? "" : ", ").append(e.name().toLowerCase()).append('=')
                .append(n.sum()));
        return sb.toString();
    }
}
