package net.beaconcontroller.devicemanager.web;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;
import net.beaconcontroller.util.Dpids;

/**
 * {@code /wm/device/}: the hosts in Floodlight v1.2's shape, filtered by the query parameters {@code mac},
 * {@code vlan}, {@code ipv4}, {@code dpid} and {@code port} (exact) or their {@code __startswith} forms (a prefix of
 * the value as printed). Filters combine with AND.
 */
@RestController
final class DeviceController {
    /** A filter key: how a device's values for it are printed, and how a query value is put in that form. */
    private enum Field {
        MAC(d -> Stream.of(MacAddress.toString(d.mac())), v -> MacAddress.toString(MacAddress.parse(v))),
        VLAN(d -> Stream.of(Integer.toString(vlan(d))), v -> Integer.toString(Integer.decode(v))),
        IPV4(d -> d.ipv4().stream().map(IPv4Address::toString), v -> IPv4Address.toString(IPv4Address.parse(v))),
        DPID(d -> Stream.of(Dpids.toString(d.attachment().dpid())),
                v -> Dpids.toString(Dpids.parse(v))),
        PORT(d -> Stream.of(Integer.toString(d.attachment().port())), v -> Integer.toString(Integer.decode(v)));

        final Function<Device, Stream<String>> values;
        final Function<String, String> canonical;

        Field(Function<Device, Stream<String>> values, Function<String, String> canonical) {
            this.values = values;
            this.canonical = canonical;
        }
    }

    private final IDeviceManager devices;

    DeviceController(IDeviceManager devices) {
        this.devices = devices;
    }

    @GetMapping({"/wm/device/", "/wm/device/all/json"})
    List<Map<String, Object>> devices(@RequestParam Map<String, String> query) {
        var filters = new ArrayList<Predicate<Device>>();
        for (var field : Field.values()) {
            var key = field.name().toLowerCase();
            var exact = query.get(key);
            if (exact != null) {
                var value = canonical(field, key, exact);
                filters.add(d -> field.values.apply(d).anyMatch(value::equals));
            }
            var prefix = query.get(key + "__startswith");
            if (prefix != null) {
                filters.add(d -> field.values.apply(d).anyMatch(v -> v.startsWith(prefix)));
            }
        }
        return devices.getDevices().stream().filter(d -> filters.stream().allMatch(f -> f.test(d)))
                .sorted(Comparator.comparingLong(Device::mac).thenComparingInt(Device::vlan))
                .map(DeviceController::json).toList();
    }

    private static String canonical(Field field, String key, String value) {
        try {
            return field.canonical.apply(value);
        } catch (IllegalArgumentException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "bad " + key + " '" + value + "': "
                    + e.getMessage());
        }
    }

    /** Floodlight prints an untagged host's VLAN as 0. */
    private static int vlan(Device d) {
        return d.vlan() == Device.NO_VLAN ? 0 : d.vlan();
    }

    static Map<String, Object> json(Device d) {
        var m = new LinkedHashMap<String, Object>();
        m.put("entityClass", "DefaultEntityClass");
        m.put("mac", List.of(MacAddress.toString(d.mac())));
        m.put("ipv4", d.ipv4().stream().sorted(Integer::compareUnsigned).map(IPv4Address::toString).toList());
        m.put("ipv6", List.of());
        m.put("vlan", List.of("0x" + Integer.toHexString(vlan(d))));
        var ap = new LinkedHashMap<String, Object>();
        ap.put("switchDPID", Dpids.toString(d.attachment().dpid()));
        ap.put("port", d.attachment().port());
        ap.put("errorStatus", null);
        m.put("attachmentPoint", List.of(ap));
        m.put("lastSeen", d.lastSeen().toEpochMilli());
        return m;
    }
}
