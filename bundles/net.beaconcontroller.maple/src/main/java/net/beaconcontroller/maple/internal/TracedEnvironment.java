package net.beaconcontroller.maple.internal;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import net.beaconcontroller.maple.Environment;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/** The {@link Environment} a policy gets: answers from the real one and records what was read. One per call. */
final class TracedEnvironment implements Environment {
    private final Environment network;
    private final Set<Long> hosts = new HashSet<>();
    private final Set<SwitchPort> ports = new HashSet<>();
    private boolean topology;

    TracedEnvironment(Environment network) {
        this.network = network;
    }

    @Override
    public Optional<SwitchPort> hostLocation(long mac) {
        hosts.add(mac);
        Optional<SwitchPort> at = network.hostLocation(mac);
        at.ifPresent(ports::add);
        return at;
    }

    @Override
    public Optional<List<Link>> path(long src, long dst) {
        topology = true;
        Optional<List<Link>> links = network.path(src, dst);
        links.ifPresent(ls -> ls.forEach(l -> {
            ports.add(l.src());
            ports.add(l.dst());
        }));
        return links;
    }

    /** What was read, plus the ports the route sends out of (a route through a port that goes down is stale). */
    Dependencies dependencies(Iterable<SwitchPort> routePorts) {
        var all = new HashSet<>(ports);
        routePorts.forEach(all::add);
        return new Dependencies(hosts, all, topology);
    }
}
