package net.beaconcontroller.topology.internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.shared.SharedCodec;
import net.beaconcontroller.core.shared.SharedKeys;
import net.beaconcontroller.core.shared.SharedTable;
import net.beaconcontroller.core.shared.Sharing;
import net.beaconcontroller.topology.Link;

/**
 * Discovery's part of a cluster's shared state (alone: nobody's). A probe comes back as a PACKET_IN only at the master
 * of the switch it arrived at, so each member finds the links into its own switches; it writes each one it finds,
 * every time a probe crosses it, and takes in the ones the others write. An entry's time to live is the link timeout,
 * so what a member that died found goes by itself; every member also expires links locally, as alone, so a link is
 * dropped everywhere once no member has seen a probe cross it for the timeout. Entries are never removed by hand: a
 * port that goes down is reported by the switch to every member.
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

    /** A link as {@code srcDpid/port>dstDpid/port}, dpids in hex. */
    static final SharedKeys<Link> LINK_KEYS = new SharedKeys<>() {
        @Override
        public String format(Link l) {
            return Long.toHexString(l.src().dpid()) + "/" + l.src().port() + ">" + Long.toHexString(l.dst().dpid())
                    + "/" + l.dst().port();
        }

        @Override
        public Link parse(String key) {
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
    };

    /** When a link was first seen, in epoch milliseconds. */
    static final SharedCodec<Instant> FIRST_SEEN = new SharedCodec<>() {
        @Override
        public int version() {
            return 1;
        }

        @Override
        public void write(Instant firstSeen, DataOutput out) throws IOException {
            out.writeLong(firstSeen.toEpochMilli());
        }

        @Override
        public Instant read(DataInput in) throws IOException {
            return Instant.ofEpochMilli(in.readLong());
        }
    };

    /** The probes' HMAC key. */
    private static final SharedCodec<byte[]> PROBE_KEY = new SharedCodec<>() {
        @Override
        public int version() {
            return 1;
        }

        @Override
        public void write(byte[] key, DataOutput out) throws IOException {
            out.writeShort(key.length);
            out.write(key);
        }

        @Override
        public byte[] read(DataInput in) throws IOException {
            var key = new byte[in.readUnsignedShort()];
            in.readFully(key);
            return key;
        }
    };

    private final ISharedState state;
    private final ProbeCodec codec;
    private final LongSupplier nanoClock;
    private final SharedTable<String, byte[]> keys;
    private final SharedTable<Link, Instant> links;
    private final Duration ttl;
    /** The key the codec signs with; guarded by this. */
    private byte[] key;

    /**
     * Joins the shared state: {@code codec} signs with the cluster's key from now on (and follows it if it changes),
     * and {@code seen} is told every link another member wrote, with when it was first seen.
     *
     * @param cluster   the cluster's shared state, or {@code null}
     * @param nanoClock what probes are signed with alone
     */
    SharedLinks(ISharedState cluster, ProbeCodec codec, LongSupplier nanoClock, Duration linkTimeout,
            BiConsumer<Link, Instant> seen) {
        this.state = Sharing.of(cluster);
        this.codec = codec;
        this.nanoClock = nanoClock;
        this.ttl = linkTimeout;
        keys = SharedTable.open(state, KEYS, SharedKeys.STRINGS, PROBE_KEY);
        links = SharedTable.open(state, LINKS, LINK_KEYS, FIRST_SEEN);
        try {
            use(keys.setIfAbsent(KEY, ProbeCodec.newKey()));
            keys.subscribe(c -> {
                if (c.value() != null) {
                    use(c.value());
                }
            });
            // Gone: expired, or a member left the cluster; local expiry removes the link unless another writes it.
            links.subscribe(c -> {
                if (c.value() != null) {
                    seen.accept(c.key(), c.value());
                }
            });
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private synchronized void use(byte[] next) {
        if (!Arrays.equals(key, next)) {
            key = next.clone();
            codec.rekey(key);
        }
    }

    /** Takes up the cluster's key, when it has come, if it is not the one in use (after a merge). */
    void checkKey() {
        keys.get(KEY).thenAccept(k -> k.ifPresent(this::use));
    }

    /**
     * What probes are signed with: in a cluster its time in nanoseconds, so any member can tell their age; alone this
     * machine's monotonic clock.
     */
    long probeTime() {
        return links.clustered() ? state.clusterTimeMillis() * 1_000_000 : nanoClock.getAsLong();
    }

    /** How far the clock of the member that signed a probe may be from this one's. */
    long skewNanos() {
        return links.clustered() ? SKEW.toNanos() : 0;
    }

    /** A probe crossed {@code link}, known since {@code firstSeen}. */
    void seen(Link link, Instant firstSeen) {
        links.set(link, firstSeen, ttl);
    }

    @Override
    public void close() {
        keys.close();
        links.close();
    }
}
