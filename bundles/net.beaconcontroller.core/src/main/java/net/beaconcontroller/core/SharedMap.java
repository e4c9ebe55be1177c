package net.beaconcontroller.core;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/** A map every member of the cluster reads and writes: see {@link ISharedState}. */
public interface SharedMap {
    /** Ends a {@link #subscribe subscription}. */
    interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Sets {@code key} to {@code value} on every member, without waiting for them: for soft state written often, from
     * I/O threads. The entry goes by itself {@code ttl} after it was last set, so what a member that died wrote does
     * not outlive it. Two sets of one key from one thread may, rarely, take effect in either order.
     */
    void set(String key, byte[] value, Duration ttl);

    /** Sets {@code key} to {@code value} until it is removed; returns once every member will see it. Blocks. */
    void put(String key, byte[] value);

    /** Removes {@code key}; returns once every member will see it gone. Blocks. */
    void remove(String key);

    /** The value of {@code key} ({@code null}: none), without waiting for it. */
    CompletionStage<byte[]> get(String key);

    /** Sets {@code key} to {@code value} unless it has a value already; returns the value it has now. Blocks. */
    byte[] setIfAbsent(String key, byte[] value);

    /**
     * Sets {@code key} to {@code value} if its value is still {@code expected} (the same bytes); returns whether it
     * did. Blocks.
     */
    boolean replace(String key, byte[] expected, byte[] value);

    /**
     * Tells {@code changes} every entry there is now, then every entry set or gone since (value {@code null}: gone),
     * by any member, this one included, until the subscription is closed. Calls come from the cluster's event
     * threads, one at a time, the changes of one key in order (an entry there at the start is not told after a change
     * to it); they must not block for long. An entry may be told twice around the subscription's start.
     */
    Subscription subscribe(BiConsumer<String, byte[]> changes);
}
