package net.beaconcontroller.topology.web;

import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.ITopologyListener;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.web.IWebEvents;
import net.beaconcontroller.web.IWebManageable;
import net.beaconcontroller.web.Page;
import net.beaconcontroller.web.Metrics;

/**
 * The topology's REST endpoints: Floodlight's links and switch clusters, Beacon's discovery state; links coming and
 * going as server push ({@code link-added}, {@code link-removed}, each direction on its own).
 */
@Component(service = {IWebManageable.class, ITopologyListener.class})
public final class TopologyWeb implements IWebManageable, ITopologyListener {
    private final ITopology topology;
    private final IWebEvents events;
    private final List<Object> controllers;

    @Activate
    public TopologyWeb(@Reference ITopology topology, @Reference IWebEvents events) {
        this.topology = topology;
        this.events = events;
        controllers = List.of(new TopologyController(topology));
    }

    @Override
    public void linkAdded(Link link) {
        events.publish("link-added", TopologyController.json(link, "unidirectional"));
    }

    @Override
    public void linkRemoved(Link link) {
        events.publish("link-removed", TopologyController.json(link, "unidirectional"));
    }

    @Override
    public List<Object> controllers() {
        return controllers;
    }

    @Override
    public List<Page> pages() {
        return List.of(new Page("topology", "Topology", 40, "ui/topology.js"));
    }

    /** Floodlight counts a cable (both directions) once, and the ports it holds back from flooding. */
    @Override
    public Map<String, Object> summary() {
        return Map.of("# inter-switch links", topology.getLinks().size() / 2,
                "# quarantine ports", topology.getQuarantinedPorts().size());
    }

    @Override
    public void metrics(Metrics metrics) {
        metrics.gauge("beacon_links", "Links between switches, each direction counted.")
                .add(topology.getLinks().size());
        metrics.gauge("beacon_islands", "Sets of switches connected by links.").add(topology.getIslands().size());
        metrics.gauge("beacon_topology_settled", "1 when no port is in quarantine, else 0.")
                .add(topology.isSettled() ? 1 : 0);
        metrics.gauge("beacon_topology_quarantined_ports", "Ports in quarantine (new, or their link timed out): out of broadcasts, unless on the spanning tree, until probed.")
                .add(topology.getQuarantinedPorts().size());
        var c = topology.getDiscoveryCounters();
        metrics.counter("beacon_lldp_probes_sent_total", "LLDP probes sent.").add(c.probesSent());
        metrics.counter("beacon_lldp_probes_accepted_total", "LLDP probes that came back authentic and fresh.")
                .add(c.probesAccepted());
        metrics.counter("beacon_lldp_ignored_total", "LLDP frames ignored, by reason.")
                .add(c.malformed(), "reason", "malformed").add(c.foreign(), "reason", "foreign")
                .add(c.forged(), "reason", "forged").add(c.stale(), "reason", "stale")
                .add(c.unknownPort(), "reason", "unknown_port");
    }
}
