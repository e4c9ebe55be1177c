package net.beaconcontroller.core;

import java.util.Map;

import net.beaconcontroller.openflow.OFType;

/**
 * The controller, as applications see it: published in the OSGi service registry by the core bundle.
 *
 * <p>Applications subscribe when they activate and unsubscribe when they deactivate. Once a remove method returns,
 * the listener is not called again: removal waits until no I/O thread is still inside a dispatch that began before
 * it (unless it is called from an I/O thread, which cannot wait for itself).
 */
public interface IBeaconProvider {
    void addOFMessageListener(OFType type, IOFMessageListener listener);

    void removeOFMessageListener(OFType type, IOFMessageListener listener);

    void addOFSwitchListener(IOFSwitchListener listener);

    void removeOFSwitchListener(IOFSwitchListener listener);

    void addOFInitializerListener(IOFInitializerListener listener);

    void removeOFInitializerListener(IOFInitializerListener listener);

    /** The active switches by datapath id: a live, read-only view. */
    Map<Long, IOFSwitch> getSwitches();

    /** The validated {@code beacon.properties}. */
    BeaconSettings getSettings();
}
