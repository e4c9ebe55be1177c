package net.beaconcontroller.devicemanager.web;

import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.web.IWebManageable;
import net.beaconcontroller.web.Metrics;

/** The device manager's REST endpoints: Floodlight's {@code /wm/device/}. */
@Component
public final class DeviceWeb implements IWebManageable {
    private final IDeviceManager devices;
    private final List<Object> controllers;

    @Activate
    public DeviceWeb(@Reference IDeviceManager devices) {
        this.devices = devices;
        controllers = List.of(new DeviceController(devices));
    }

    @Override
    public List<Object> controllers() {
        return controllers;
    }

    @Override
    public Map<String, Object> summary() {
        return Map.of("# hosts", devices.getDevices().size());
    }

    @Override
    public void metrics(Metrics metrics) {
        metrics.gauge("beacon_devices", "Hosts the device manager knows.").add(devices.getDevices().size());
    }
}
