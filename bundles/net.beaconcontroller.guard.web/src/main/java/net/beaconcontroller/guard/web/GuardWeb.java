package net.beaconcontroller.guard.web;

import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import net.beaconcontroller.guard.IGuard;
import net.beaconcontroller.util.Dpids;
import net.beaconcontroller.web.IWebManageable;
import net.beaconcontroller.web.Metrics;

/** The PACKET_IN guard's counters in /metrics and the summary; it has no REST endpoints. */
@Component
public final class GuardWeb implements IWebManageable {
    private final IGuard guard;

    @Activate
    public GuardWeb(@Reference IGuard guard) {
        this.guard = guard;
    }

    @Override
    public List<Object> controllers() {
        return List.of();
    }

    @Override
    public Map<String, Object> summary() {
        return Map.of("# PACKET_INs dropped by the guard", guard.getCounters().dropped());
    }

    @Override
    public void metrics(Metrics metrics) {
        metrics.gauge("beacon_guard_enabled", "1 when the PACKET_IN guard judges PACKET_INs, 0 when it is off.")
                .add(guard.isEnabled() ? 1 : 0);
        var ports = guard.getCounters().ports();
        var dropped = metrics.counter("beacon_guard_packet_ins_dropped_total", "PACKET_INs the guard dropped at the"
                + " controller, by switch, in_port and the budget that ran out (\"port\": the port's, or its drop flow"
                + " not in effect yet; \"switch\": the whole switch's). Only ports that ever went over a budget.");
        for (var p : ports) {
            dropped.add(p.droppedByPort(), "dpid", Dpids.toString(p.dpid()), "port", Integer.toString(p.port()),
                    "budget", "port");
            dropped.add(p.droppedBySwitch(), "dpid", Dpids.toString(p.dpid()), "port", Integer.toString(p.port()),
                    "budget", "switch");
        }
        // Each family's samples together: the exposition writes them as they are added.
        var flows = metrics.counter("beacon_guard_drop_flows_total", "Drop flows the guard installed, by switch and"
                + " port: one per block of dropSeconds.");
        for (var p : ports) {
            flows.add(p.dropFlows(), "dpid", Dpids.toString(p.dpid()), "port", Integer.toString(p.port()));
        }
        var episodes = metrics.counter("beacon_guard_episodes_total", "Guard episodes (a port over budget, blocked"
                + " until it stays within it; logged once each), by switch and port.");
        for (var p : ports) {
            episodes.add(p.episodes(), "dpid", Dpids.toString(p.dpid()), "port", Integer.toString(p.port()));
        }
    }
}
