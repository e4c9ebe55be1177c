package net.beaconcontroller.core;

/**
 * Told when switches become active and when they leave: publish it as an OSGi service (ordering with
 * {@link BeaconListener#before()}/{@link BeaconListener#after()}) or add it with
 * {@link IBeaconProvider#addOFSwitchListener}. {@link #addedSwitch} is called on the switch's I/O thread
 * before any of its messages reach message listeners; {@link #removedSwitch} exactly once after it disconnected (or
 * was replaced by a new connection with the same DPID), also on its I/O thread.
 */
public interface IOFSwitchListener {
    /** As {@link IOFMessageListener#getName()}: by default the class's simple name in lower case. */
    default String getName() {
        return getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
    }

    void addedSwitch(IOFSwitch sw);

    void removedSwitch(IOFSwitch sw);
}
