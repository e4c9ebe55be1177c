package net.beaconcontroller.devicemanager;

import java.util.Collection;
import java.util.Optional;

import net.beaconcontroller.core.ContextKey;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The hosts seen on the network. Reads are safe from any thread and never block the I/O threads that update the view.
 * Changes are told to {@link IDeviceListener} services after this view shows them.
 *
 * <p>While a PACKET_IN runs through the pipeline, the device manager (which runs before routing) leaves the source
 * and destination devices in the message's context under {@link #SRC_DEVICE} and {@link #DST_DEVICE} (absent when
 * unknown), so later listeners need no look-up.
 */
public interface IDeviceManager {
    ContextKey<Device> SRC_DEVICE = ContextKey.of("devicemanager.srcDevice");
    ContextKey<Device> DST_DEVICE = ContextKey.of("devicemanager.dstDevice");

    Collection<Device> getDevices();

    /** The host with this MAC on this VLAN ({@link Device#NO_VLAN} for untagged). */
    Optional<Device> getDevice(long mac, int vlan);

    /** Hosts with this MAC on any VLAN. */
    Collection<Device> getDevicesByMac(long mac);

    /** Hosts that use this IPv4 address (normally one). */
    Collection<Device> getDevicesByIpv4(int ipv4);

    /** Hosts attached to this port. */
    Collection<Device> getDevicesAt(SwitchPort port);

    /** Hosts attached to any port of this switch. */
    Collection<Device> getDevicesOn(long dpid);

    /** What the device manager counted since it started; implementations that count nothing give {@code NONE}. */
    default DeviceCounters getCounters() {
        return DeviceCounters.NONE;
    }
}
