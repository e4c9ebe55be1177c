package net.beaconcontroller.devicemanager.web;

import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceListener;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.web.IWebEvents;
import net.beaconcontroller.web.IWebManageable;
import net.beaconcontroller.web.Page;
import net.beaconcontroller.web.Metrics;

/**
 * The device manager's REST endpoints: Floodlight's {@code /wm/device/}; hosts as server push ({@code device-added},
 * {@code device-moved}, {@code device-changed}, {@code device-removed}, each with the host as {@code /wm/device/}
 * shows it).
 */
@Component(service = {IWebManageable.class, IDeviceListener.class})
public final class DeviceWeb implements IWebManageable, IDeviceListener {
    private final IDeviceManager devices;
    private final IWebEvents events;
    private final List<Object> controllers;

    @Activate
    public DeviceWeb(@Reference IDeviceManager devices, @Reference IWebEvents events) {
        this.devices = devices;
        this.events = events;
        controllers = List.of(new DeviceController(devices));
    }

    @Override
    public void deviceAdded(Device device) {
        events.publish("device-added", DeviceController.json(device));
    }

    @Override
    public void deviceMoved(Device before, Device now) {
        events.publish("device-moved", DeviceController.json(now));
    }

    @Override
    public void deviceIpChanged(Device before, Device now) {
        events.publish("device-changed", DeviceController.json(now));
    }

    @Override
    public void deviceRemoved(Device device) {
        events.publish("device-removed", DeviceController.json(device));
    }

    @Override
    public List<Object> controllers() {
        return controllers;
    }

    @Override
    public List<Page> pages() {
        return List.of(new Page("devices", "Devices", 30, "ui/devices.js"));
    }

    @Override
    public Map<String, Object> summary() {
        return Map.of("# hosts", devices.getDevices().size());
    }

    @Override
    public void metrics(Metrics metrics) {
        metrics.gauge("beacon_devices", "Hosts the device manager knows.").add(devices.getDevices().size());
        var c = devices.getCounters();
        metrics.counter("beacon_device_moves_total", "Hosts moved to another edge port.").add(c.moves());
        metrics.counter("beacon_device_moves_suppressed_total",
                "Moves ignored because the host moved too often (flapping).").add(c.movesSuppressed());
        metrics.counter("beacon_devices_aged_out_total", "Hosts removed after not being seen for the idle timeout.")
                .add(c.agedOut());
        metrics.counter("beacon_device_malformed_total", "ARP frames and DHCP datagrams the device manager could not"
                + " use, by protocol.").add(c.malformedArp(), "protocol", "arp").add(c.malformedDhcp(), "protocol",
                        "dhcp");
    }
}
