package net.beaconcontroller.devicemanager.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.web.server.ResponseStatusException;

import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.topology.SwitchPort;
import net.beaconcontroller.util.IPv4Address;

/** /wm/device/ and its filters over a fixed set of hosts. */
class DeviceControllerTest {
    private record Fixed(List<Device> devices) implements IDeviceManager {
        @Override
        public Collection<Device> getDevices() {
            return devices;
        }

        @Override
        public Optional<Device> getDevice(long mac, int vlan) {
            return devices.stream().filter(d -> d.mac() == mac && d.vlan() == vlan).findFirst();
        }

        @Override
        public Collection<Device> getDevicesByMac(long mac) {
            return devices.stream().filter(d -> d.mac() == mac).toList();
        }

        @Override
        public Collection<Device> getDevicesByIpv4(int ipv4) {
            return devices.stream().filter(d -> d.ipv4().contains(ipv4)).toList();
        }

        @Override
        public Collection<Device> getDevicesAt(SwitchPort port) {
            return devices.stream().filter(d -> d.attachment().equals(port)).toList();
        }

        @Override
        public Collection<Device> getDevicesOn(long dpid) {
            return devices.stream().filter(d -> d.attachment().dpid() == dpid).toList();
        }
    }

    private static Device host(long mac, int vlan, String ip, long dpid, int port) {
        return new Device(mac, vlan, ip == null ? Set.of() : Set.of(IPv4Address.parse(ip)), new SwitchPort(dpid, port),
                Instant.ofEpochMilli(1000), Instant.ofEpochMilli(2000 + mac));
    }

    private final DeviceController web = new DeviceController(new Fixed(List.of(
            host(2, Device.NO_VLAN, "10.0.0.2", 1, 2), host(1, Device.NO_VLAN, "10.0.0.1", 1, 1),
            host(0x0a0000000003L, 10, "192.168.1.3", 0x201, 3), host(4, Device.NO_VLAN, null, 0x201, 4))));

    private List<Object> macs(Map<String, String> query) {
        return web.devices(query).stream().map(d -> (Object) ((List<?>) d.get("mac")).get(0)).toList();
    }

    @Test
    void everyHostInFloodlightsShape() {
        var all = web.devices(Map.of());
        assertEquals(4, all.size());
        var first = all.get(0);
        assertEquals("DefaultEntityClass", first.get("entityClass"));
        assertEquals(List.of("00:00:00:00:00:01"), first.get("mac"));
        assertEquals(List.of("10.0.0.1"), first.get("ipv4"));
        assertEquals(List.of(), first.get("ipv6"));
        assertEquals(List.of("0x0"), first.get("vlan"));
        var ap = ((List<?>) first.get("attachmentPoint")).get(0);
        assertEquals("{switchDPID=00:00:00:00:00:00:00:01, port=1, errorStatus=null}", ap.toString());
        assertEquals(2001L, first.get("lastSeen"));
        assertEquals(List.of("0xa"), web.devices(Map.of("vlan", "10")).get(0).get("vlan"));
        assertEquals(List.of(), web.devices(Map.of("mac", "00:00:00:00:00:04")).get(0).get("ipv4"));
    }

    @Test
    void filtersCombineAndMatchThePrintedValues() {
        assertEquals(List.of("00:00:00:00:00:02"), macs(Map.of("ipv4", "10.0.0.2")));
        assertEquals(List.of("00:00:00:00:00:02"), macs(Map.of("mac", "00:00:00:00:00:02")));
        assertEquals(List.of("00:00:00:00:00:01", "00:00:00:00:00:02"), macs(Map.of("dpid", "1")));
        assertEquals(List.of("00:00:00:00:00:04"), macs(Map.of("dpid", "00:00:00:00:00:00:02:01", "port", "4")));
        assertEquals(List.of("0a:00:00:00:00:03"), macs(Map.of("ipv4__startswith", "192.168.")));
        assertEquals(List.of("00:00:00:00:00:01", "00:00:00:00:00:02", "00:00:00:00:00:04"),
                macs(Map.of("mac__startswith", "00:00")));
        assertEquals(List.of(), macs(Map.of("ipv4", "10.9.9.9")));
        assertEquals(4, macs(Map.of("unrelated", "x")).size());
    }

    @Test
    void malformedFilterValuesAreRefusedNamingTheKey() {
        for (var bad : Map.of("mac", "zz", "ipv4", "10.0.0", "vlan", "ten", "dpid", "g", "port", "x").entrySet()) {
            var e = assertThrows(ResponseStatusException.class, () -> web.devices(Map.of(bad.getKey(),
                    bad.getValue())));
            assertEquals(400, e.getStatusCode().value());
            assertTrue(e.getReason().startsWith("bad " + bad.getKey()), e.getReason());
        }
    }
}
