package net.beaconcontroller.core.internal;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;

/**
 * The active switches by DPID, and what the switch listeners are told of them: each listener hears
 * {@code addedSwitch} once per connection, before its {@code removedSwitch}, on the switch's I/O thread, however its
 * registration and the connection interleave (the connection keeps who it told, see {@link SwitchConnection#tellAdded}).
 */
final class ActiveSwitches {
    private final Map<Long, IOFSwitch> switches = new ConcurrentHashMap<>();
    private final Map<Long, IOFSwitch> view = Collections.unmodifiableMap(switches);
    private final ListenerRegistry listeners;

    ActiveSwitches(ListenerRegistry listeners) {
        this.listeners = listeners;
    }

    /** A read-only live view. */
    Map<Long, IOFSwitch> view() {
        return view;
    }

    Collection<IOFSwitch> all() {
        return switches.values();
    }

    /**
     * The connection holds its DPID now (see {@link SwitchIdentity}): one that held it before has been closed and
     * removed, so listeners heard {@code removedSwitch(old)} before this one's {@code addedSwitch}.
     */
    void put(SwitchConnection sw) {
        switches.put(sw.getId(), sw);
    }

    /** On the switch's I/O thread, once it is active. */
    void added(SwitchConnection sw) {
        for (var l : listeners.switchListeners()) {
            tellAdded(sw, l);
        }
    }

    /** On the switch's I/O thread, as its connection closes. */
    void removed(SwitchConnection sw) {
        switches.remove(sw.getId(), sw);
        for (var l : listeners.switchListeners()) {
            if (!sw.tellRemoved(l)) {
                continue;
            }
            try {
                l.removedSwitch(sw);
            } catch (Throwable t) {
                Dispatch.survive(t, "switch listener " + l.getName() + " failed on removedSwitch " + sw.getStringId());
            }
        }
    }

    /**
     * Adds a switch listener. One that arrives while switches are connected hears {@code addedSwitch} for each of
     * them, on its I/O thread: an application restarted at run time sees the network it missed, and none has to ask
     * for it.
     */
    void addListener(IOFSwitchListener listener, Map<String, Object> properties) {
        var registration = listeners.addSwitch(listener, properties);
        for (var s : switches.values()) {
            var sw = (SwitchConnection) s;
            sw.execute(() -> {
                // Only while this registration stands: one removed and added again meanwhile is told by the next.
                if (listeners.registered(registration)) {
                    tellAdded(sw, listener);
                }
            });
        }
    }

    /** A listener that leaves is forgotten by every switch: it may come back, and it must not be kept alive. */
    void forget(IOFSwitchListener l) {
        for (var s : switches.values()) {
            var sw = (SwitchConnection) s;
            sw.execute(() -> sw.tellRemoved(l));
        }
    }

    /** On the switch's I/O thread. */
    private void tellAdded(SwitchConnection sw, IOFSwitchListener l) {
        if (!sw.tellAdded(l)) {
            return;
        }
        try {
            l.addedSwitch(sw);
        } catch (Throwable t) {
            Dispatch.survive(t, "switch listener " + l.getName() + " failed on addedSwitch " + sw.getStringId());
        }
    }
}
