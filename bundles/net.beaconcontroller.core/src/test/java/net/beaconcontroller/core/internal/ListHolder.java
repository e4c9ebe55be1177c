package net.beaconcontroller.core.internal;

import java.util.ArrayList;
import java.util.List;

import net.beaconcontroller.connections.HeldConnection;
import net.beaconcontroller.connections.IConnectionHolder;

/** The connections bundle's holder without its timer, for the hand-over tests. */
final class ListHolder implements IConnectionHolder {
    private final boolean enabled;
    private final List<HeldConnection> held = new ArrayList<>();

    ListHolder(boolean enabled) {
        this.enabled = enabled;
    }

    @Override
    public synchronized boolean deposit(HeldConnection connection) {
        return enabled && held.add(connection);
    }

    synchronized int size() {
        return held.size();
    }

    @Override
    public synchronized List<HeldConnection> withdrawAll() {
        var all = List.copyOf(held);
        held.clear();
        return all;
    }
}
