package net.beaconcontroller.topology.internal;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.function.LongSupplier;

import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IScheduler;
import net.beaconcontroller.openflow.OFPortStatus;
import net.beaconcontroller.topology.SwitchPort;

/**
 * When ports are probed and links time out: a switch's ports as it is added and once more halfway through their
 * quarantine, a port as it comes up, every port each probe round, the ends of known links each liveness interval, the
 * ends of what just expired. Apart from the judging of the probes that come back because it is the part of discovery
 * that runs on a clock: the rounds and the expiry run on the scheduler thread, which alone owns their state (the
 * switches missing on the last round, which switches were probed here); a switch's events arrive on its I/O thread,
 * and every probe is written there.
 */
final class ProbeScheduler implements AutoCloseable {
    private final IBeaconProvider beacon;
    private final IScheduler scheduler;
    private final DiscoveryTimes times;
    private final LongSupplier nanoClock;
    private final TopologyStore store;
    private final Prober prober;
    private final Liveness liveness;
    private final SharedLinks shared;
    private final RemoteLinks remote;
    private final TopologyListeners listeners;
    private final List<ScheduledFuture<?>> tasks = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    // The scheduler thread's: switches found missing on the last probe round; whether each switch was probed here
    // (not SLAVE) on the last expiry check; the ends of links that timed out and have not been found again.
    private Set<Long> missingLastRound = Set.of();
    private final Map<Long, Boolean> probes = new HashMap<>();
    private final Set<SwitchPort> lostEnds = new HashSet<>();

    /** Starts the probe rounds, the liveness probes and the expiry on {@code scheduler}. */
    ProbeScheduler(IBeaconProvider beacon, IScheduler scheduler, DiscoveryTimes times, LongSupplier nanoClock,
            TopologyStore store, Prober prober, Liveness liveness, SharedLinks shared, RemoteLinks remote,
            TopologyListeners listeners) {
        this.beacon = beacon;
        this.scheduler = scheduler;
        this.times = times;
        this.nanoClock = nanoClock;
        this.store = store;
        this.prober = prober;
        this.liveness = liveness;
        this.shared = shared;
        this.remote = remote;
        this.listeners = listeners;
        var interval = Duration.ofNanos(times.probeIntervalNanos());
        tasks.add(scheduler.scheduleAtFixedRate(this::probeRound, interval, interval));
        if (times.livenessNanos() > 0 && times.livenessNanos() < times.probeIntervalNanos()) {
            var every = Duration.ofNanos(times.livenessNanos());
            tasks.add(scheduler.scheduleAtFixedRate(this::probeLinks, every, every));
        }
        tasks.add(scheduler.scheduleAtFixedRate(this::expire, times.expiry(), times.expiry()));
    }

    @Override
    public void close() {
        closed = true;
        tasks.forEach(t -> t.cancel(false));
    }

    /** On the switch's I/O thread. */
    void switchAdded(IOFSwitch sw) {
        var up = new HashSet<Integer>();
        for (var p : sw.getPorts()) {
            if (Prober.isProbed(p)) {
                up.add(p.portNo());
            }
        }
        long dpid = sw.getId();
        store.switchAdded(dpid, up, nanoClock.getAsLong());
        remote.switchAdded(dpid);
        listeners.deliver();
        prober.probeAll(sw);
        probeAgain(sw, null);
    }

    /** On the switch's I/O thread. */
    void switchRemoved(IOFSwitch sw) {
        store.switchRemoved(sw.getId(), nanoClock.getAsLong());
        listeners.deliver();
    }

    /** On the switch's I/O thread: a port that comes up is probed at once, one that goes takes its links. */
    void portStatus(IOFSwitch sw, OFPortStatus ps) {
        var p = ps.desc();
        if (!Prober.isPhysical(p.portNo())) {
            return;
        }
        if (ps.reason() == OFPortStatus.Reason.DELETE || p.isDown()) {
            store.portDown(sw.getId(), p.portNo());
        } else if (store.portUp(sw.getId(), p.portNo(), nanoClock.getAsLong())) {
            prober.probe(sw, p);
            probeAgain(sw, p.portNo());
        }
        listeners.deliver();
    }

    /**
     * Every probe interval: every port of every switch, on the switch's own I/O thread. A switch this component was
     * not told of (it connected while the component restarted) is taken in, one it was not told has left is dropped.
     */
    private void probeRound() {
        shared.checkKey();
        remote.dropStale(nanoClock.getAsLong());
        var connected = beacon.getSwitches();
        // Missing for two rounds: a switch that just reconnected (added on its I/O thread meanwhile) is not dropped.
        var missing = new HashSet<Long>();
        for (long dpid : store.view().switches().keySet()) {
            if (!connected.containsKey(dpid)) {
                missing.add(dpid);
                if (missingLastRound.contains(dpid)) {
                    store.switchRemoved(dpid, nanoClock.getAsLong());
                }
            }
        }
        missingLastRound = missing;
        listeners.deliver();
        for (var sw : connected.values()) {
            sw.execute(() -> {
                if (!sw.isConnected()) {
                    return;
                }
                if (store.view().switches().containsKey(sw.getId())) {
                    prober.probeAll(sw);
                } else {
                    switchAdded(sw);
                }
            });
        }
    }

    /**
     * Every liveness interval: the ports that end a known link, each from the side that sends, and the receiving end
     * of a link seen one way only (its own probe may have been the one lost).
     */
    private void probeLinks() {
        var bySwitch = new HashMap<Long, Set<Integer>>();
        var links = store.view().links();
        for (var l : links.keySet()) {
            bySwitch.computeIfAbsent(l.src().dpid(), k -> new HashSet<>()).add(l.src().port());
            if (!links.containsKey(l.reverse())) {
                bySwitch.computeIfAbsent(l.dst().dpid(), k -> new HashSet<>()).add(l.dst().port());
            }
        }
        var switches = beacon.getSwitches();
        bySwitch.forEach((dpid, ports) -> {
            var sw = switches.get(dpid);
            if (sw != null) {
                sw.execute(() -> ports.forEach(port -> prober.probePort(sw, port)));
            }
        });
    }

    /**
     * Links that timed out go, and their ends, in quarantine, are probed at once: a cable that is there comes back
     * before the quarantine ends. A switch this member has started to probe (it became its master) is probed at once,
     * and those of its ports whose link timed out and was not found again go back into quarantine: a master that froze
     * had stopped probing them, and past their first quarantine they were edge ports where cables are. Its other ports
     * keep flooding: after a planned migration, whose former master probed up to the hand-over, a host on the switch
     * stays reachable by broadcast.
     */
    private void expire() {
        long probeNow = shared.probeTime();
        liveness.tick(probeNow, store.view().links().keySet());
        long grace = liveness.graceNanos();
        var expired = store.expire(nanoClock.getAsLong(), times.linkTimeoutNanos(),
                l -> liveness.lost(l, probeNow, grace), times.domainTimeoutNanos());
        expired.domains().forEach(ProbeReceiver::domainFound);
        trackLostEnds(expired.ends());
        var switches = beacon.getSwitches();
        for (var sw : switches.values()) {
            boolean probing = sw.isMaster();
            var before = probes.put(sw.getId(), probing);
            if (probing && Boolean.FALSE.equals(before)) {
                var lost = lostEnds.stream().filter(end -> end.dpid() == sw.getId()).toList();
                if (!lost.isEmpty()) {
                    store.quarantine(lost, nanoClock.getAsLong());
                }
                sw.execute(() -> prober.probeAll(sw));
            } else if (!probing && Boolean.TRUE.equals(before)) {
                liveness.forget(sw.getId());
            }
        }
        probes.keySet().retainAll(switches.keySet());
        listeners.deliver();
        for (var end : expired.ends()) {
            var sw = switches.get(end.dpid());
            if (sw != null) {
                sw.execute(() -> prober.probePort(sw, end.port()));
            }
        }
    }

    /** Adds the ends of the links that just timed out; forgets those that end a link again or are no longer up. */
    private void trackLostEnds(Set<SwitchPort> justLost) {
        lostEnds.addAll(justLost);
        if (lostEnds.isEmpty()) {
            return;
        }
        var view = store.view();
        lostEnds.removeIf(end -> view.endsLink(end) || !view.hasPort(end));
    }

    /**
     * Halfway through the quarantine, the new switch's ports ({@code port} null) or the new port are probed once more:
     * one lost probe does not leave a link unseen when the quarantine ends.
     */
    private void probeAgain(IOFSwitch sw, Integer port) {
        if (times.quarantineNanos() == 0 || closed) {
            return;
        }
        scheduler.schedule(() -> sw.execute(() -> {
            if (closed || !sw.isConnected()) {
                return;
            }
            if (port == null) {
                prober.probeAll(sw);
            } else {
                prober.probePort(sw, port);
            }
        }), Duration.ofNanos(times.quarantineNanos() / 2));
    }
}
