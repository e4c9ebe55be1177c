package net.beaconcontroller.devicemanager.internal;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.Comparator;
import java.util.stream.Collectors;

import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.DeviceCounters;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;

/** The text of {@code beacon:devices}: one line per host, then the counters. */
final class DeviceTable {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());
    private static final String ROW = "%-17s  %-4s  %-31s  %-28s  %-19s%n";

    private DeviceTable() {
    }

    static String format(Collection<Device> devices, DeviceCounters counters) {
        var sb = new StringBuilder(String.format(ROW, "MAC", "VLAN", "IPV4", "ATTACHED TO", "LAST SEEN"));
        devices.stream().sorted(Comparator.comparingLong(Device::mac).thenComparingInt(Device::vlan))
                .forEach(d -> sb.append(String.format(ROW, MacAddress.toString(d.mac()),
                        d.vlan() == Device.NO_VLAN ? "-" : Integer.toString(d.vlan()), ips(d),
                        d.attachment(), TIME.format(d.lastSeen()))));
        sb.append(devices.size()).append(" device(s); ").append(String.format(
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
