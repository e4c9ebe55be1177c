package net.beaconcontroller.devicemanager.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.BeaconListener;
import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.IScheduler;
import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.shared.SharedKeys;
import net.beaconcontroller.core.shared.SharedTable;
import net.beaconcontroller.core.shared.SharedTable.Change;
import net.beaconcontroller.core.shared.Sharing;
import net.beaconcontroller.core.shared.WaitingForSwitch;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.DeviceCounters;
import net.beaconcontroller.devicemanager.IDeviceListener;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.packet.Arp;
import net.beaconcontroller.packet.Dhcp;
import net.beaconcontroller.packet.Ethernet;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.packet.PacketParseException;
import net.beaconcontroller.packet.Udp;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.ITopologyListener;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;
import net.beaconcontroller.util.CoarseClock;
import net.beaconcontroller.util.MacAddress;

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
 */
@Component(configurationPid = DeviceManager.NAME, configurationPolicy = ConfigurationPolicy.REQUIRE,
        service = {IDeviceManager.class, IOFMessageListener.class, IOFSwitchListener.class, ITopologyListener.class},
        property = {"osgi.command.scope=beacon", "osgi.command.function=devices"})
@Designate(ocd = DeviceManager.Config.class)
@BeaconListener(types = OFType.PACKET_IN, after = "topology", before = {"routing", "learningswitch"})
public final class DeviceManager implements IDeviceManager, IOFMessageListener, IOFSwitchListener, ITopologyListener {
    /** Its listener name and the prefix of its keys. */
    public static final String NAME = "devicemanager";
    private static final Logger log = LoggerFactory.getLogger(DeviceManager.class);
    private static final long MOVE_WINDOW_SECONDS = 60;
    private static final long FLAP_LOG_INTERVAL_SECONDS = 10;
    /** How recently a host must have been seen at its place for a frame at a port in quarantine not to move it. */
    private static final long COPY_WINDOW_SECONDS = 1;
    /** Other members' records waiting for their switch here, at most: more are written again soon. */
    private static final int MAX_WAITING = 100_000;

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

    private final ITopology topology;
    private final IScheduler scheduler;
    private final LongSupplier epochSeconds;
    private final DeviceStore store = new DeviceStore();
    private final List<IDeviceListener> listeners = new CopyOnWriteArrayList<>();
    private final LongAdder malformedArp = new LongAdder();
    private final LongAdder malformedDhcp = new LongAdder();
    private final LongAdder moves = new LongAdder();
    private final LongAdder movesSuppressed = new LongAdder();
    private final LongAdder agedOut = new LongAdder();
    private final AtomicLong nextFlapLog = new AtomicLong();
    /** Read per packet, replaced whole by {@link #modified}. */
    private volatile Config config;
    private ScheduledFuture<?> sweep;
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
        this.topology = topology;
        this.scheduler = scheduler;
        this.epochSeconds = epochSeconds;
        this.config = config;
        scheduleSweep();
        shared = SharedTable.open(cluster, SharedDevices.TABLE, SharedKeys.HEX, SharedDevices.CODEC);
        self = shared.writer();
        shared.subscribe(this::sharedDeviceSeen);
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
        shared.close();
    }

    private synchronized void scheduleSweep() {
        var period = Duration.ofSeconds(refreshSeconds(config));
        sweep = scheduler.scheduleAtFixedRate(this::ageOut, period, period);
    }

    /**
     * How often hosts are aged out, so that one outlives its timeout by at most a tenth of it (or 30 s); and how
     * stale the last-seen time of a host another member learned may be here, so that it is not aged out early.
     */
    private static long refreshSeconds(Config c) {
        return Math.min(30, Math.max(1, c.idleTimeout() / 10));
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addListener(IDeviceListener listener) {
        listeners.add(listener);
    }

    void removeListener(IDeviceListener listener) {
        listeners.remove(listener);
    }

    @Override
    public String getName() {
        return NAME;
    }

    // ------------------------------------------------------------------------------------------------ learning

    @Override
    public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
        if (msg instanceof OFPacketIn pi) {
            packetIn(sw.getId(), pi.inPort(), ctx);
        }
        return Command.CONTINUE;
    }

    private void packetIn(long dpid, int inPort, MessageContext ctx) {
        Frame frame = ctx.frame();
        if (!frame.isEthernet()) {
            return;
        }
        long src = frame.dlSrc();
        int vlan = frame.vlanId();
        int srcIp = 0;
        Dhcp ack = null;
        if (frame.etherType() == Ethernet.TYPE_ARP) {
            if (!frame.isArp() || (frame.arpOpcode() != Arp.REQUEST && frame.arpOpcode() != Arp.REPLY)) {
                malformedArp.increment();
                log.debug("{}/{}: ARP ignored, not a request or reply for Ethernet/IPv4: {}", dpid, inPort, frame);
                return;
            }
            // A proxy answering for another host sends its own MAC in the frame but the other's in the message.
            srcIp = frame.arpSenderMac() == src ? frame.arpSenderIp() : 0;
        } else if (frame.isIpv4()) {
            srcIp = frame.ipv4Src();
            if (frame.isDhcp()) {
                try {
                    ack = dhcpAck(frame);
                } catch (PacketParseException e) {
                    malformedDhcp.increment();
                    log.debug("{}/{}: DHCP ignored: {}", dpid, inPort, e.getMessage());
                    return;
                }
            }
        }
        Device srcDevice = MacAddress.isMulticast(src) ? null : learn(src, vlan, dpid, inPort, hostIp(srcIp));
        if (ack != null) {
            learnIp(ack.clientMac(), vlan, ack.yiaddr());
        }
        if (srcDevice != null) {
            ctx.put(SRC_DEVICE, srcDevice);
        }
        Device dstDevice = destination(frame, vlan);
        if (dstDevice != null) {
            ctx.put(DST_DEVICE, dstDevice);
        }
    }

    /** The DHCP ACK in the frame, with an address for an Ethernet client, or {@code null}. */
    private static Dhcp dhcpAck(Frame frame) throws PacketParseException {
        var message = frame.buffer().duplicate().limit(frame.offset() + frame.length());
        int start = frame.l4Offset() + Udp.HEADER_LENGTH;
        if (start > message.limit()) {
            throw new PacketParseException("DHCP datagram cut before the UDP payload");
        }
        var dhcp = Dhcp.parse(message.position(start));
        boolean ack = dhcp.op() == Dhcp.BOOT_REPLY && dhcp.messageType().orElse(0) == Dhcp.ACK;
        return ack && dhcp.htype() == 1 && dhcp.hlen() == 6 && hostIp(dhcp.yiaddr()) != 0
                && !MacAddress.isMulticast(dhcp.clientMac()) ? dhcp : null;
    }

    /** {@code ip} when a host can own it, 0 for 0.0.0.0 (a probe or a client without an address yet), multicast or broadcast. */
    private static int hostIp(int ip) {
        return ip == 0 || ip == -1 || (ip >>> 28) == 0xe ? 0 : ip;
    }

    private Device destination(Frame frame, int vlan) {
        long dst = frame.dlDst();
        if (!MacAddress.isMulticast(dst)) {
            Tracked t = store.get(dst, vlan);
            return t == null ? null : t.device();
        }
        if (frame.isBroadcast() && frame.isArp() && frame.arpOpcode() == Arp.REQUEST) {
            return store.find(frame.arpTargetIp(), vlan);
        }
        return null;
    }

    /** The host after this frame from it; {@code null} when unknown and not on an edge port. */
    private Device learn(long mac, int vlan, long dpid, int inPort, int ip) {
        boolean edge = OFPort.isPhysical(inPort) && topology.isEdgePort(dpid, inPort);
        long now = epochSeconds.getAsLong();
        Tracked known = store.get(mac, vlan);
        if (known == null && !edge) {
            return null;
        }
        if (known != null) {
            Device d = known.device();
            SwitchPort at = d.attachment();
            if ((!edge || at.dpid() == dpid && at.port() == inPort) && (ip == 0 || d.ipv4().contains(ip))
                    && d.lastSeen().getEpochSecond() >= now) {
                return d;
            }
            if (edge && (at.dpid() != dpid || at.port() != inPort) && (isCopy(d, new SwitchPort(dpid, inPort), now)
                    || isBehindBridges(d, dpid, inPort))) {
                return d;
            }
        }
        SwitchPort seenAt = edge ? new SwitchPort(dpid, inPort) : null;
        var maxMoves = config.maxMovesPerMinute();
        var change = store.update(mac, vlan, old -> seen(old, mac, vlan, seenAt, ip, now, maxMoves));
        if (seenAt != null && change.after() != null && !seenAt.equals(change.after().attachment())) {
            flapping(change.after(), seenAt, now);
        }
        tell(change, true);
        share(change);
        return change.after();
    }

    /**
     * Whether a frame of {@code d} at {@code here}, another port than its place, is more likely a copy of one of its
     * frames than the host itself: {@code here} is in quarantine, so it may face a link discovery has not found yet (a
     * switch that just connected, Beacon just restarted), over which flooded copies arrive, while the host spoke at
     * its place, still up, a moment ago. Such a copy would move the host behind a link, where routing then drops its
     * traffic with flows that this very traffic keeps alive. A host that really moved there is moved by its next
     * frame once the port leaves quarantine ({@code topology.quarantine}, 500 ms) or the moment its old port goes.
     */
    private boolean isCopy(Device d, SwitchPort here, long now) {
        SwitchPort at = d.attachment();
        boolean copy = d.lastSeen().getEpochSecond() >= now - COPY_WINDOW_SECONDS && topology.isQuarantined(here)
                && topology.isEdgePort(at.dpid(), at.port());
        if (copy) {
            log.debug("{} at {}, in quarantine, a moment after it spoke at {}: taken for a copy, not a move", d, here,
                    at);
        }
        return copy;
    }

    /**
     * Whether a frame of {@code d} at port {@code inPort} of {@code dpid}, another port than its place, is taken for
     * a copy that came round through bridges Beacon does not manage: the port is a broadcast-domain port and the
     * host's place is still an edge port. Bridges flood a broadcast to every port of their domain, and also deliver
     * frames sent into them at one port of ours out of another: taken for the host, such a copy would place it behind
     * the bridges and send its traffic round them. So a host is placed at such a port only when it is known at no
     * other (the hosts behind the bridges), and one that really moved there is moved when its old port goes or the
     * host ages out ({@code idleTimeout}).
     */
    private boolean isBehindBridges(Device d, long dpid, int inPort) {
        var at = d.attachment();
        return topology.isBroadcastDomainPort(dpid, inPort) && topology.isEdgePort(at.dpid(), at.port());
    }

    /** The entry of a host after a frame from {@code seenAt} ({@code null}: not an edge port) at {@code now}. */
    private Tracked seen(Tracked old, long mac, int vlan, SwitchPort seenAt, int ip, long now, int maxMoves) {
        if (old == null) {
            if (seenAt == null) {
                return null;
            }
            var t = Instant.ofEpochSecond(now);
            var ips = ip == 0 ? Set.<Integer>of() : Set.of(ip);
            return new Tracked(new Device(mac, vlan, ips, seenAt, t, t), now, 0, self, 1);
        }
        Device d = old.device();
        SwitchPort at = d.attachment();
        long windowStart = old.windowStart();
        int movesInWindow = old.moves();
        if (seenAt != null && !seenAt.equals(at)) {
            if (now - windowStart >= MOVE_WINDOW_SECONDS) {
                windowStart = now;
                movesInWindow = 0;
            }
            if (movesInWindow < maxMoves) {
                at = seenAt;
                movesInWindow++;
            }
        }
        Set<Integer> ips = withIp(d.ipv4(), ip);
        boolean later = d.lastSeen().getEpochSecond() < now;
        if (at == d.attachment() && ips == d.ipv4() && !later && windowStart == old.windowStart()
                && movesInWindow == old.moves()) {
            return old;
        }
        return new Tracked(new Device(mac, vlan, ips, at, d.firstSeen(), later ? Instant.ofEpochSecond(now)
                : d.lastSeen()), windowStart, movesInWindow, self, old.version() + 1);
    }

    private Set<Integer> withIp(Set<Integer> ips, int ip) {
        if (ip == 0 || ips.contains(ip) || ips.size() >= config.maxIpsPerDevice()) {
            return ips;
        }
        var more = new ArrayList<>(ips);
        more.add(ip);
        return Set.copyOf(more);
    }

    /** A DHCP server gave {@code ip} to the host {@code mac}: known hosts only, it tells nothing of where it is. */
    private void learnIp(long mac, int vlan, int ip) {
        var change = store.update(mac, vlan, old -> {
            if (old == null) {
                return null;
            }
            Device d = old.device();
            var ips = withIp(d.ipv4(), ip);
            return ips == d.ipv4() ? old : new Tracked(new Device(d.mac(), d.vlan(), ips, d.attachment(),
                    d.firstSeen(), d.lastSeen()), old.windowStart(), old.moves(), self, old.version() + 1);
        });
        tell(change, true);
        share(change);
    }

    /**
     * Writes a host this member learned or changed to the cluster when the others would otherwise miss something:
     * it is new, moved or has other addresses, or its last-seen time moved into the next refresh period.
     */
    private void share(DeviceStore.Change change) {
        Device before = change.before();
        Device now = change.after();
        if (now == null || !change.changed()) {
            return;
        }
        var c = config;
        long period = refreshSeconds(c);
        if (before == null || !before.attachment().equals(now.attachment()) || !before.ipv4().equals(now.ipv4())
                || before.lastSeen().getEpochSecond() / period != now.lastSeen().getEpochSecond() / period) {
            var t = store.get(now.mac(), now.vlan());
            if (t != null && t.device() == now) {
                shared.set(DeviceStore.key(now.mac(), now.vlan()), new SharedDevices.Record(now, t.version()),
                        Duration.ofSeconds(c.idleTimeout()));
            }
        }
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
        var c = config;
        if (d.lastSeen().getEpochSecond() <= epochSeconds.getAsLong() - c.idleTimeout()) {
            return;
        }
        if (!topology.isEdgePort(at.dpid(), at.port())) {
            waiting.park(w.key(), w, at.dpid());
            return;
        }
        tell(store.update(d.mac(), d.vlan(), old -> {
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

    private void flapping(Device d, SwitchPort seenAt, long now) {
        movesSuppressed.increment();
        long next = nextFlapLog.get();
        if (now >= next && nextFlapLog.compareAndSet(next, now + FLAP_LOG_INTERVAL_SECONDS)) {
            log.warn("{} (vlan {}) moves more than {} times a minute, now seen at {}: it stays at {} until the minute"
                    + " passes ({} moves ignored so far; this is logged once per {} s)", MacAddress.toString(d.mac()),
                    d.vlan(), config.maxMovesPerMinute(), seenAt, d.attachment(), movesSuppressed.sum(),
                    FLAP_LOG_INTERVAL_SECONDS);
        }
    }

    // ------------------------------------------------------------------------------------------------ removing

    /** Its hosts are learned from its PACKET_INs, and in a cluster from the records other members wrote. */
    @Override
    public void addedSwitch(IOFSwitch sw) {
        // As a task behind the other listeners' calls: topology, told of the switch before or after this, has
        // taken it in by then (a component that starts while switches are connected is told in a task of its own).
        sw.execute(() -> waiting.take(sw.getId()).forEach(this::sharedDeviceSeen));
    }

    @Override
    public void removedSwitch(IOFSwitch sw) {
        long dpid = sw.getId();
        removeAll(store.on(dpid), d -> d.attachment().dpid() == dpid);
    }

    @Override
    public void linkAdded(Link link) {
        for (SwitchPort end : List.of(link.src(), link.dst())) {
            // A host placed here came from a frame that crossed this link while it was unknown (a copy that went round
            // a loop, say). Routing, told of the removal, deletes the flows towards that place: they may drop the
            // host's traffic there, renewed by the very packets they drop, so that it never speaks to the controller again.
            removeAll(store.at(end), x -> x.attachment().equals(end));
        }
    }

    @Override
    public void linkRemoved(Link link) {
        // The ports become edge ports: hosts behind them are learned from their next frame.
    }

    private void ageOut() {
        long oldest = epochSeconds.getAsLong() - config.idleTimeout();
        Predicate<Device> idle = d -> d.lastSeen().getEpochSecond() <= oldest;
        waiting.drop(w -> idle.test(w.value().device()));
        // Topology, restarted after this component, takes in the switches connected already after it.
        waiting.takeAll().forEach(this::sharedDeviceSeen);
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
        tell(change, true);
        return change.changed();
    }

    // ------------------------------------------------------------------------------------------------ telling

    /** @param learned whether this member made the change (not taken from another member's record) */
    private void tell(DeviceStore.Change change, boolean learned) {
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
        return new DeviceCounters(malformedArp.sum(), malformedDhcp.sum(), moves.sum(), movesSuppressed.sum(),
                agedOut.sum());
    }

    /** Package-private for tests: whether every index agrees with the hosts' records. */
    List<String> inconsistencies() {
        return store.inconsistencies();
    }

    /** {@code beacon:devices}: one line per host, then the counters. */
    public String devices() {
        return DeviceTable.format(getDevices(), getCounters());
    }

    @Override
    public String toString() {
        return NAME + "[" + store.size() + " devices]";
    }
}
