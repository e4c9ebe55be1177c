package net.beaconcontroller.devicemanager.internal;

import net.beaconcontroller.devicemanager.Device;

/**
 * A host as the store keeps it: its published record plus the move history that anti-flapping needs, replaced whole
 * like the record.
 *
 * @param device      what readers see
 * @param windowStart epoch second the current one-minute move window began
 * @param moves       moves accepted in that window
 * @param writer      in a cluster, the member whose record this is (it learned the host's latest change); otherwise 0
 * @param version     counts the host's changes across the cluster: one more than the record it replaced (a Lamport
 *                    clock), so a change made after seeing another member's record wins over it in every member
 */
record Tracked(Device device, long windowStart, int moves, long writer, long version) {
}
