package net.beaconcontroller.topology.internal;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.SharedMap;
import net.beaconcontroller.topology.Link;

/**
 * Discovery's part of a cluster's shared state. A probe comes back as a PACKET_IN only at the master of the switch it
 * arrived at, so each member finds the links into its own switches; it writes each one it finds, every time a probe
 * crosses it, and takes in the ones the others write. An entry's time to live is the link timeout, so what a member
 * that died found goes by itself; every member also expires links locally, as alone, so a link is dropped everywhere
 * once no member has seen a probe cross it for the timeout. Entries are never removed by hand: a port that goes down
 * is reported by the switch to every member.
 *
 * <p>The members share the probes' HMAC key (the first to start draws it) and sign with the cluster's time, which
 * agrees across members only to within the network's delay: a probe's age is checked give or take {@link #SKEW}.
 * Members that started apart, or were split, may have drawn different keys; when they merge one key survives, without
 * an event, so each member checks the key once per probe round.
 */
final class SharedLinks implements AutoCloseable {
    static final String LINKS = LinkDiscovery.NAME + ".links";
    static final String KEYS = LinkDiscovery.NAME + ".probeKey";
    static final String SWITCHES = LinkDiscovery.NAME + ".switches";
    private static final String KEY = "hmac-sha256";
    /** How far two members' cluster times may differ: far above loopback's and a LAN's delays. */
    static final Duration SKEW = Duration.ofMillis(500);

    private final ISharedState state;
    private final ProbeCodec codec;
    private final SharedMap keys;
    private final SharedMap links;
    private final SharedMap switches;
    /** When the hold-down of each switch connected here ends, in the cluster's time (ms): as the first member had it. */
    private final Map<Long, Long> holdDownEnds = new ConcurrentHashMap<>();
    private final Duration ttl;
    private final Duration holdDown;
    private final BiConsumer<Link, Instant> seen;
    private final Consumer<String> malformed;
    private final List<SharedMap.Subscription> subscriptions = new ArrayList<>();
    /** The key the codec signs with; guarded by this. */
    private byte[] key;

    /**
     * Joins the shared state: {@code codec} signs with the cluster's key from now on (and follows it if it changes),
     * and {@code seen} is told every link a member wrote, with when it was first seen.
     */
    SharedLinks(ISharedState state, ProbeCodec codec, Duration linkTimeout, Duration holdDown,
            BiConsumer<Link, Instant> seen, Consumer<String> malformed) {
        this.state = state;
        this.codec = codec;
        this.ttl = linkTimeout;
        this.holdDown = holdDown;
        this.seen = seen;
        this.malformed = malformed;
        keys = state.map(KEYS);
        links = state.map(LINKS);
        switches = state.map(SWITCHES);
        try {
            use(keys.setIfAbsent(KEY, ProbeCodec.newKey()));
            subscriptions.add(keys.subscribe((k, v) -> {
                if (v != null) {
                    use(v);
                }
            }));
            subscriptions.add(links.subscribe(this::written));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** A member wrote {@code key}. */
    private void written(String key, byte[] value) {
        // Gone: expired, or a member left the cluster; local expiry removes the link unless another writes it.
        if (value == null) {
            return;
        }
        Link link;
        try {
            link = parse(key);
        } catch (IllegalArgumentException e) {
            malformed.accept("shared link '" + key + "': " + e.getMessage());
            return;
        }
        seen.accept(link, value.length == Long.BYTES ? Instant.ofEpochMilli(ByteBuffer.wrap(value).getLong())
                : Instant.now());
    }

    private synchronized void use(byte[] next) {
        if (!Arrays.equals(key, next)) {
            key = next.clone();
            codec.rekey(key);
        }
    }

    /** Takes up the cluster's key, when it has come, if it is not the one in use (after a merge). */
    void checkKey() {
        keys.get(KEY).thenAccept(k -> {
            if (k != null) {
                use(k);
            }
        });
    }

    /**
     * Switch {@code dpid} was added here, held down for the hold-down from now. If the cluster knew it already
     * (another member had it, or this one before a restart), {@code settle} is told, later, on a cluster thread, in
     * how many milliseconds the cluster's hold-down ends (negative: it has ended): this member's view of its island is
     * as complete as the others', since the links they found come with the switch. Otherwise this member's end is the
     * cluster's.
     */
    void switchAdded(long dpid, LongConsumer settle) {
        long mine = holdDownEnd();
        switches.get(Long.toHexString(dpid)).thenAccept(v -> {
            if (v != null && v.length == Long.BYTES) {
                long end = ByteBuffer.wrap(v).getLong();
                holdDownEnds.put(dpid, end);
                settle.accept(end - state.clusterTimeMillis());
            } else {
                holdDownEnds.put(dpid, mine);
                switchProbed(dpid);
            }
        });
    }

    /**
     * The switch's master probed it: its entry lives on for another link timeout, so it goes once the switch has left
     * every member for that long (and comes back with a hold-down of its own).
     */
    void switchProbed(long dpid) {
        var end = holdDownEnds.get(dpid);
        if (end != null) {
            writeHoldDownEnd(dpid, end);
        }
    }

    /**
     * Switch {@code dpid} left this member: should it connect again, every member adding it then holds it down for a
     * full hold-down from now, as a switch that comes back after a while may come back cabled otherwise.
     */
    void switchRemoved(long dpid) {
        holdDownEnds.remove(dpid);
        writeHoldDownEnd(dpid, holdDownEnd());
    }

    /** A hold-down starting now ends then, in the cluster's time (ms). */
    private long holdDownEnd() {
        return state.clusterTimeMillis() + holdDown.toMillis();
    }

    private void writeHoldDownEnd(long dpid, long end) {
        switches.set(Long.toHexString(dpid), ByteBuffer.allocate(Long.BYTES).putLong(end).array(), ttl);
    }

    /** The cluster's time in nanoseconds: what probes are signed with, so any member can tell their age. */
    long nanoTime() {
        return state.clusterTimeMillis() * 1_000_000;
    }

    /** A probe crossed {@code link}, known since {@code firstSeen}. */
    void seen(Link link, Instant firstSeen) {
        links.set(key(link), ByteBuffer.allocate(Long.BYTES).putLong(firstSeen.toEpochMilli()).array(), ttl);
    }

    @Override
    public void close() {
        subscriptions.forEach(SharedMap.Subscription::close);
    }

    static String key(Link l) {
        return Long.toHexString(l.src().dpid()) + "/" + l.src().port() + ">" + Long.toHexString(l.dst().dpid()) + "/"
                + l.dst().port();
    }

    static Link parse(String key) {
        var ends = key.split(">", -1);
        if (ends.length != 2) {
            throw new IllegalArgumentException("expected src>dst");
        }
        var src = ends[0].split("/", -1);
        var dst = ends[1].split("/", -1);
        if (src.length != 2 || dst.length != 2) {
            throw new IllegalArgumentException("expected dpid/port at both ends");
        }
        return Link.of(Long.parseUnsignedLong(src[0], 16), Integer.parseInt(src[1]),
                Long.parseUnsignedLong(dst[0], 16), Integer.parseInt(dst[1]));
    }
}
