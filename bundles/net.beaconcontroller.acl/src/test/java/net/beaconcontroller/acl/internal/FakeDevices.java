package net.beaconcontroller.acl.internal;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import net.beaconcontroller.acl.AclRule;
import net.beaconcontroller.acl.AclRules;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.topology.SwitchPort;

/** Hosts as a test puts them (only {@link #getDevices} is what the ACL reads), and rules to test with. */
final class FakeDevices implements IDeviceManager {
    final List<Device> hosts = new CopyOnWriteArrayList<>();
    /** How often {@link #getDevices} was asked. */
    final AtomicInteger listed = new AtomicInteger();

    static Device host(int ip, long dpid) {
        var now = Instant.now();
        return new Device(ip & 0xffff, Device.NO_VLAN, Set.of(ip), new SwitchPort(dpid, 1), now, now);
    }

    /** The rule of Floodlight's POST keys {@code kv} (key, value, key, value…), kept under {@code id}. */
    static AclRule rule(int id, String... kv) {
        var m = new HashMap<String, String>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return AclRules.parse(m).withId(id);
    }

    @Override
    public Collection<Device> getDevices() {
        listed.incrementAndGet();
        return List.copyOf(hosts);
    }

    @Override
    public Optional<Device> getDevice(long mac, int vlan) {
        return hosts.stream().filter(d -> d.mac() == mac && d.vlan() == vlan).findFirst();
    }

    @Override
    public Collection<Device> getDevicesByMac(long mac) {
        return hosts.stream().filter(d -> d.mac() == mac).toList();
    }

    @Override
    public Collection<Device> getDevicesByIpv4(int ipv4) {
        return hosts.stream().filter(d -> d.ipv4().contains(ipv4)).toList();
    }

    @Override
    public Collection<Device> getDevicesAt(SwitchPort port) {
        return hosts.stream().filter(d -> d.attachment().equals(port)).toList();
    }

    @Override
    public Collection<Device> getDevicesOn(long dpid) {
        return hosts.stream().filter(d -> d.attachment().dpid() == dpid).toList();
    }
}
