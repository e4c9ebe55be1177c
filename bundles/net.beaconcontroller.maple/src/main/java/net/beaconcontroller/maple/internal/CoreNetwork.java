package net.beaconcontroller.maple.internal;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.maple.Environment;
import net.beaconcontroller.routing.IRoutingEngine;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The {@link Environment} of a running Beacon: host locations from the device manager, paths from the routing
 * engine. Both are readable from any thread; their changes reach the runtime as events that invalidate what read
 * them.
 */
final class CoreNetwork implements Environment {
    private final IDeviceManager devices;
    private final Supplier<IRoutingEngine> engine;

    CoreNetwork(IDeviceManager devices, Supplier<IRoutingEngine> engine) {
        this.devices = devices;
        this.engine = engine;
    }

    /** Of a MAC seen on several VLANs, where it was seen last. */
    @Override
    public Optional<SwitchPort> hostLocation(long mac) {
        return devices.getDevicesByMac(mac).stream().max(Comparator.comparing(Device::lastSeen))
                .map(Device::attachment);
    }

    /** None while no routing engine runs (the runtime invalidates every path read when one starts). */
    @Override
    public Optional<List<Link>> path(long src, long dst) {
        var e = engine.get();
        if (src == dst) {
            return Optional.of(List.of());
        }
        return e == null ? Optional.empty() : e.getPath(src, dst);
    }
}
