package net.beaconcontroller.core;

import java.time.Duration;
import java.util.function.BiConsumer;

/** A map every member of the cluster reads and writes: see {@link ISharedState}. */
public interface SharedMap {
    /** Ends a {@link #subscribe subscription}. */
    interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Sets {@code key} to {@code value} on every member, without waiting for them: it is called from I/O threads. The
     * entry goes by itself {@code ttl} after it was last set, so what a member that died wrote does not outlive it;
     * {@link Duration#ZERO} keeps it until it is removed.
     */
    void set(String key, byte[] value, Duration ttl);

    /** Removes {@code key} on every member, without waiting for them. */
    void remove(String key);

    /** Sets {@code key} to {@code value} unless it has a value already; returns the value it has now. Blocks. */
    byte[] setIfAbsent(String key, byte[] value);

    /**
     * Tells {@code changes} every entry there is now, then every entry set or gone since (value {@code null}: gone),
     * by any member, this one included, until the subscription is closed. Calls come from the cluster's event
     * threads, the changes of one key in order; they must not block. An entry may be told twice around the
     * subscription's start.
     */
    Subscription subscribe(BiConsumer<String, byte[]> changes);
}
