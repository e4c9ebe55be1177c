package net.beaconcontroller.cluster.internal;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryEvictedListener;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.map.listener.EntryMergedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;

import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.SharedMap;

/** {@link ISharedState} on Hazelcast maps ({@code beacon.app.<name>}) of this member. */
final class SharedState implements ISharedState {
    private static final Logger log = LoggerFactory.getLogger(SharedState.class);
    private final HazelcastInstance hz;

    SharedState(HazelcastInstance hz) {
        this.hz = hz;
    }

    @Override
    public SharedMap map(String name) {
        return new Map(hz.getMap("beacon.app." + name));
    }

    @Override
    public long clusterTimeMillis() {
        return hz.getCluster().getClusterTime();
    }

    private record Map(IMap<String, byte[]> map) implements SharedMap {
        @Override
        public void set(String key, byte[] value, Duration ttl) {
            map.setAsync(key, value, ttl.toMillis(), TimeUnit.MILLISECONDS).whenComplete((ok, e) -> {
                if (e != null && !(e instanceof HazelcastInstanceNotActiveException)) {
                    log.warn("cluster: shared map {}: setting {} failed: {}", map.getName(), key, e.toString());
                }
            });
        }

        @Override
        public void put(String key, byte[] value) {
            map.set(key, value);
        }

        @Override
        public void remove(String key) {
            map.delete(key);
        }

        @Override
        public CompletionStage<byte[]> get(String key) {
            return map.getAsync(key);
        }

        @Override
        public byte[] setIfAbsent(String key, byte[] value) {
            var had = map.putIfAbsent(key, value);
            return had == null ? value : had;
        }

        @Override
        public boolean replace(String key, byte[] expected, byte[] value) {
            return map.replace(key, expected, value); // Hazelcast compares the serialised bytes
        }

        @Override
        public Subscription subscribe(BiConsumer<String, byte[]> changes) {
            var listener = new Listener(changes);
            var id = map.addEntryListener(listener, true);
            listener.snapshot(map);
            return () -> {
                try {
                    map.removeEntryListener(id);
                } catch (HazelcastInstanceNotActiveException e) {
                    // The member stopped first: its listeners went with it.
                }
            };
        }
    }

    /**
     * Every kind of event, as set or gone, one at a time. While the entries there at the start are told, a key that
     * had an event meanwhile is skipped: the snapshot's value would be older.
     */
    private static final class Listener implements EntryAddedListener<String, byte[]>,
            EntryUpdatedListener<String, byte[]>, EntryMergedListener<String, byte[]>,
            EntryRemovedListener<String, byte[]>, EntryExpiredListener<String, byte[]>,
            EntryEvictedListener<String, byte[]> {
        private final BiConsumer<String, byte[]> changes;
        /** Keys told by events while the snapshot is read; {@code null} once it has been. Guarded by this. */
        private Set<String> changedDuringSnapshot = new HashSet<>();

        Listener(BiConsumer<String, byte[]> changes) {
            this.changes = changes;
        }

        void snapshot(IMap<String, byte[]> map) {
            for (var e : map.entrySet()) {
                synchronized (this) {
                    if (!changedDuringSnapshot.contains(e.getKey())) {
                        tell(e.getKey(), e.getValue());
                    }
                }
            }
            synchronized (this) {
                changedDuringSnapshot = null;
            }
        }

        @Override
        public void entryAdded(EntryEvent<String, byte[]> e) {
            event(e.getKey(), e.getValue());
        }

        @Override
        public void entryUpdated(EntryEvent<String, byte[]> e) {
            event(e.getKey(), e.getValue());
        }

        @Override
        public void entryMerged(EntryEvent<String, byte[]> e) {
            event(e.getKey(), e.getValue());
        }

        @Override
        public void entryRemoved(EntryEvent<String, byte[]> e) {
            event(e.getKey(), null);
        }

        @Override
        public void entryExpired(EntryEvent<String, byte[]> e) {
            event(e.getKey(), null);
        }

        @Override
        public void entryEvicted(EntryEvent<String, byte[]> e) {
            event(e.getKey(), null);
        }

        private synchronized void event(String key, byte[] value) {
            if (changedDuringSnapshot != null) {
                changedDuringSnapshot.add(key);
            }
            tell(key, value);
        }

        private void tell(String key, byte[] value) {
            try {
                changes.accept(key, value);
            } catch (RuntimeException ex) {
                log.warn("cluster: a shared-map subscriber failed on {}", key, ex);
            }
        }
    }
}
