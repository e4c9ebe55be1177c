package net.beaconcontroller.topology.internal;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

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
    private static final String KEY = "hmac-sha256";
    /** How far two members' cluster times may differ: far above loopback's and a LAN's delays. */
    static final Duration SKEW = Duration.ofMillis(500);

    private final ISharedState state;
    private final ProbeCodec codec;
    private final SharedMap keys;
    private final SharedMap links;
    private final Duration ttl;
    private final BiConsumer<Link, Instant> seen;
    private final Consumer<String> malformed;
    private final List<SharedMap.Subscription> subscriptions = new ArrayList<>();
    /** The key the codec signs with; guarded by this. */
    private byte[] key;

    /**
     * Joins the shared state: {@code codec} signs with the cluster's key from now on (and follows it if it changes),
     * and {@code seen} is told every link a member wrote, with when it was first seen.
     */
    SharedLinks(ISharedState state, ProbeCodec codec, Duration linkTimeout, BiConsumer<Link, Instant> seen,
            Consumer<String> malformed) {
        this.state = state;
        this.codec = codec;
        this.ttl = linkTimeout;
        this.seen = seen;
        this.malformed = malformed;
        keys = state.map(KEYS);
        links = state.map(LINKS);
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
