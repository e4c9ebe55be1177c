package net.beaconcontroller.core.internal;

import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * A switch's role as this controller holds it at one moment, for a reconciliation to write under: the switch's I/O
 * thread counts every role change, so a role lost and won back is a different mastership, and writes made for the
 * first are refused.
 *
 * @param epoch the connection's count of role changes
 * @param role  MASTER, or OTHER without a cluster; never SLAVE
 */
record Mastership(int epoch, NiciraRole role) {
}
