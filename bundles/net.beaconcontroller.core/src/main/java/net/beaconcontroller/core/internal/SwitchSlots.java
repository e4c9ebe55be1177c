package net.beaconcontroller.core.internal;

import java.util.Arrays;

import net.beaconcontroller.core.SwitchLocal;

/**
 * A switch's {@link SwitchLocal} values, by the keys' indexes: an array read, no map lookup, on the PACKET_IN path.
 * Confined to the switch's I/O thread.
 */
final class SwitchSlots {
    private static final Object[] NONE = new Object[0];

    private Object[] values = NONE;

    /**
     * The value of {@code key}, made by the key's initial supplier when there is none (and kept if {@code keep});
     * {@code null} when the supplier gives none.
     */
    @SuppressWarnings("unchecked")
    <T> T get(SwitchLocal<T> key, boolean keep) {
        int i = key.index();
        if (i < values.length && values[i] != null) {
            return (T) values[i];
        }
        T value = key.initialValue();
        if (value != null && keep) {
            set(key, value);
        }
        return value;
    }

    <T> void set(SwitchLocal<T> key, T value) {
        int i = key.index();
        if (i >= values.length) {
            values = Arrays.copyOf(values, Math.max(i + 1, values.length * 2));
        }
        values[i] = value;
    }

    @SuppressWarnings("unchecked")
    <T> T remove(SwitchLocal<T> key) {
        int i = key.index();
        if (i >= values.length) {
            return null;
        }
        var old = (T) values[i];
        values[i] = null;
        return old;
    }

    /** Lets go of every value: a closed switch kept by someone must not keep its applications' state alive. */
    void clear() {
        values = NONE;
    }
}
