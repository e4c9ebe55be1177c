package net.beaconcontroller.core;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A typed slot of the {@link MessageContext}. Create one per kind of result, as a constant of the API that publishes
 * it (e.g. {@code IDeviceManager.SRC_DEVICE}), and share it with the listeners that read it.
 *
 * @param <T> the type of the values stored under it
 */
public final class ContextKey<T> {
    private static final AtomicInteger NEXT = new AtomicInteger();

    private final String name;
    private final int index = NEXT.getAndIncrement();

    private ContextKey(String name) {
        this.name = name;
    }

    public static <T> ContextKey<T> of(String name) {
        return new ContextKey<>(name);
    }

    public String name() {
        return name;
    }

    /** A small number unique to this key, which the controller uses to find its slot without hashing. */
    public int index() {
        return index;
    }

    @Override
    public String toString() {
        return "ContextKey[" + name + "]";
    }
}
