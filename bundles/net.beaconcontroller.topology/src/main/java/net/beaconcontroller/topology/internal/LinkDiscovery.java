package net.beaconcontroller.topology.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
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

import net.beaconcontroller.core.BeaconListener;
import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.IScheduler;
import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPortStatus;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.topology.DiscoveryCounters;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.ITopologyListener;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * LLDP link discovery, as in the Beacon paper: probes every port of every switch (when it is added, when a port comes
 * up, and every {@code topology.probeInterval} seconds); a probe that comes back as a PACKET_IN on another switch's
 * port is the directed link from where it was sent to where it arrived. Every LLDP PACKET_IN is consumed here, so
 * later listeners (device manager, routing, learning switch) never see one.
 *
 * <p>This is the component: it wires the parts and is the services they make up. {@link ProbeReceiver} judges the
 * probes that come back, {@link ProbeScheduler} decides when ports are probed and links expire, {@link Prober} writes
 * the probes, {@link RemoteLinks} takes in the links the other members of a cluster found, {@link TopologyListeners}
 * tells the listeners, and {@link TopologyStore} holds the topology the {@link ITopology} reads see.
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

    private final LongSupplier nanoClock;
    private final TopologyStore store;
    /** A field, not a local: the benchmarks read it (cbench-scripts/jmh TopologyHarness) to make probes it verifies. */
    private final ProbeCodec codec = new ProbeCodec();
    /** The links every member found; alone, this member's. */
    private final SharedLinks shared;
    private final Prober prober;
    private final TopologyListeners listeners;
    private final ProbeReceiver receiver;
    private final ProbeScheduler probing;

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
        this.nanoClock = nanoClock;
        var times = DiscoveryTimes.of(config);
        long linkTimeout = times.linkTimeoutNanos();
        // With fast round trips a link goes when the clock alone would have it go: two probes after the last one
        // back, then the rest of the timeout.
        var liveness = new Liveness(Math.max(linkTimeout - 2 * times.refreshNanos(),
                TimeUnit.MILLISECONDS.toNanos(100)), linkTimeout, 2 * linkTimeout);
        store = new TopologyStore(times.quarantineNanos(), 2 * times.expiry().toNanos());
        listeners = new TopologyListeners(store);
        var remote = new RemoteLinks(store, listeners, nanoClock, linkTimeout);
        shared = new SharedLinks(cluster, codec, nanoClock, Duration.ofNanos(linkTimeout), remote::seen);
        prober = new Prober(store, codec, shared, liveness);
        receiver = new ProbeReceiver(store, codec, shared, liveness, prober, listeners, nanoClock, wallClock,
                times.probeIntervalNanos());
        probing = new ProbeScheduler(beacon, scheduler, times, nanoClock, store, prober, liveness, shared, remote,
                listeners);
    }

    @Deactivate
    void deactivate() {
        probing.close();
        shared.close();
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addListener(ITopologyListener listener) {
        listeners.add(listener);
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
        probing.switchAdded(sw);
    }

    @Override
    public void removedSwitch(IOFSwitch sw) {
        probing.switchRemoved(sw);
    }

    @Override
    public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
        if (msg instanceof OFPacketIn pi) {
            var frame = ctx.frame();
            if (!frame.isEthernet() || !ProbeFrames.isProbe(frame)) {
                return Command.CONTINUE;
            }
            receiver.received(sw, pi.inPort(), frame);
            return Command.STOP;
        }
        if (msg instanceof OFPortStatus ps) {
            probing.portStatus(sw, ps);
        }
        return Command.CONTINUE;
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
        return receiver.counters(prober.sent());
    }
}
