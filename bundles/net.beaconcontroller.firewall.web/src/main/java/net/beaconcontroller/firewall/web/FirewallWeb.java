package net.beaconcontroller.firewall.web;

import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import net.beaconcontroller.firewall.FirewallRule;
import net.beaconcontroller.firewall.IFirewall;
import net.beaconcontroller.web.IWebManageable;
import net.beaconcontroller.web.Metrics;
import net.beaconcontroller.web.Page;

/** The firewall's REST endpoints, Floodlight v1.2's {@code /wm/firewall/...}, its page and its counters in /metrics. */
@Component
public final class FirewallWeb implements IWebManageable {
    private final IFirewall firewall;
    private final List<Object> controllers;

    @Activate
    public FirewallWeb(@Reference IFirewall firewall) {
        this.firewall = firewall;
        controllers = List.of(new FirewallController(firewall));
    }

    @Override
    public List<Object> controllers() {
        return controllers;
    }

    /** Beside the static flows page (50): the other pages that decide what traffic may pass. */
    @Override
    public List<Page> pages() {
        return List.of(new Page("firewall", "Firewall", 52, "ui/firewall.js"));
    }

    @Override
    public Map<String, Object> summary() {
        return Map.of("# firewall rules", firewall.getRules().size());
    }

    @Override
    public void metrics(Metrics metrics) {
        var rules = firewall.getRules();
        var c = firewall.getCounters();
        metrics.gauge("beacon_firewall_enabled", "1 when the firewall judges packets, 0 when it is off.")
                .add(firewall.isEnabled() ? 1 : 0);
        metrics.gauge("beacon_firewall_rules", "Firewall rules.").add(rules.size());
        var packets = metrics.counter("beacon_firewall_packets_total", "Packets the firewall judged on this instance,"
                + " by the rule that decided (\"broadcast\": an L2 broadcast, \"default\": no rule matched) and the"
                + " verdict.");
        for (var r : rules) {
            packets.add(c.byRule().getOrDefault(r.id(), 0L), "rule", Integer.toString(r.id()), "action",
                    r.action() == FirewallRule.Action.ALLOW ? "allow" : "deny");
        }
        packets.add(c.broadcastAllowed(), "rule", "broadcast", "action", "allow")
                .add(c.broadcastDropped(), "rule", "broadcast", "action", "deny")
                .add(c.defaultDropped(), "rule", "default", "action", "deny");
        metrics.counter("beacon_firewall_flows_deleted_total", "Flows removed from switches because a change of the"
                + " rules or of the on/off state reversed their verdict.").add(c.flowsDeleted());
    }
}
