package net.beaconcontroller.devicemanager.internal;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.shared.SharedKeys;
import net.beaconcontroller.core.shared.SharedTable;
import net.beaconcontroller.core.shared.SharedTable.Change;
import net.beaconcontroller.core.shared.WaitingForSwitch;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.topology.ITopology;

/**
 * A host's frames reach only the master of its switch, yet every member must know it (routing on each deletes its
 * flows on the switches it masters): this keeps the cluster's table of host records and this member's store in step,
 * so that every member ends with the same record of each host. Alone, the table is this member's only, and nothing
 * comes from it.
 */
final class DeviceSharing {
    /** Other members' records waiting for their switch here, at most: more are written again soon. */
    private static final int MAX_WAITING = 100_000;

    private final DeviceStore store;
    private final ITopology topology;
    private final LongSupplier epochSeconds;
    private final Supplier<DeviceManager.Config> config;
    private final DeviceEvents events;
    /** Every member's hosts; alone, this member's only. */
    private final SharedTable<Long, SharedDevices.Record> shared;
    /** This member's id as a writer of host records. */
    private final long self;
    /**
     * Other members' records of hosts at ports that were not edge ports here when they came, by host key: a switch
     * this member's topology did not know yet (it has just started) or a link end. Tried again when the switch is
     * added; dropped when idle.
     */
    private final WaitingForSwitch<Long, Change<Long, SharedDevices.Record>> waiting = new WaitingForSwitch<>(
            (was, now) -> now.value().version() < was.value().version() ? was : now, MAX_WAITING);

    /** Opens the table and takes in the records written to it from now on. */
    DeviceSharing(ISharedState cluster, DeviceStore store, ITopology topology, LongSupplier epochSeconds,
            Supplier<DeviceManager.Config> config, DeviceEvents events) {
        this.store = store;
        this.topology = topology;
        this.epochSeconds = epochSeconds;
        this.config = config;
        this.events = events;
        shared = SharedTable.open(cluster, SharedDevices.TABLE, SharedKeys.HEX, SharedDevices.CODEC);
        self = shared.writer();
        shared.subscribe(this::sharedDeviceSeen);
    }

    /** This member's id as a writer of host records. */
    long self() {
        return self;
    }

    void close() {
        shared.close();
    }

    /**
     * Writes a host this member learned or changed to the cluster when the others would otherwise miss something:
     * it is new, moved or has other addresses, or its last-seen time moved into the next refresh period.
     */
    void share(DeviceStore.Change change) {
        Device before = change.before();
        Device now = change.after();
        if (now == null || !change.changed()) {
            return;
        }
        var c = config.get();
        long period = DeviceManager.refreshSeconds(c);
        if (before == null || !before.attachment().equals(now.attachment()) || !before.ipv4().equals(now.ipv4())
                || before.lastSeen().getEpochSecond() / period != now.lastSeen().getEpochSecond() / period) {
            var t = store.get(now.mac(), now.vlan());
            if (t != null && t.device() == now) {
                shared.set(DeviceStore.key(now.mac(), now.vlan()), new SharedDevices.Record(now, t.version()),
                        Duration.ofSeconds(c.idleTimeout()));
            }
        }
    }

    /** Tries again the records waiting for this switch. */
    void switchAdded(IOFSwitch sw) {
        // As a task behind the other listeners' calls: topology, told of the switch before or after this, has
        // taken it in by then (a component that starts while switches are connected is told in a task of its own).
        sw.execute(() -> waiting.take(sw.getId()).forEach(this::sharedDeviceSeen));
    }

    /** Forgets the waiting records of {@code idle} hosts and tries the others again. */
    void retryWaiting(Predicate<Device> idle) {
        waiting.drop(w -> idle.test(w.value().device()));
        // Topology, restarted after this component, takes in the switches connected already after it.
        waiting.takeAll().forEach(this::sharedDeviceSeen);
    }

    /**
     * A record another member wrote. Ignored when the host is idle already or its port is not an edge port here (a
     * link end, or a switch not connected here). Otherwise the record of the higher version wins (a change made after
     * seeing the other record), then the later one, then the one of the writer with the greater id, so that every
     * member ends with the same one. The host keeps the addresses of both, as it would on one member.
     */
    private void sharedDeviceSeen(Change<Long, SharedDevices.Record> w) {
        if (w.value() == null) {
            return; // gone: its time to live passed, and the members age it out by themselves
        }
        var d = w.value().device();
        long version = w.value().version();
        long writer = w.writer();
        var at = d.attachment();
        var c = config.get();
        if (d.lastSeen().getEpochSecond() <= epochSeconds.getAsLong() - c.idleTimeout()) {
            return;
        }
        if (!topology.isEdgePort(at.dpid(), at.port())) {
            waiting.park(w.key(), w, at.dpid());
            return;
        }
        events.tell(store.update(d.mac(), d.vlan(), old -> {
            if (old == null) {
                return new Tracked(d, 0, 0, writer, version);
            }
            var mine = old.device();
            if (mine.equals(d)) {
                return old;
            }
            int order = Long.compare(version, old.version());
            if (order == 0) {
                order = d.lastSeen().compareTo(mine.lastSeen());
            }
            boolean theirs = order > 0 || order == 0 && Long.compareUnsigned(writer, old.writer()) > 0;
            var win = theirs ? d : mine;
            var ips = new LinkedHashSet<>(win.ipv4());
            for (int ip : (theirs ? mine : d).ipv4()) {
                if (ips.size() < c.maxIpsPerDevice()) {
                    ips.add(ip);
                }
            }
            var first = d.firstSeen().isBefore(mine.firstSeen()) ? d.firstSeen() : mine.firstSeen();
            var merged = new Device(win.mac(), win.vlan(), ips, win.attachment(), first, win.lastSeen());
            return merged.equals(mine) ? old
                    : new Tracked(merged, old.windowStart(), old.moves(), theirs ? writer : old.writer(),
                            theirs ? version : old.version());
        }), false);
    }
}
