package net.beaconcontroller.firewall.internal;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.Link;

/** A topology where one port number ends an inter-switch link on every switch and every other port is an edge. */
record StubTopology(int linkPort) implements ITopology {
    @Override
    public Map<Link, Instant> getLinks() {
        return Map.of();
    }

    @Override
    public boolean isEdgePort(long dpid, int port) {
        return port != linkPort;
    }

    @Override
    public Set<Set<Long>> getIslands() {
        return Set.of();
    }

    @Override
    public Set<Integer> getBroadcastPorts(long dpid) {
        return Set.of();
    }

    @Override
    public boolean isSettled() {
        return true;
    }
}
