package net.beaconcontroller.topology.internal;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;

import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IScheduler;
import net.beaconcontroller.packet.Ethernet;
import net.beaconcontroller.packet.Lldp;
import net.beaconcontroller.topology.Link;

/**
 * The topology's package-private parts the benchmarks need (hence this class in its package): link discovery with a
 * clock that stands still, so a probe made at setup never goes stale however long the run; the probe frame it sends;
 * and a store filled with a network, for its memory.
 */
public final class TopologyHarness {
    private TopologyHarness() {
    }

    public static LinkDiscovery discovery(IBeaconProvider beacon, IScheduler scheduler, LinkDiscovery.Config config,
            long now) {
        return new LinkDiscovery(beacon, scheduler, config, () -> now, Clock.systemUTC(), null);
    }

    /** The frame {@code discovery} sends out of {@code port} of {@code dpid} at {@code now}, as its probe() does. */
    public static byte[] probeFrame(LinkDiscovery discovery, long dpid, int port, long hwAddr, long now) {
        try {
            var field = LinkDiscovery.class.getDeclaredField("codec");
            field.setAccessible(true);
            var codec = (ProbeCodec) field.get(discovery);
            return Ethernet.of(Lldp.NEAREST_BRIDGE, hwAddr, codec.probe(dpid, port, now)).padded().serialize();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("LinkDiscovery has no codec field any more", e);
        }
    }

    /** A store that has seen the switches of {@code links} with their ports up, then every link. */
    public static Object store(Collection<Link> links) {
        var ports = new HashMap<Long, Set<Integer>>();
        for (var l : links) {
            ports.computeIfAbsent(l.src().dpid(), k -> new HashSet<>()).add(l.src().port());
            ports.computeIfAbsent(l.dst().dpid(), k -> new HashSet<>()).add(l.dst().port());
        }
        var store = new TopologyStore(0, 0);
        ports.forEach((dpid, up) -> store.switchAdded(dpid, up, 0));
        for (var l : links) {
            store.linkSeen(l, 0, Instant.EPOCH);
        }
        store.drain(change -> { });
        return store;
    }
}
