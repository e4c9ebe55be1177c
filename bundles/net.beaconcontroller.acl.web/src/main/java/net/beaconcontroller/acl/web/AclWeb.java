package net.beaconcontroller.acl.web;

import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import net.beaconcontroller.acl.IAcl;
import net.beaconcontroller.web.IWebManageable;
import net.beaconcontroller.web.Metrics;
import net.beaconcontroller.web.Page;

/** The ACL's REST endpoints, Floodlight v1.2's {@code /wm/acl/...}, its page and its counters in /metrics. */
@Component
public final class AclWeb implements IWebManageable {
    private final IAcl acl;
    private final List<Object> controllers;

    @Activate
    public AclWeb(@Reference IAcl acl) {
        this.acl = acl;
        controllers = List.of(new AclController(acl));
    }

    @Override
    public List<Object> controllers() {
        return controllers;
    }

    /** Beside the static flows page (50): the other pages that decide what traffic may pass. */
    @Override
    public List<Page> pages() {
        return List.of(new Page("acl", "ACL", 54, "ui/acl.js"));
    }

    @Override
    public Map<String, Object> summary() {
        return Map.of("# ACL rules", acl.getRules().size());
    }

    @Override
    public void metrics(Metrics metrics) {
        var c = acl.getCounters();
        metrics.gauge("beacon_acl_rules", "ACL rules.").add(acl.getRules().size());
        metrics.gauge("beacon_acl_flows", "ACL static flows (ACLRule_<id>_<dpid>) on every switch.").add(c.flows());
        metrics.counter("beacon_acl_flows_installed_total", "ACL static flows this instance added (a rule, or a host"
                + " inside a rule appearing).").add(c.flowsInstalled());
        metrics.counter("beacon_acl_flows_removed_total", "ACL static flows this instance removed (a rule deleted"
                + " or cleared, a host gone).").add(c.flowsRemoved());
    }
}
