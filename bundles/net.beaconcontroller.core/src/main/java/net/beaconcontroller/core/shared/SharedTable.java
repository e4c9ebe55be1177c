package net.beaconcontroller.core.shared;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.SharedMap;

/**
 * A typed map every member of the cluster reads and writes (alone: {@link Sharing#alone}), over a {@link SharedMap}.
 * Every entry carries who wrote it, so a member is told only what the others wrote, never its own writes coming back
 * (which may be older than what it has done since), and the codec's version, so that an entry another version of the
 * application wrote is reported and skipped instead of misread. Any thread.
 *
 * <p>Entry: the table format (1 byte, {@value #FORMAT}), the codec's version (1), the writer (8), then the value as
 * the codec writes it.
 */
public final class SharedTable<K, V> implements AutoCloseable {
    /** A change another member made: {@code value} null for an entry gone (removed, or its time to live passed). */
    public record Change<K, V>(K key, V value, long writer) { }

    /** An entry as read: who wrote it, and its value. */
    private record Entry<V>(long writer, V value) { }

    private static final Logger log = LoggerFactory.getLogger(SharedTable.class);
    private static final int FORMAT = 1;
    private static final long WARN_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final String name;
    private final SharedMap map;
    private final SharedKeys<K> keys;
    private final SharedCodec<V> codec;
    private final long writer;
    private final boolean clustered;
    private final List<SharedMap.Subscription> subscriptions = new CopyOnWriteArrayList<>();
    private final LongAdder unreadable = new LongAdder();
    private final AtomicLong nextWarn = new AtomicLong(System.nanoTime());

    private SharedTable(ISharedState state, String name, SharedKeys<K> keys, SharedCodec<V> codec) {
        this.name = name;
        this.map = state.map(name);
        this.keys = keys;
        this.codec = codec;
        this.clustered = Sharing.isClustered(state);
        long id;
        do {
            id = new SecureRandom().nextLong();
        } while (id == 0); // 0 is the writer of a removal, which carries none
        this.writer = id;
    }

    /**
     * The table {@code name} (prefixed with the application's name), the same on every member.
     *
     * @param state the cluster's shared state, or {@code null} without a cluster
     */
    public static <K, V> SharedTable<K, V> open(ISharedState state, String name, SharedKeys<K> keys,
            SharedCodec<V> codec) {
        return new SharedTable<>(Sharing.of(state), name, keys, codec);
    }

    /** This member's id as a writer of this table, drawn at random when opened; never 0. */
    public long writer() {
        return writer;
    }

    /** Whether other members share it (false alone). */
    public boolean clustered() {
        return clustered;
    }

    /** How many entries could not be read (another version's, or damaged) since it was opened. */
    public long unreadable() {
        return unreadable.sum();
    }

    /** Soft state, written often and without waiting: see {@link SharedMap#set}. */
    public void set(K key, V value, Duration ttl) {
        map.set(keys.format(key), encode(value), ttl);
    }

    /** Until removed; returns once every member will see it. Blocks. */
    public void put(K key, V value) {
        map.put(keys.format(key), encode(value));
    }

    /** Returns once every member will see it gone. Blocks. */
    public void remove(K key) {
        map.remove(keys.format(key));
    }

    /** The value there now, without waiting for it; empty for none or one that cannot be read. */
    public CompletionStage<Optional<V>> get(K key) {
        var k = keys.format(key);
        return map.get(k).thenApply(entry -> entry == null ? Optional.empty()
                : Optional.ofNullable(decode(k, entry)).map(Entry::value));
    }

    /**
     * Sets {@code key} to {@code value} unless it has a value; returns the value it has now. One that cannot be read
     * (another version's) is replaced by {@code value}: this member could not have told it apart from none. Blocks.
     */
    public V setIfAbsent(K key, V value) {
        var k = keys.format(key);
        var entry = encode(value);
        var now = map.setIfAbsent(k, entry);
        if (Arrays.equals(now, entry)) { // this writer's bytes: there was none
            return value;
        }
        var there = decode(k, now);
        if (there != null) {
            return there.value();
        }
        // Unreadable (another version's, say): replaced only if still the same bytes, so two members replacing it at
        // once agree on one value, as with an absent entry.
        return map.replace(k, now, entry) ? value : setIfAbsent(key, value);
    }

    /**
     * Tells {@code changes} every entry the other members wrote that is there now, then every change since by any
     * other member, with the threading of {@link SharedMap#subscribe}, until this table is closed. Removals are told
     * whoever made them (writer 0).
     */
    public void subscribe(Consumer<Change<K, V>> changes) {
        subscriptions.add(map.subscribe((k, entry) -> {
            K key;
            try {
                key = keys.parse(k);
            } catch (IllegalArgumentException e) {
                unreadable(k, "its key: " + e.getMessage());
                return;
            }
            if (entry == null) {
                changes.accept(new Change<>(key, null, 0));
                return;
            }
            var e = decode(k, entry);
            if (e != null && e.writer() != writer) {
                changes.accept(new Change<>(key, e.value(), e.writer()));
            }
        }));
    }

    @Override
    public void close() {
        subscriptions.forEach(SharedMap.Subscription::close);
        subscriptions.clear();
    }

    private byte[] encode(V value) {
        var bytes = new ByteArrayOutputStream(64);
        try (var out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeByte(codec.version());
            out.writeLong(writer);
            codec.write(value, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }

    /** Null (reported) when it cannot be read. */
    private Entry<V> decode(String key, byte[] entry) {
        try (var in = new DataInputStream(new ByteArrayInputStream(entry))) {
            int format = in.readUnsignedByte();
            int version = in.readUnsignedByte();
            if (format != FORMAT || version != codec.version()) {
                unreadable(key, "format " + format + " version " + version + ", this member reads format " + FORMAT
                        + " version " + codec.version() + " (a member running another version?)");
                return null;
            }
            long by = in.readLong();
            var value = codec.read(in);
            if (in.available() > 0) {
                throw new IOException(in.available() + " bytes left over");
            }
            return new Entry<>(by, value);
        } catch (IOException | IllegalArgumentException e) {
            unreadable(key, e.toString());
            return null;
        }
    }

    /** Counted; logged at most once a minute per table, with the count, as a mixed-version cluster writes many. */
    private void unreadable(String key, String why) {
        unreadable.increment();
        long now = System.nanoTime();
        long next = nextWarn.get();
        if (now - next >= 0 && nextWarn.compareAndSet(next, now + WARN_EVERY_NANOS)) {
            log.warn("shared table {}: entry {} ignored, cannot read {} ({} unreadable so far; said once a minute)",
                    name, key, why, unreadable.sum());
        }
    }
}
