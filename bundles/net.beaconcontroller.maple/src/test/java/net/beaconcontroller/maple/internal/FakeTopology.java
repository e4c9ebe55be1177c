package net.beaconcontroller.maple.internal;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The topology of a loop-free {@link FakeNetwork}: a port is an edge port unless a link leaves it, and broadcasts go
 * out of every host and link port (a tree is its own spanning tree).
 */
final class FakeTopology implements ITopology {
    private final FakeNetwork net;

    FakeTopology(FakeNetwork net) {
        this.net = net;
    }

    @Override
    public Map<Link, Instant> getLinks() {
        var links = new HashMap<Link, Instant>();
        net.links.values().forEach(l -> links.put(l, Instant.EPOCH));
        return links;
    }

    @Override
    public boolean isEdgePort(long dpid, int port) {
        return !net.links.containsKey(new SwitchPort(dpid, port));
    }

    @Override
    public Set<Set<Long>> getIslands() {
        return Set.of(Set.copyOf(net.switches));
    }

    @Override
    public Set<Integer> getBroadcastPorts(long dpid) {
        var ports = new TreeSet<Integer>();
        net.hosts.values().stream().filter(p -> p.dpid() == dpid).forEach(p -> ports.add(p.port()));
        net.links.keySet().stream().filter(p -> p.dpid() == dpid).forEach(p -> ports.add(p.port()));
        return ports;
    }

    @Override
    public boolean isSettled() {
        return true;
    }
}
