package net.beaconcontroller.devicemanager.internal;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * A host is forgotten for three reasons (its switch left, its port turned out to end a link, it went quiet) that come
 * on three threads, and each removal must lose to a change made since the host was picked (a frame that moved it
 * elsewhere, or renewed it): one conditional removal serves all three. It writes nothing to the switches: routing,
 * told of the removal, deletes the flows it leaves wrong.
 */
final class DeviceRemoval {
    private final DeviceStore store;
    private final DeviceEvents events;
    private final LongAdder agedOut = new LongAdder();

    DeviceRemoval(DeviceStore store, DeviceEvents events) {
        this.store = store;
        this.events = events;
    }

    long agedOut() {
        return agedOut.sum();
    }

    void switchRemoved(long dpid) {
        removeAll(store.on(dpid), d -> d.attachment().dpid() == dpid);
    }

    void linkAdded(Link link) {
        for (SwitchPort end : List.of(link.src(), link.dst())) {
            // A host placed here came from a frame that crossed this link while it was unknown (a copy that went round
            // a loop, say). Routing, told of the removal, deletes the flows towards that place: they may drop the
            // host's traffic there, renewed by the very packets they drop, so that it never speaks to the controller again.
            removeAll(store.at(end), x -> x.attachment().equals(end));
        }
    }

    void ageOut(Predicate<Device> idle) {
        for (Tracked t : store.entries()) {
            if (idle.test(t.device()) && remove(t.device(), idle)) {
                agedOut.increment();
            }
        }
    }

    private void removeAll(Collection<Device> devices, Predicate<Device> stillTrue) {
        devices.forEach(d -> remove(d, stillTrue));
    }

    /** Removes the host unless a change since the caller looked at it made {@code stillTrue} false. */
    private boolean remove(Device d, Predicate<Device> stillTrue) {
        var change = store.update(d.mac(), d.vlan(), old -> old != null && stillTrue.test(old.device()) ? null : old);
        events.tell(change, true);
        return change.changed();
    }
}
