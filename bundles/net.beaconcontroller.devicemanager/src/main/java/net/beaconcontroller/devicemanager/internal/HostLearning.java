package net.beaconcontroller.devicemanager.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.packet.Arp;
import net.beaconcontroller.packet.Dhcp;
import net.beaconcontroller.packet.Ethernet;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.packet.PacketParseException;
import net.beaconcontroller.packet.Udp;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.SwitchPort;
import net.beaconcontroller.util.MacAddress;

/**
 * The hot path: every PACKET_IN passes here on an I/O thread, so a known host whose record did not change must cost
 * one map read. It also decides what a frame says about where a host is, which is where Beacon is easiest to fool
 * (copies over links not yet found, round bridges, flapping hosts), so those judgements sit together with the
 * learning they guard.
 */
final class HostLearning {
    private static final Logger log = LoggerFactory.getLogger(DeviceManager.class);
    private static final long MOVE_WINDOW_SECONDS = 60;
    private static final long FLAP_LOG_INTERVAL_SECONDS = 10;
    /** How recently a host must have been seen at its place for a frame at a port in quarantine not to move it. */
    private static final long COPY_WINDOW_SECONDS = 1;

    private final DeviceStore store;
    private final ITopology topology;
    private final LongSupplier epochSeconds;
    /** Read per packet: the component replaces it whole. */
    private final Supplier<DeviceManager.Config> config;
    private final DeviceSharing sharing;
    private final DeviceEvents events;
    /** This member's id as a writer of host records. */
    private final long self;
    private final LongAdder malformedArp = new LongAdder();
    private final LongAdder malformedDhcp = new LongAdder();
    private final LongAdder movesSuppressed = new LongAdder();
    private final AtomicLong nextFlapLog = new AtomicLong();

    HostLearning(DeviceStore store, ITopology topology, LongSupplier epochSeconds,
            Supplier<DeviceManager.Config> config, DeviceSharing sharing, DeviceEvents events) {
        this.store = store;
        this.topology = topology;
        this.epochSeconds = epochSeconds;
        this.config = config;
        this.sharing = sharing;
        this.events = events;
        this.self = sharing.self();
    }

    long malformedArp() {
        return malformedArp.sum();
    }

    long malformedDhcp() {
        return malformedDhcp.sum();
    }

    long movesSuppressed() {
        return movesSuppressed.sum();
    }

    /** Learns the frame's source and leaves both hosts in the context for the listeners after this one. */
    void packetIn(long dpid, int inPort, MessageContext ctx) {
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
            ctx.put(IDeviceManager.SRC_DEVICE, srcDevice);
        }
        Device dstDevice = destination(frame, vlan);
        if (dstDevice != null) {
            ctx.put(IDeviceManager.DST_DEVICE, dstDevice);
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
        var maxMoves = config.get().maxMovesPerMinute();
        var change = store.update(mac, vlan, old -> seen(old, mac, vlan, seenAt, ip, now, maxMoves));
        if (seenAt != null && change.after() != null && !seenAt.equals(change.after().attachment())) {
            flapping(change.after(), seenAt, now);
        }
        events.tell(change, true);
        sharing.share(change);
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
        if (ip == 0 || ips.contains(ip) || ips.size() >= config.get().maxIpsPerDevice()) {
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
        events.tell(change, true);
        sharing.share(change);
    }

    private void flapping(Device d, SwitchPort seenAt, long now) {
        movesSuppressed.increment();
        long next = nextFlapLog.get();
        if (now >= next && nextFlapLog.compareAndSet(next, now + FLAP_LOG_INTERVAL_SECONDS)) {
            log.warn("{} (vlan {}) moves more than {} times a minute, now seen at {}: it stays at {} until the minute"
                    + " passes ({} moves ignored so far; this is logged once per {} s)", MacAddress.toString(d.mac()),
                    d.vlan(), config.get().maxMovesPerMinute(), seenAt, d.attachment(), movesSuppressed.sum(),
                    FLAP_LOG_INTERVAL_SECONDS);
        }
    }
}
