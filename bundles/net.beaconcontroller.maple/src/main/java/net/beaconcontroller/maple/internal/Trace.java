package net.beaconcontroller.maple.internal;

import java.util.List;

import net.beaconcontroller.maple.Route;

/** One run of a policy: the reads and tests in order, the route it returned and what that depends on. */
record Trace(List<Event> events, Route route, Dependencies dependencies) {
    Trace {
        events = List.copyOf(events);
    }
}
