package net.beaconcontroller.devicemanager.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

import net.beaconcontroller.core.BeaconListener;
import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.IScheduler;
import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.shared.Sharing;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.DeviceCounters;
import net.beaconcontroller.devicemanager.IDeviceListener;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.ITopologyListener;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;
import net.beaconcontroller.util.CoarseClock;

/**
 * The device manager of the Beacon paper: learns hosts (MAC and VLAN, IPv4 addresses, the edge port they attach to)
 * from every PACKET_IN, hands routing the source and destination hosts through the message context, and forgets hosts
 * that went quiet, whose switch left, or whose port turned out to be an inter-switch link. It writes nothing to the
 * switches: routing, one of its listeners, deletes the flows that a move or such a removal leaves wrong.
 *
 * <p>Threads: PACKET_INs and switch events arrive on the I/O threads, link events on the topology's, aging on the
 * scheduler's; all state is in the {@link DeviceStore} (see there for how it stays consistent). A known host whose
 * record did not change costs one map read: its record is replaced at most once a second to move its last-seen time.
 * Listeners are told after the store shows a change, outside its locks, on the thread that made it; two changes to
 * one host made at the same moment on two threads may be told in either order (each event carries both records, and
 * the store holds the later one).
 *
 * <p>The component keeps only what OSGi hands it (references, configuration, the aging schedule) and answers the
 * services by delegation, so that each protocol it speaks can be read and changed alone: {@link HostLearning}
 * (PACKET_INs), {@link DeviceSharing} (the cluster's records), {@link DeviceRemoval} (switches leaving, new links,
 * aging), {@link DeviceEvents} (the listeners); the look-ups read the {@link DeviceStore} without locks on the
 * caller's thread. The console command is {@link DeviceCommands}'.
 */
@Component(configurationPid = DeviceManager.NAME, configurationPolicy = ConfigurationPolicy.REQUIRE,
        service = {IDeviceManager.class, IOFMessageListener.class, IOFSwitchListener.class, ITopologyListener.class})
@Designate(ocd = DeviceManager.Config.class)
@BeaconListener(types = OFType.PACKET_IN, after = "topology", before = {"routing", "learningswitch"})
public final class DeviceManager implements IDeviceManager, IOFMessageListener, IOFSwitchListener, ITopologyListener {
    /** Its listener name and the prefix of its keys. */
    public static final String NAME = "devicemanager";

    @ObjectClassDefinition(name = "Device manager", description = "The hosts seen: MAC and VLAN, IPv4 addresses,"
            + " attachment point, last seen.")
    public @interface Config {
        @AttributeDefinition(min = "1", max = "86400", description = "Seconds a host is kept without being seen.")
        int idleTimeout() default 300;

        @AttributeDefinition(min = "1", max = "100000", description = "Moves to another port a host may make per"
                + " minute; further moves in that minute are ignored and logged as flapping.")
        int maxMovesPerMinute() default 30;

        @AttributeDefinition(min = "1", max = "1024", description = "Most IPv4 addresses kept per host; further"
                + " ones (e.g. the sources a router forwards with its own MAC) are ignored.")
        int maxIpsPerDevice() default 16;
    }

    private final DeviceStore store = new DeviceStore();
    private final IScheduler scheduler;
    private final LongSupplier epochSeconds;
    private final DeviceEvents events = new DeviceEvents();
    private final DeviceRemoval removal = new DeviceRemoval(store, events);
    private final DeviceSharing sharing;
    private final HostLearning learning;
    /** Read per packet, replaced whole by {@link #modified}. */
    private volatile Config config;
    private ScheduledFuture<?> sweep;

    /** Joining or leaving a cluster restarts it (the shared state is a static reference). */
    @Activate
    public DeviceManager(@Reference ITopology topology, @Reference IScheduler scheduler,
            @Reference(cardinality = ReferenceCardinality.OPTIONAL, policyOption = ReferencePolicyOption.GREEDY)
            ISharedState cluster, Config config) {
        // In a cluster the members compare hosts' last-seen times: the cluster's clock, not this machine's.
        this(topology, scheduler, config, coarseEpochSeconds(Sharing.of(cluster).clusterTimeMillis()
                - System.currentTimeMillis()), cluster);
    }

    /** With the clock (epoch seconds) of a test, and the cluster's shared state or {@code null}. */
    DeviceManager(ITopology topology, IScheduler scheduler, Config config, LongSupplier epochSeconds,
            ISharedState cluster) {
        this.scheduler = scheduler;
        this.epochSeconds = epochSeconds;
        this.config = config;
        sharing = new DeviceSharing(cluster, store, topology, epochSeconds, () -> this.config, events);
        learning = new HostLearning(store, topology, epochSeconds, () -> this.config, sharing, events);
        scheduleSweep();
    }

    /**
     * Epoch seconds, {@code offsetMillis} from the system clock, for the price of a volatile read: the system clock
     * once, then {@link CoarseClock}.
     */
    private static LongSupplier coarseEpochSeconds(long offsetMillis) {
        long origin = (System.currentTimeMillis() + offsetMillis) / 1000 - CoarseClock.seconds();
        return () -> origin + CoarseClock.seconds();
    }

    @Modified
    synchronized void modified(Config next) {
        config = next;
        sweep.cancel(false);
        scheduleSweep();
    }

    @Deactivate
    synchronized void deactivate() {
        sweep.cancel(false);
        sharing.close();
    }

    private synchronized void scheduleSweep() {
        var period = Duration.ofSeconds(refreshSeconds(config));
        sweep = scheduler.scheduleAtFixedRate(this::ageOut, period, period);
    }

    /**
     * How often hosts are aged out, so that one outlives its timeout by at most a tenth of it (or 30 s); and how
     * stale the last-seen time of a host another member learned may be here, so that it is not aged out early.
     */
    static long refreshSeconds(Config c) {
        return Math.min(30, Math.max(1, c.idleTimeout() / 10));
    }

    /** On the scheduler's thread: the waiting records of other members first, as they may place hosts again. */
    private void ageOut() {
        long oldest = epochSeconds.getAsLong() - config.idleTimeout();
        Predicate<Device> idle = d -> d.lastSeen().getEpochSecond() <= oldest;
        sharing.retryWaiting(idle);
        removal.ageOut(idle);
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addListener(IDeviceListener listener) {
        events.add(listener);
    }

    void removeListener(IDeviceListener listener) {
        events.remove(listener);
    }

    @Override
    public String getName() {
        return NAME;
    }

    // ------------------------------------------------------------------------------------------------ events

    @Override
    public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
        if (msg instanceof OFPacketIn pi) {
            learning.packetIn(sw.getId(), pi.inPort(), ctx);
        }
        return Command.CONTINUE;
    }

    /** Its hosts are learned from its PACKET_INs, and in a cluster from the records other members wrote. */
    @Override
    public void addedSwitch(IOFSwitch sw) {
        sharing.switchAdded(sw);
    }

    @Override
    public void removedSwitch(IOFSwitch sw) {
        removal.switchRemoved(sw.getId());
    }

    @Override
    public void linkAdded(Link link) {
        removal.linkAdded(link);
    }

    @Override
    public void linkRemoved(Link link) {
        // The ports become edge ports: hosts behind them are learned from their next frame.
    }

    // ------------------------------------------------------------------------------------------------ reading

    @Override
    public Collection<Device> getDevices() {
        return store.all();
    }

    @Override
    public Optional<Device> getDevice(long mac, int vlan) {
        return Optional.ofNullable(store.get(mac, vlan)).map(Tracked::device);
    }

    @Override
    public Collection<Device> getDevicesByMac(long mac) {
        return store.withMac(mac);
    }

    @Override
    public Collection<Device> getDevicesByIpv4(int ipv4) {
        return store.withIp(ipv4);
    }

    @Override
    public Collection<Device> getDevicesAt(SwitchPort port) {
        return store.at(port);
    }

    @Override
    public Collection<Device> getDevicesOn(long dpid) {
        return store.on(dpid);
    }

    @Override
    public DeviceCounters getCounters() {
        return new DeviceCounters(learning.malformedArp(), learning.malformedDhcp(), events.moves(),
                learning.movesSuppressed(), removal.agedOut());
    }

    /** Package-private for tests: whether every index agrees with the hosts' records. */
    List<String> inconsistencies() {
        return store.inconsistencies();
    }

    @Override
    public String toString() {
        return NAME + "[" + store.size() + " devices]";
    }
}
