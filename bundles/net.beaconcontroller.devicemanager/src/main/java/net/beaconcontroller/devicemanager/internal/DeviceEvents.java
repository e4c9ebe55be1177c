package net.beaconcontroller.devicemanager.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceListener;

/**
 * Learning, the cluster's records and removals all change hosts, on their own threads; the listeners must hear of
 * each change the same way whichever made it: once, after the store shows it, outside its locks, on the thread that
 * made it, and a failing listener must not stop the others or the thread. The moves counter lives here because only
 * the event tells a move apart from another change.
 */
final class DeviceEvents {
    private static final Logger log = LoggerFactory.getLogger(DeviceManager.class);

    private final List<IDeviceListener> listeners = new CopyOnWriteArrayList<>();
    private final LongAdder moves = new LongAdder();

    void add(IDeviceListener listener) {
        listeners.add(listener);
    }

    void remove(IDeviceListener listener) {
        listeners.remove(listener);
    }

    long moves() {
        return moves.sum();
    }

    /** @param learned whether this member made the change (not taken from another member's record) */
    void tell(DeviceStore.Change change, boolean learned) {
        if (!change.changed()) {
            return;
        }
        Device before = change.before();
        Device now = change.after();
        if (before == null) {
            log.debug("Device added: {}", now);
            listeners.forEach(l -> call(l, () -> l.deviceAdded(now)));
        } else if (now == null) {
            log.debug("Device removed: {}", before);
            listeners.forEach(l -> call(l, () -> l.deviceRemoved(before)));
        } else {
            if (!before.attachment().equals(now.attachment())) {
                moved(before, now, learned);
            }
            if (!before.ipv4().equals(now.ipv4())) {
                log.debug("Device IPs changed: {} -> {}", before.ipv4(), now);
                listeners.forEach(l -> call(l, () -> l.deviceIpChanged(before, now)));
            }
        }
    }

    /**
     * Every member tells its listeners, so that routing on each deletes the host's flows on the switches it masters.
     *
     * @param learned whether this member saw the move (counted once in the cluster), not took it from another's record
     */
    private void moved(Device before, Device now, boolean learned) {
        log.debug("Device moved from {}: {}", before.attachment(), now);
        if (learned) {
            moves.increment();
        }
        listeners.forEach(l -> call(l, () -> l.deviceMoved(before, now)));
    }

    private static void call(IDeviceListener listener, Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            log.warn("Device listener {} failed", listener, e);
        }
    }
}
