package net.beaconcontroller.devicemanager;

/**
 * Told about host changes: publish it as an OSGi service and the device manager picks it up. Calls come from the
 * thread that noticed the change (a switch's I/O thread, or the aging timer) and must not block.
 */
public interface IDeviceListener {
    void deviceAdded(Device device);

    /** The host moved to another port: {@code before} is where it was, {@code now} where it is. */
    void deviceMoved(Device before, Device now);

    void deviceIpChanged(Device before, Device now);

    /** The host aged out, its switch left, or its port turned out to end an inter-switch link. */
    void deviceRemoved(Device device);
}
