package net.beaconcontroller.cluster.internal;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

import net.beaconcontroller.cluster.ICluster;
import net.beaconcontroller.util.Dpids;

/** {@code beacon:cluster} and {@code beacon:migrate}. */
@Component(service = ClusterCommands.class, property = {"osgi.command.scope=beacon", "osgi.command.function=cluster",
        "osgi.command.function=migrate"})
public final class ClusterCommands {
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    private volatile ICluster cluster;

    /** {@code beacon:cluster}: the members, their load, and each switch's master. */
    public String cluster() {
        var c = cluster;
        if (c == null) {
            return "cluster off (cluster.enabled=false): this instance is the only controller of its switches";
        }
        var members = c.members();
        var sb = new StringBuilder();
        sb.append(String.format("%-36s  %-21s  %-8s  %8s  %12s  %5s%n", "MEMBER", "ADDRESS", "", "SWITCHES",
                "PACKET_IN/S", "CPU"));
        var masters = c.masters();
        for (var m : members) {
            long count = masters.values().stream().filter(m.id()::equals).count();
            var tags = (m.local() ? "this" : "") + (m.oldest() ? (m.local() ? ",oldest" : "oldest") : "");
            sb.append(String.format("%-36s  %-21s  %-8s  %8d  %12d  %5s%n", m.id(), m.address(), tags, count,
                    m.packetInRate(), m.cpu() < 0 ? "-" : String.format("%.0f%%", 100 * m.cpu())));
        }
        sb.append(String.format("%n%-23s  %s%n", "SWITCH", "MASTER"));
        masters.forEach((dpid, id) -> sb.append(String.format("%-23s  %s%n", Dpids.toString(dpid),
                members.stream().filter(m -> m.id().equals(id)).map(ICluster.Member::address).findFirst().orElse(id))));
        sb.append(members.size()).append(" member(s), ").append(masters.size()).append(" switch(es); the load needs ")
                .append(c.membersNeeded()).append(" member(s); ")
                .append(c.settled() ? "shared state copies settled"
                        : "shared state copies moving (a death now may lose entries)");
        return sb.toString();
    }

    /** {@code beacon:migrate DPID MEMBER}: moves a switch to a member (id, id prefix or host:port). */
    public String migrate(String dpid, String member) throws InterruptedException {
        var c = cluster;
        if (c == null) {
            return "cluster off: nothing to migrate";
        }
        long id;
        try {
            id = Dpids.parse(dpid);
        } catch (IllegalArgumentException e) {
            return "not a DPID: " + dpid;
        }
        try {
            var m = c.migrate(id, member).toCompletableFuture().get(30, TimeUnit.SECONDS);
            return String.format("switch %s: %s -> %s in %.1f ms", Dpids.toString(m.dpid()), m.from(), m.to(),
                    m.took().toNanos() / 1e6);
        } catch (ExecutionException e) {
            return "migration failed: " + e.getCause().getMessage();
        } catch (TimeoutException e) {
            return "migration still running after 30 s";
        }
    }
}
