package net.beaconcontroller.devicemanager.internal;

import java.util.Collection;
import java.util.Optional;

import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The look-ups of {@link IDeviceManager}, answered from the store without locks on the caller's thread.
 *
 * <p>A superclass of the component, not a part it delegates to, because of the console: {@code beacon:devices} is
 * registered on the component, and Gogo finds it by reflection among the component's public methods, where
 * {@code getDevices()} answers to {@code devices} too (Gogo also tries {@code get<name>}) and the first of equal
 * matches wins. {@link Class#getMethods} lists a class's own methods before its superclass's, but its own in an order
 * the JVM leaves open (any change to the class may reorder them); declared here, {@code getDevices()} always comes
 * after {@link DeviceManager#devices()}. Public (in a package the bundle does not export) because javac copies the
 * public methods a public class inherits from a package-private one into it, which would undo that.
 */
public abstract class DeviceQueries implements IDeviceManager {
    final DeviceStore store;

    DeviceQueries(DeviceStore store) {
        this.store = store;
    }

    @Override
    public Collection<Device> getDevices() {
        return store.all();
    }

    @Override
    public Optional<Device> getDevice(long mac, int vlan) {
        return Optional.ofNullable(store.get(mac, vlan)).map(Tracked::device);
    }

    @Override
    public Collection<Device> getDevicesByMac(long mac) {
        return store.withMac(mac);
    }

    @Override
    public Collection<Device> getDevicesByIpv4(int ipv4) {
        return store.withIp(ipv4);
    }

    @Override
    public Collection<Device> getDevicesAt(SwitchPort port) {
        return store.at(port);
    }

    @Override
    public Collection<Device> getDevicesOn(long dpid) {
        return store.on(dpid);
    }
}
