package net.beaconcontroller.core.shared;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.SharedMap;

/**
 * An application takes the cluster's {@link ISharedState} as an optional reference; {@link #of} turns its absence
 * into a state that is shared with nobody, so the application writes the same code alone and in a cluster.
 */
public final class Sharing {
    private Sharing() {
    }

    /** The cluster's shared state, or, without one ({@code null}), {@link #alone()}. */
    public static ISharedState of(ISharedState cluster) {
        return cluster != null ? cluster : Alone.STATE;
    }

    /**
     * Shared with nobody: writes go nowhere, a subscription is never told anything (there is no other member), a
     * {@code setIfAbsent} finds nothing there, and the cluster's time is this machine's.
     */
    public static ISharedState alone() {
        return Alone.STATE;
    }

    /** Whether {@code state} reaches other members. */
    public static boolean isClustered(ISharedState state) {
        return state != Alone.STATE;
    }

    private static final class Alone implements ISharedState, SharedMap {
        static final Alone STATE = new Alone();

        @Override
        public SharedMap map(String name) {
            return this;
        }

        @Override
        public long clusterTimeMillis() {
            return System.currentTimeMillis();
        }

        @Override
        public void set(String key, byte[] value, Duration ttl) {
        }

        @Override
        public void put(String key, byte[] value) {
        }

        @Override
        public void remove(String key) {
        }

        @Override
        public CompletionStage<byte[]> get(String key) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public byte[] setIfAbsent(String key, byte[] value) {
            return value;
        }

        @Override
        public boolean replace(String key, byte[] expected, byte[] value) {
            return false; // nothing is ever there to replace
        }

        @Override
        public Subscription subscribe(BiConsumer<String, byte[]> changes) {
            return () -> { };
        }
    }
}
