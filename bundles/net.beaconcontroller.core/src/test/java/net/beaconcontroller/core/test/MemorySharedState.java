package net.beaconcontroller.core.test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.SharedMap;

/**
 * The shared state of a cluster in one JVM, for unit tests of applications: hand the same instance to two
 * applications standing for two members. Changes are told on one thread of its own, as the cluster's event threads
 * would tell them. Entries never expire (the real one, on Hazelcast, is tested in the cluster bundle).
 */
public final class MemorySharedState implements ISharedState, AutoCloseable {
    private final ExecutorService events = Executors.newSingleThreadExecutor(r -> new Thread(r, "shared-events"));
    private final Map<String, Memory> maps = new ConcurrentHashMap<>();

    @Override
    public SharedMap map(String name) {
        return maps.computeIfAbsent(name, n -> new Memory());
    }

    @Override
    public long clusterTimeMillis() {
        return System.currentTimeMillis();
    }

    /** Waits until every change made so far has been told. */
    public void settle() {
        try {
            events.submit(() -> { }).get(ControllerFixture.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new AssertionError("shared-state events did not settle", e);
        }
    }

    @Override
    public void close() {
        events.shutdownNow();
    }

    private final class Memory implements SharedMap {
        private final Map<String, byte[]> entries = new ConcurrentHashMap<>();
        private final List<BiConsumer<String, byte[]>> subscribers = new CopyOnWriteArrayList<>();

        @Override
        public void set(String key, byte[] value, Duration ttl) {
            entries.put(key, value.clone());
            tell(key, value.clone());
        }

        @Override
        public void put(String key, byte[] value) {
            set(key, value, Duration.ZERO);
        }

        @Override
        public CompletionStage<byte[]> get(String key) {
            var v = entries.get(key);
            return CompletableFuture.completedFuture(v == null ? null : v.clone());
        }

        @Override
        public void remove(String key) {
            if (entries.remove(key) != null) {
                tell(key, null);
            }
        }

        @Override
        public byte[] setIfAbsent(String key, byte[] value) {
            var mine = value.clone();
            var now = entries.computeIfAbsent(key, k -> mine);
            if (now == mine) { // set here: told, as Hazelcast tells an added entry; an entry already there is not
                tell(key, now.clone());
            }
            return now.clone();
        }

        @Override
        public boolean replace(String key, byte[] expected, byte[] value) {
            var mine = value.clone();
            var now = entries.computeIfPresent(key, (k, there) -> Arrays.equals(there, expected) ? mine : there);
            if (now != mine) {
                return false;
            }
            tell(key, mine.clone());
            return true;
        }

        private void tell(String key, byte[] value) {
            events.execute(() -> subscribers.forEach(s -> s.accept(key, value)));
        }

        @Override
        public Subscription subscribe(BiConsumer<String, byte[]> changes) {
            events.execute(() -> {
                entries.forEach(changes);
                subscribers.add(changes);
            });
            return () -> subscribers.remove(changes);
        }
    }
}
