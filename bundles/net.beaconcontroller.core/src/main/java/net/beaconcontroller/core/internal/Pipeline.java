package net.beaconcontroller.core.internal;

import java.util.Arrays;

import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.util.Prefetch;

/**
 * A message type's listeners in their order, each with its meter, and those of them that override
 * {@link IOFMessageListener#prefetch}. Replaced, never changed: dispatch takes no lock.
 */
record Pipeline(IOFMessageListener[] listeners, ListenerMeter[] meters, IOFMessageListener[] prefetchers) {
    static final Pipeline EMPTY = new Pipeline(new IOFMessageListener[0], new ListenerMeter[0]);

    Pipeline(IOFMessageListener[] listeners, ListenerMeter[] meters) {
        this(listeners, meters,
                Arrays.stream(listeners).filter(Pipeline::prefetches).toArray(IOFMessageListener[]::new));
    }

    /** Listeners with fresh meters for {@code threads} I/O threads. */
    static Pipeline of(int threads, IOFMessageListener... listeners) {
        var meters = new ListenerMeter[listeners.length];
        Arrays.setAll(meters, i -> new ListenerMeter(threads));
        return new Pipeline(listeners, meters);
    }

    private static boolean prefetches(IOFMessageListener listener) {
        try {
            return listener.getClass().getMethod("prefetch", IOFSwitch.class, int.class, Frame.class, Prefetch.class)
                    .getDeclaringClass() != IOFMessageListener.class;
        } catch (NoSuchMethodException e) {
            throw new AssertionError("IOFMessageListener declares prefetch", e);
        }
    }
}
