package net.beaconcontroller.core.internal;

import java.util.Arrays;

import net.beaconcontroller.core.IOFMessageListener;

/** A message type's listeners in their order, each with its meter. Replaced, never changed: dispatch takes no lock. */
record Pipeline(IOFMessageListener[] listeners, ListenerMeter[] meters) {
    static final Pipeline EMPTY = new Pipeline(new IOFMessageListener[0], new ListenerMeter[0]);

    /** Listeners with fresh meters for {@code threads} I/O threads. */
    static Pipeline of(int threads, IOFMessageListener... listeners) {
        var meters = new ListenerMeter[listeners.length];
        Arrays.setAll(meters, i -> new ListenerMeter(threads));
        return new Pipeline(listeners, meters);
    }
}
