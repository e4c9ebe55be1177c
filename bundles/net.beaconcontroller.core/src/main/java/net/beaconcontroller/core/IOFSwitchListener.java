package net.beaconcontroller.core;

/**
 * Told when switches become active and when they leave: publish it as an OSGi service (ordering with
 * {@link BeaconListener#before()}/{@link BeaconListener#after()}) or add it with
 * {@link IBeaconProvider#addOFSwitchListener}. {@link #addedSwitch} is called once per connection, on the switch's
 * I/O thread: before any of its messages reach message listeners, or, for a listener added while the switch is
 * connected already, soon after the listener was added. {@link #removedSwitch} is called exactly once after it
 * disconnected (or, dead, was replaced by a new connection with the same DPID), also on its I/O thread, and only if
 * {@link #addedSwitch} was. A listener that is removed hears neither for the switches connected then.
 */
public interface IOFSwitchListener {
    /** As {@link IOFMessageListener#getName()}: by default the class's simple name in lower case. */
    default String getName() {
        return getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
    }

    void addedSwitch(IOFSwitch sw);

    void removedSwitch(IOFSwitch sw);
}
