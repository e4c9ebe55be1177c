package net.beaconcontroller.core;

/**
 * Told when switches become active and when they leave. {@link #addedSwitch} is called on the switch's I/O thread
 * before any of its messages reach message listeners; {@link #removedSwitch} exactly once after it disconnected (or
 * was replaced by a new connection with the same DPID), also on its I/O thread.
 */
public interface IOFSwitchListener {
    String getName();

    void addedSwitch(IOFSwitch sw);

    void removedSwitch(IOFSwitch sw);
}
