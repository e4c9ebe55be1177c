package net.beaconcontroller.routing.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import net.beaconcontroller.routing.IRouting;
import net.beaconcontroller.routing.IRoutingEngine;
import net.beaconcontroller.topology.SwitchPort;
import net.beaconcontroller.web.IWebManageable;
import net.beaconcontroller.web.Metrics;
import net.beaconcontroller.util.Dpids;

/**
 * Floodlight's {@code /wm/topology/route/<src-dpid>/<src-port>/<dst-dpid>/<dst-port>/json}, answered by whichever
 * routing engine runs now (engines are swapped at runtime; without one the endpoint says so), and routing's counters
 * in {@code /metrics}.
 */
@Component
@RestController
public final class RoutingWeb implements IWebManageable {
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile IRoutingEngine engine;
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile IRouting routing;

    @Override
    public List<Object> controllers() {
        return List.of(this);
    }

    @Override
    public void metrics(Metrics metrics) {
        var current = routing;
        if (current == null) {
            return;
        }
        var c = current.getCounters();
        metrics.counter("beacon_routing_packet_ins_total", "PACKET_INs routing handled, by what it did with them.")
                .add(c.routed(), "outcome", "routed").add(c.flooded(), "outcome", "flooded")
                .add(c.droppedRepeat(), "outcome", "dropped_repeat")
                .add(c.droppedLoopCopy(), "outcome", "dropped_loop_copy")
                .add(c.droppedBounce(), "outcome", "dropped_bounce");
        metrics.counter("beacon_routing_unroutable_total", "Of the flooded PACKET_INs, those to a known host that"
                + " routing could not route, by reason.").add(c.noRoute(), "reason", "no_route")
                .add(c.noEngine(), "reason", "no_engine");
        metrics.counter("beacon_routing_proxy_arp_replies_total", "ARP requests answered by the controller.")
                .add(c.proxyArpReplies());
    }

    /**
     * The route as Floodlight lists it: for each switch on the way the port the traffic enters by, then the one it
     * leaves by. An unreachable destination gives an empty list (Floodlight answers {@code null}).
     */
    @GetMapping("/wm/topology/route/{srcDpid}/{srcPort}/{dstDpid}/{dstPort}/json")
    List<Map<String, Object>> route(@PathVariable String srcDpid, @PathVariable String srcPort,
            @PathVariable String dstDpid, @PathVariable String dstPort) {
        var src = point(srcDpid, srcPort, "source");
        var dst = point(dstDpid, dstPort, "destination");
        var current = engine;
        if (current == null) {
            throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "no routing engine is running");
        }
        return current.getRoute(src, dst).stream().flatMap(hop -> List.of(
                tuple(hop.dpid(), hop.inPort()), tuple(hop.dpid(), hop.outPort())).stream()).toList();
    }

    private static SwitchPort point(String dpid, String port, String what) {
        try {
            return new SwitchPort(Dpids.parse(dpid), Integer.decode(port));
        } catch (IllegalArgumentException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "bad " + what + " " + dpid + " port " + port
                    + ": " + e.getMessage());
        }
    }

    /** Floodlight v1.2 prints the port as a bean dump of its OFPort: number, short number, wire length. */
    private static Map<String, Object> tuple(long dpid, int port) {
        var p = new LinkedHashMap<String, Object>();
        p.put("portNumber", port);
        p.put("shortPortNumber", port);
        p.put("length", 4);
        var m = new LinkedHashMap<String, Object>();
        m.put("switch", Dpids.toString(dpid));
        m.put("port", p);
        return m;
    }
}
