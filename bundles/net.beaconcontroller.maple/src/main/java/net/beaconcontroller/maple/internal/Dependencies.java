package net.beaconcontroller.maple.internal;

import java.util.Set;

import net.beaconcontroller.topology.SwitchPort;

/**
 * What in the network a decision depends on: the hosts whose location it read, the ports it read or sends out of,
 * and whether it read a path (which a new link may change).
 */
record Dependencies(Set<Long> hosts, Set<SwitchPort> ports, boolean topology) {
    Dependencies {
        hosts = Set.copyOf(hosts);
        ports = Set.copyOf(ports);
    }
}
