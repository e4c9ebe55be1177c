package net.beaconcontroller.devicemanager;

/**
 * What the device manager counted since it started.
 *
 * @param malformedArp    ARP frames it could not use (truncated, not Ethernet/IPv4, unknown operation)
 * @param malformedDhcp   DHCP datagrams the packet library rejected
 * @param moves           hosts moved to another edge port
 * @param movesSuppressed moves ignored because the host moved too often (flapping)
 * @param agedOut         hosts removed after not being seen for the idle timeout
 */
public record DeviceCounters(long malformedArp, long malformedDhcp, long moves, long movesSuppressed, long agedOut) {
    public static final DeviceCounters NONE = new DeviceCounters(0, 0, 0, 0, 0);
}
