package net.beaconcontroller.topology.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.core.BeaconListener;
import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.IScheduler;
import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.shared.WaitingForSwitch;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPortStatus;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.packet.Lldp;
import net.beaconcontroller.packet.PacketParseException;
import net.beaconcontroller.topology.DiscoveryCounters;
import net.beaconcontroller.util.Dpids;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.ITopologyListener;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;
import net.beaconcontroller.topology.internal.ProbeCodec.Verdict;

/**
 * LLDP link discovery, as in the Beacon paper: probes every port of every switch (when it is added, when a port comes
 * up, and every {@code topology.probeInterval} seconds); a probe that comes back as a PACKET_IN on another switch's
 * port is the directed link from where it was sent to where it arrived. Every LLDP PACKET_IN is consumed here, so
 * later listeners (device manager, routing, learning switch) never see one.
 *
 * <p>Threads: PACKET_IN, PORT_STATUS and switch events arrive on the switches' I/O threads, the periodic expiry and
 * probing on the scheduler thread; {@link TopologyStore} makes their updates safe and keeps reads lock-free. Probes of
 * a switch are always written on its own I/O thread.
 */
@Component(configurationPid = LinkDiscovery.NAME, configurationPolicy = ConfigurationPolicy.REQUIRE, immediate = true,
        service = {ITopology.class, IOFMessageListener.class, IOFSwitchListener.class})
@Designate(ocd = LinkDiscovery.Config.class)
@BeaconListener(types = {OFType.PACKET_IN, OFType.PORT_STATUS},
        before = {"devicemanager", "routing", "learningswitch", "hub"})
public final class LinkDiscovery implements ITopology, IOFMessageListener, IOFSwitchListener {
    /** Its listener name and the prefix of its keys. */
    public static final String NAME = "topology";
    private static final Logger log = LoggerFactory.getLogger(LinkDiscovery.class);
    /** Other members' links waiting for a switch here, at most: more are written again at their next probe. */
    private static final int MAX_WAITING = 100_000;

    @ObjectClassDefinition(name = "Topology", description = "LLDP link discovery.")
    public @interface Config {
        @AttributeDefinition(min = "1", max = "3600", description = "Seconds between two probes of every port of"
                + " every switch. Probes also go out when a switch connects and when a port comes up.")
        int probeInterval() default 5;

        @AttributeDefinition(min = "0", max = "60000", description = "Milliseconds between two probes of the ports"
                + " that end a known link, so that a link that fails silently (no PORT_STATUS) goes within the link"
                + " timeout. 0: those ports are probed every probeInterval like the others.")
        int livenessInterval() default 1000;

        @AttributeDefinition(min = "0", max = "86400", description = "Seconds a link stays without a probe"
                + " crossing it before it is removed; more than the interval its ports are probed at. 0: 2.5 x"
                + " livenessInterval, or 3 x probeInterval + 1 when livenessInterval is 0.")
        int linkTimeout() default 0;

        @AttributeDefinition(min = "0", max = "60000", description = "Milliseconds the ports of a newly connected"
                + " switch, and a port that came up, stay out of broadcasts while their probes come back (a new"
                + " cable may close a loop). The rest of the network keeps flooding meanwhile.")
        int quarantine() default 500;
    }

    private final IBeaconProvider beacon;
    private final LongSupplier nanoClock;
    private final Clock wallClock;
    private final long probeIntervalNanos;
    private final long linkTimeoutNanos;
    /** Broadcast-domain links go after this: their ports are probed every probe round, not every liveness interval. */
    private final long domainTimeoutNanos;
    private final Liveness liveness;
    /**
     * Links other members wrote whose ports this member did not know yet (a switch not added here yet, as after a
     * start), with when they came: tried again when a switch is added, dropped after the link timeout.
     */
    private final WaitingForSwitch<Link, Pending> waiting = new WaitingForSwitch<>(
            (was, now) -> now.came() - was.came() > 0 ? now : was, MAX_WAITING);

    private record Pending(Link link, Instant firstSeen, long came) { }
    private final TopologyStore store;
    private final ProbeCodec codec = new ProbeCodec();
    /** The links every member found; alone, this member's. */
    private final SharedLinks shared;
    private final Prober prober;
    private final List<ITopologyListener> listeners = new CopyOnWriteArrayList<>();
    private final IScheduler scheduler;
    private final long quarantineNanos;
    private final List<ScheduledFuture<?>> tasks = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    // The scheduler thread's: switches found missing on the last probe round; whether each switch was probed here
    // (not SLAVE) on the last expiry check.
    private Set<Long> missingLastRound = Set.of();
    private final Map<Long, Boolean> probes = new HashMap<>();
    private final LongAdder accepted = new LongAdder();
    private final Map<Verdict, LongAdder> rejected = Map.of(Verdict.MALFORMED, new LongAdder(), Verdict.FOREIGN,
            new LongAdder(), Verdict.FORGED, new LongAdder(), Verdict.STALE, new LongAdder());
    private final LongAdder unknownPort = new LongAdder();

    /**
     * Joining or leaving a cluster restarts discovery (the shared state is a static reference): it then signs probes
     * with the cluster's key and time, which probes already in flight would not verify against anyway.
     */
    @Activate
    public LinkDiscovery(@Reference IBeaconProvider beacon, @Reference IScheduler scheduler,
            @Reference(cardinality = ReferenceCardinality.OPTIONAL, policyOption = ReferencePolicyOption.GREEDY)
            ISharedState cluster, Config config) {
        this(beacon, scheduler, config, System::nanoTime, Clock.systemUTC(), cluster);
    }

    /** With the clocks given (tests move time by hand) and the cluster's shared state, or {@code null}. */
    LinkDiscovery(IBeaconProvider beacon, IScheduler scheduler, Config config, LongSupplier nanoClock,
            Clock wallClock, ISharedState cluster) {
        this.beacon = beacon;
        this.nanoClock = nanoClock;
        this.wallClock = wallClock;
        int interval = config.probeInterval();
        long liveness = TimeUnit.MILLISECONDS.toNanos(config.livenessInterval());
        probeIntervalNanos = TimeUnit.SECONDS.toNanos(interval);
        // Known links are refreshed by the liveness probes when there are any, else by every round's.
        long refresh = liveness > 0 ? Math.min(liveness, probeIntervalNanos) : probeIntervalNanos;
        linkTimeoutNanos = config.linkTimeout() > 0 ? TimeUnit.SECONDS.toNanos(config.linkTimeout())
                : liveness > 0 ? refresh * 5 / 2 : probeIntervalNanos * 3 + TimeUnit.SECONDS.toNanos(1);
        domainTimeoutNanos = Math.max(linkTimeoutNanos, probeIntervalNanos * 3 + TimeUnit.SECONDS.toNanos(1));
        if (linkTimeoutNanos <= refresh) {
            throw new SettingException(NAME + ".linkTimeout", Integer.toString(config.linkTimeout()),
                    "expected more than the " + refresh / 1_000_000 + " ms between probes of a link's ports, or 0");
        }
        // With fast round trips a link goes when the clock alone would have it go: two probes after the last one
        // back, then the rest of the timeout.
        this.liveness = new Liveness(Math.max(linkTimeoutNanos - 2 * refresh, TimeUnit.MILLISECONDS.toNanos(100)),
                linkTimeoutNanos, 2 * linkTimeoutNanos);
        quarantineNanos = TimeUnit.MILLISECONDS.toNanos(config.quarantine());
        // Often enough that a link goes at most a quarter of a refresh interval after its timeout.
        var expiry = Duration.ofNanos(Math.max(refresh / 4, TimeUnit.MILLISECONDS.toNanos(50)));
        store = new TopologyStore(quarantineNanos, 2 * expiry.toNanos());
        shared = new SharedLinks(cluster, codec, nanoClock, Duration.ofNanos(linkTimeoutNanos), this::sharedLinkSeen);
        prober = new Prober(store, codec, shared, this.liveness);
        this.scheduler = scheduler;
        tasks.add(scheduler.scheduleAtFixedRate(this::probeRound, Duration.ofNanos(probeIntervalNanos),
                Duration.ofNanos(probeIntervalNanos)));
        if (liveness > 0 && liveness < probeIntervalNanos) {
            tasks.add(scheduler.scheduleAtFixedRate(this::probeLinks, Duration.ofNanos(liveness),
                    Duration.ofNanos(liveness)));
        }
        tasks.add(scheduler.scheduleAtFixedRate(this::expire, expiry, expiry));
    }

    @Deactivate
    void deactivate() {
        closed = true;
        tasks.forEach(t -> t.cancel(false));
        shared.close();
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addListener(ITopologyListener listener) {
        listeners.add(listener);
        // It may have read getLinks() before it was registered: the links that came in between would be lost to it.
        store.replayTo(listener);
        deliver();
    }

    void removeListener(ITopologyListener listener) {
        listeners.remove(listener);
    }

    @Override
    public String getName() {
        return NAME;
    }

    // ------------------------------------------------------------------------------------------- events in

    @Override
    public void addedSwitch(IOFSwitch sw) {
        var up = new HashSet<Integer>();
        for (var p : sw.getPorts()) {
            if (Prober.isProbed(p)) {
                up.add(p.portNo());
            }
        }
        long dpid = sw.getId();
        store.switchAdded(dpid, up, nanoClock.getAsLong());
        // Taken out first: one whose other end is not here yet goes back in.
        waiting.take(dpid).forEach(p -> sharedLinkSeen(p.link(), p.firstSeen()));
        deliver();
        prober.probeAll(sw);
        probeAgain(sw, null);
    }

    @Override
    public void removedSwitch(IOFSwitch sw) {
        store.switchRemoved(sw.getId(), nanoClock.getAsLong());
        deliver();
    }

    @Override
    public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
        if (msg instanceof OFPacketIn pi) {
            var frame = ctx.frame();
            if (!frame.isEthernet() || !ProbeFrames.isProbe(frame)) {
                return Command.CONTINUE;
            }
            probeReceived(sw, pi.inPort(), frame);
            return Command.STOP;
        }
        if (msg instanceof OFPortStatus ps) {
            portStatus(sw, ps);
        }
        return Command.CONTINUE;
    }

    private void portStatus(IOFSwitch sw, OFPortStatus ps) {
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
        deliver();
    }

    /**
     * An LLDP or BDDP frame arrived at {@code inPort} of {@code sw}: a link, or a broadcast-domain link, if it is one
     * of our fresh probes.
     */
    private void probeReceived(IOFSwitch sw, int inPort, Frame frame) {
        Lldp lldp;
        try {
            lldp = ProbeFrames.lldpdu(frame);
            if (lldp == null) {
                ignore(Verdict.MALFORMED, sw, inPort, "not an LLDPDU");
                return;
            }
        } catch (PacketParseException e) {
            ignore(Verdict.MALFORMED, sw, inPort, e.getMessage());
            return;
        }
        long now = nanoClock.getAsLong();
        long probeNow = shared.probeTime();
        var r = codec.verify(lldp, probeNow, probeIntervalNanos, shared.skewNanos());
        if (r.verdict() != Verdict.VALID) {
            ignore(r.verdict(), sw, inPort, r.why());
            return;
        }
        if (!Prober.isPhysical(inPort) || !Prober.isPhysical(r.port())
                || (r.dpid() == sw.getId() && r.port() == inPort)) {
            unknownPort(sw, inPort, r);
            return;
        }
        var link = new Link(new SwitchPort(r.dpid(), r.port()), new SwitchPort(sw.getId(), inPort));
        if (ProbeFrames.isBddp(frame)) {
            domainProbeReceived(sw, inPort, link, r, now);
            return;
        }
        // In milliseconds: what the members of a cluster share, so that they all show the same time.
        var firstSeen = wallClock.instant().truncatedTo(ChronoUnit.MILLIS);
        var seen = store.linkSeen(link, now, firstSeen);
        if (seen == TopologyStore.Seen.UNKNOWN_PORT) {
            unknownPort(sw, inPort, r);
            return;
        }
        accepted.increment();
        liveness.cameBack(link, r.sent(), probeNow);
        shared.seen(link, store.view().links().getOrDefault(link, firstSeen));
        if (seen == TopologyStore.Seen.NEW) {
            deliver();
            // Ask for the other direction now rather than at the next round: the cable becomes usable sooner.
            var back = sw.getPort(inPort);
            if (back != null && !store.view().links().containsKey(link.reverse())) {
                prober.probe(sw, back);
            }
        }
    }

    /**
     * A BDDP probe crossed {@code link}: unmanaged bridges in between, unless an LLDP link ends at either port (then it
     * took the cable). Not shared with the other members of a cluster: each knows the domains at the switches it
     * masters.
     */
    private void domainProbeReceived(IOFSwitch sw, int inPort, Link link, ProbeCodec.Result r, long now) {
        switch (store.domainLinkSeen(link, now)) {
            case NEW -> {
                accepted.increment();
                domainFound(link);
            }
            case REFRESHED -> accepted.increment();
            case UNKNOWN_PORT -> unknownPort(sw, inPort, r);
            case DIRECT -> log.trace("BDDP across the LLDP link at {}: no broadcast domain", link);
            case EARLY -> {
                accepted.increment();
                log.trace("BDDP across {} while in quarantine: judged when it ends", link);
            }
        }
    }

    private static void domainFound(Link link) {
        log.info("broadcast domain {}: switches Beacon does not manage bridge these ports", link);
    }

    /** Another member wrote that a probe crossed {@code link}. */
    private void sharedLinkSeen(Link link, Instant firstSeen) {
        long now = nanoClock.getAsLong();
        switch (store.linkSeen(link, now, firstSeen)) {
            case NEW -> deliver();
            case UNKNOWN_PORT -> waiting.park(link, new Pending(link, firstSeen, now), link.src().dpid(),
                    link.dst().dpid());
            case REFRESHED -> { }
        }
    }

    private void ignore(Verdict why, IOFSwitch sw, int inPort, String detail) {
        rejected.get(why).increment();
        log.debug("LLDP at {}/{} ignored ({}): {}", sw.getStringId(), inPort, why, detail);
    }

    private void unknownPort(IOFSwitch sw, int inPort, ProbeCodec.Result r) {
        unknownPort.increment();
        log.debug("probe sent from {}/{} at {}/{} ignored: not between two ports that are up",
                Dpids.toString(r.dpid()), r.port(), sw.getStringId(), inPort);
    }

    /**
     * Every probe interval: every port of every switch, on the switch's own I/O thread. A switch this component was
     * not told of (it connected while the component restarted) is taken in, one it was not told has left is dropped.
     */
    private void probeRound() {
        shared.checkKey();
        long now = nanoClock.getAsLong();
        waiting.drop(p -> now - p.came() > linkTimeoutNanos);
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
        deliver();
        for (var sw : connected.values()) {
            sw.execute(() -> {
                if (!sw.isConnected()) {
                    return;
                }
                if (store.view().switches().containsKey(sw.getId())) {
                    prober.probeAll(sw);
                } else {
                    addedSwitch(sw);
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
     * before the quarantine ends. A switch this member has started to probe (it became its master) has its ports
     * quarantined and probed: the links found by its former master may have timed out meanwhile.
     */
    private void expire() {
        long probeNow = shared.probeTime();
        liveness.tick(probeNow, store.view().links().keySet());
        long grace = liveness.graceNanos();
        var expired = store.expire(nanoClock.getAsLong(), linkTimeoutNanos, l -> liveness.lost(l, probeNow, grace),
                domainTimeoutNanos);
        expired.domains().forEach(LinkDiscovery::domainFound);
        var switches = beacon.getSwitches();
        for (var sw : switches.values()) {
            boolean probing = sw.isMaster();
            var before = probes.put(sw.getId(), probing);
            if (probing && Boolean.FALSE.equals(before)) {
                store.quarantine(sw.getId(), nanoClock.getAsLong());
                sw.execute(() -> prober.probeAll(sw));
            } else if (!probing && Boolean.TRUE.equals(before)) {
                liveness.forget(sw.getId());
            }
        }
        probes.keySet().retainAll(switches.keySet());
        deliver();
        for (var end : expired.ends()) {
            var sw = switches.get(end.dpid());
            if (sw != null) {
                sw.execute(() -> prober.probePort(sw, end.port()));
            }
        }
    }

    /**
     * Halfway through the quarantine, the new switch's ports ({@code port} null) or the new port are probed once more:
     * one lost probe does not leave a link unseen when the quarantine ends.
     */
    private void probeAgain(IOFSwitch sw, Integer port) {
        if (quarantineNanos == 0 || closed) {
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
        }), Duration.ofNanos(quarantineNanos / 2));
    }

    // ------------------------------------------------------------------------------------------- listeners out

    private void deliver() {
        store.drain(change -> {
            for (var l : listeners) {
                if (change.only() != null && change.only() != l) {
                    continue;
                }
                try {
                    if (change.added()) {
                        l.linkAdded(change.link());
                    } else {
                        l.linkRemoved(change.link());
                    }
                } catch (RuntimeException e) {
                    log.warn("topology listener {} failed on {} {}", l, change.added() ? "linkAdded" : "linkRemoved",
                            change.link(), e);
                }
            }
        });
    }

    // ------------------------------------------------------------------------------------------- ITopology

    @Override
    public Map<Link, Instant> getLinks() {
        return store.view().links();
    }

    @Override
    public boolean isEdgePort(long dpid, int port) {
        return store.view().isEdgePort(dpid, port);
    }

    @Override
    public boolean isBroadcastDomainPort(long dpid, int port) {
        return Prober.isPhysical(port) && store.view().isDomainPort(new SwitchPort(dpid, port));
    }

    @Override
    public boolean inSameBroadcastDomain(SwitchPort a, SwitchPort b) {
        return store.view().inOneDomain(a, b);
    }

    @Override
    public Set<Link> getBroadcastDomainLinks() {
        return store.view().domainLinks();
    }

    @Override
    public Set<Set<Long>> getIslands() {
        return store.view().islands();
    }

    @Override
    public Set<Integer> getBroadcastPorts(long dpid) {
        return store.view().broadcastPorts(dpid, nanoClock.getAsLong());
    }

    @Override
    public boolean isSettled() {
        return store.view().isSettled(nanoClock.getAsLong());
    }

    @Override
    public Set<SwitchPort> getQuarantinedPorts() {
        return store.view().quarantined(nanoClock.getAsLong());
    }

    @Override
    public boolean isQuarantined(SwitchPort port) {
        return store.view().isQuarantined(port, nanoClock.getAsLong());
    }

    @Override
    public DiscoveryCounters getDiscoveryCounters() {
        return new DiscoveryCounters(prober.sent(), accepted.sum(), rejected.get(Verdict.MALFORMED).sum(),
                rejected.get(Verdict.FOREIGN).sum(), rejected.get(Verdict.FORGED).sum(),
                rejected.get(Verdict.STALE).sum(), unknownPort.sum());
    }
}
