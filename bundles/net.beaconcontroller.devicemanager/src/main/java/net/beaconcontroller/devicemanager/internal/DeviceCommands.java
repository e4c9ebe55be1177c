package net.beaconcontroller.devicemanager.internal;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.stream.Collectors;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;

/**
 * The {@code beacon:devices} console command. A component of its own, not a property of the device manager's: Gogo
 * runs the first public method that answers to the command's name, and the device manager's {@code getDevices()}
 * answers to {@code devices} too.
 */
@Component(service = DeviceCommands.class, property = {"osgi.command.scope=beacon", "osgi.command.function=devices"})
public final class DeviceCommands {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());
    private static final String ROW = "%-17s  %-4s  %-31s  %-28s  %-19s%n";

    private final IDeviceManager devices;

    @Activate
    public DeviceCommands(@Reference IDeviceManager devices) {
        this.devices = devices;
    }

    /** {@code beacon:devices}: one line per host, then the counters. */
    public String devices() {
        var all = devices.getDevices();
        var counters = devices.getCounters();
        var sb = new StringBuilder(String.format(ROW, "MAC", "VLAN", "IPV4", "ATTACHED TO", "LAST SEEN"));
        all.stream().sorted(Comparator.comparingLong(Device::mac).thenComparingInt(Device::vlan))
                .forEach(d -> sb.append(String.format(ROW, MacAddress.toString(d.mac()),
                        d.vlan() == Device.NO_VLAN ? "-" : Integer.toString(d.vlan()), ips(d),
                        d.attachment(), TIME.format(d.lastSeen()))));
        sb.append(all.size()).append(" device(s); ").append(String.format(
                "malformed ARP %d, malformed DHCP %d, moves %d, moves suppressed (flapping) %d, aged out %d",
                counters.malformedArp(), counters.malformedDhcp(), counters.moves(), counters.movesSuppressed(),
                counters.agedOut()));
        return sb.toString();
    }

    private static String ips(Device d) {
        return d.ipv4().isEmpty() ? "-" : d.ipv4().stream().sorted(Integer::compareUnsigned)
                .map(IPv4Address::toString).collect(Collectors.joining(","));
    }
}
