package net.beaconcontroller.topology.web;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.util.Dpids;

/**
 * Floodlight's {@code /wm/topology/links}, {@code directed-links} and {@code switchclusters}, and Beacon's
 * {@code /wm/beacon/topology/json} (whether discovery has settled, and its counters).
 */
@RestController
final class TopologyController {
    private static final Comparator<Link> ORDER = Comparator.<Link>comparingLong(l -> l.src().dpid())
            .thenComparingInt(l -> l.src().port()).thenComparingLong(l -> l.dst().dpid())
            .thenComparingInt(l -> l.dst().port());

    private final ITopology topology;

    TopologyController(ITopology topology) {
        this.topology = topology;
    }

    /**
     * Each cable once: a link seen both ways appears as the direction from the lower DPID (the lower port on one
     * switch) with {@code "bidirectional"}; a link seen one way only appears as it is, {@code "unidirectional"}.
     */
    @GetMapping("/wm/topology/links/json")
    List<Map<String, Object>> links() {
        var links = topology.getLinks().keySet();
        return links.stream().filter(l -> !links.contains(l.reverse()) || ORDER.compare(l, l.reverse()) < 0)
                .sorted(ORDER).map(l -> json(l, links.contains(l.reverse()) ? "bidirectional" : "unidirectional"))
                .toList();
    }

    @GetMapping("/wm/topology/directed-links/json")
    List<Map<String, Object>> directedLinks() {
        return topology.getLinks().keySet().stream().sorted(ORDER).map(l -> json(l, "unidirectional")).toList();
    }

    /** Each island keyed by its lowest DPID, as Floodlight names a cluster. */
    @GetMapping("/wm/topology/switchclusters/json")
    Map<String, List<String>> clusters() {
        var m = new TreeMap<Long, List<String>>(Long::compareUnsigned);
        for (var island : topology.getIslands()) {
            var dpids = island.stream().sorted(Long::compareUnsigned).toList();
            m.put(dpids.get(0), dpids.stream().map(Dpids::toString).toList());
        }
        var out = new LinkedHashMap<String, List<String>>();
        m.forEach((id, dpids) -> out.put(Dpids.toString(id), dpids));
        return out;
    }

    @GetMapping("/wm/beacon/topology/json")
    Map<String, Object> discovery() {
        var m = new LinkedHashMap<String, Object>();
        m.put("settled", topology.isSettled());
        m.put("links", topology.getLinks().size());
        m.put("islands", topology.getIslands().size());
        m.put("counters", topology.getDiscoveryCounters());
        return m;
    }

    static Map<String, Object> json(Link l, String direction) {
        var m = new LinkedHashMap<String, Object>();
        m.put("src-switch", Dpids.toString(l.src().dpid()));
        m.put("src-port", l.src().port());
        m.put("dst-switch", Dpids.toString(l.dst().dpid()));
        m.put("dst-port", l.dst().port());
        m.put("type", "internal");
        m.put("direction", direction);
        return m;
    }
}
