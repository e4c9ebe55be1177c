package net.beaconcontroller.core;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A typed key for per-switch state that is confined to the switch's I/O thread: read and write it with
 * {@link IOFSwitch#getLocal}/{@link IOFSwitch#setLocal} only from that switch's listeners or from tasks run with
 * {@link IOFSwitch#execute}, and it needs no locking. Values go when the switch leaves; an application that stops
 * drops its values with {@link IBeaconProvider#clearLocal}. State other threads must read belongs in the application's
 * own concurrent structures, keyed by datapath id.
 *
 * @param <T> the type of the per-switch value
 */
public final class SwitchLocal<T> {
    private static final AtomicInteger NEXT = new AtomicInteger();

    private final String name;
    private final Supplier<? extends T> initial;
    private final int index = NEXT.getAndIncrement();

    /**
     * @param name    for log lines and the console
     * @param initial makes a switch's value on its first {@link IOFSwitch#getLocal}; {@code null} for none
     */
    public SwitchLocal(String name, Supplier<? extends T> initial) {
        this.name = Objects.requireNonNull(name, "name");
        this.initial = initial;
    }

    public String name() {
        return name;
    }

    /** A new value for a switch that has none yet, or {@code null} when this key has no initial value. */
    public T initialValue() {
        return initial == null ? null : initial.get();
    }

    /** A small number unique to this key, which the controller uses to find its slot without hashing. */
    public int index() {
        return index;
    }

    @Override
    public String toString() {
        return "SwitchLocal[" + name + "]";
    }
}
