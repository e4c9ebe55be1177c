package net.beaconcontroller.devicemanager;

import java.time.Instant;
import java.util.Objects;
import java.util.Set;

import net.beaconcontroller.topology.SwitchPort;

/**
 * A host as the device manager knows it now: an immutable snapshot, replaced whole when anything about the host
 * changes, so it can be handed to any thread (and, later, kept in a distributed map).
 *
 * @param mac           the host's MAC address, low 48 bits
 * @param vlan          the VLAN it was seen on, or {@link #NO_VLAN} for untagged frames
 * @param ipv4          its IPv4 addresses (from ARP, IPv4 and DHCP), each as a 32-bit int; may be empty
 * @param attachment    the edge port it is attached to (never a port of an inter-switch link)
 * @param firstSeen     when it was first seen
 * @param lastSeen      when it last sent a frame
 */
public record Device(long mac, int vlan, Set<Integer> ipv4, SwitchPort attachment, Instant firstSeen,
        Instant lastSeen) {
    /** {@link #vlan()} of a host seen in untagged frames (OpenFlow 1.0's {@code OFP_VLAN_NONE}). */
    public static final int NO_VLAN = 0xffff;

    public Device {
        if ((mac & ~0xffff_ffff_ffffL) != 0) {
            throw new IllegalArgumentException("a MAC address has 48 bits, not " + Long.toHexString(mac));
        }
        if (vlan != NO_VLAN && (vlan < 0 || vlan > 4095)) {
            throw new IllegalArgumentException("a VLAN id is 0..4095 or NO_VLAN, not " + vlan);
        }
        ipv4 = Set.copyOf(ipv4);
        Objects.requireNonNull(attachment, "attachment");
        Objects.requireNonNull(firstSeen, "firstSeen");
        Objects.requireNonNull(lastSeen, "lastSeen");
    }
}
