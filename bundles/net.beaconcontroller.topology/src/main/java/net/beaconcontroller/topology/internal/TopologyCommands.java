package net.beaconcontroller.topology.internal;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import net.beaconcontroller.util.Dpids;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/** The {@code beacon:links} console command. */
@Component(service = TopologyCommands.class, property = {"osgi.command.scope=beacon", "osgi.command.function=links"})
public final class TopologyCommands {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());
    private static final Comparator<SwitchPort> PORT_ORDER = Comparator.comparing(SwitchPort::dpid,
            Long::compareUnsigned).thenComparingInt(SwitchPort::port);

    private final ITopology topology;

    @Activate
    public TopologyCommands(@Reference ITopology topology) {
        this.topology = topology;
    }

    /** {@code beacon:links}: every link (both directions separately), the islands, the discovery counters. */
    public String links() {
        var sb = new StringBuilder();
        var links = topology.getLinks();
        sb.append(String.format("%-27s  %-27s  %-19s  %s%n", "SOURCE", "DESTINATION", "FIRST SEEN", "DIRECTION"));
        links.keySet().stream().sorted(Comparator.comparing(Link::src, PORT_ORDER).thenComparing(Link::dst, PORT_ORDER))
                .forEach(l -> sb.append(String.format("%-27s  %-27s  %-19s  %s%n", l.src(), l.dst(),
                        TIME.format(links.get(l)), links.containsKey(l.reverse()) ? "bidirectional"
                                : "unidirectional")));
        sb.append(links.size()).append(" link(s)").append(System.lineSeparator());
        var islands = topology.getIslands();
        sb.append(islands.size()).append(" island(s)").append(topology.isSettled() ? ", settled" : ", not settled")
                .append(System.lineSeparator());
        islands.stream().map(TopologyCommands::sorted).sorted(Comparator.comparing(i -> i.get(0), Long::compareUnsigned))
                .forEach(i -> sb.append("  ").append(String.join(" ", i.stream().map(Dpids::toString).toList()))
                        .append(System.lineSeparator()));
        var c = topology.getDiscoveryCounters();
        sb.append(String.format("probes sent %d, accepted %d; LLDP ignored %d: malformed %d, foreign %d, forged %d,"
                + " stale %d, unknown port %d", c.probesSent(), c.probesAccepted(), c.ignored(), c.malformed(),
                c.foreign(), c.forged(), c.stale(), c.unknownPort()));
        return sb.toString();
    }

    private static List<Long> sorted(Set<Long> island) {
        return island.stream().sorted(Long::compareUnsigned).toList();
    }
}
