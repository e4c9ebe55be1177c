package net.beaconcontroller.cluster.web;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import net.beaconcontroller.cluster.ICluster;
import net.beaconcontroller.util.Dpids;
import net.beaconcontroller.web.IWebManageable;
import net.beaconcontroller.web.Metrics;
import net.beaconcontroller.web.Page;

/**
 * The cluster over REST ({@code /wm/beacon/cluster/...}), its page, summary and metrics: present while this instance
 * runs as a cluster member ({@code cluster.enabled=true}).
 */
@Component
@RestController
public final class ClusterWeb implements IWebManageable {
    /** Longer than any migration the cluster lets run (cluster.migrationTimeout is at most 60 s). */
    private static final Duration MIGRATION_WAIT = Duration.ofSeconds(65);

    private final ICluster cluster;

    @Activate
    public ClusterWeb(@Reference ICluster cluster) {
        this.cluster = cluster;
    }

    @Override
    public List<Object> controllers() {
        return List.of(this);
    }

    @Override
    public List<Page> pages() {
        return List.of(new Page("cluster", "Cluster", 60, "ui/cluster.js"));
    }

    @Override
    public Map<String, Object> summary() {
        return Map.of("# cluster members", cluster.members().size());
    }

    @Override
    public void metrics(Metrics metrics) {
        var members = cluster.members();
        var masters = cluster.masters();
        metrics.gauge("beacon_cluster_members", "Members of the cluster this instance belongs to.").add(members.size());
        var mastered = metrics.gauge("beacon_cluster_switches_mastered", "Switches each member masters.");
        members.forEach(m -> mastered.add(masters.values().stream().filter(m.id()::equals).count(), "member",
                m.address()));
        var rate = metrics.gauge("beacon_cluster_packet_in_rate", "PACKET_INs per second each member handles.");
        members.forEach(m -> rate.add(m.packetInRate(), "member", m.address()));
        metrics.gauge("beacon_cluster_members_needed", "Members the cluster needs for its PACKET_IN load (for an"
                + " autoscaler: compare with beacon_cluster_members).").add(cluster.membersNeeded());
        metrics.gauge("beacon_cluster_settled", "1 when the copies of the shared state are settled (a member may"
                + " die without loss), 0 while they move after a join, merge or departure.")
                .add(cluster.settled() ? 1 : 0);
    }

    /** Members with their load, each switch's master, and the migrations this instance ran last. */
    @GetMapping("/wm/beacon/cluster/json")
    Map<String, Object> cluster() {
        var members = cluster.members();
        var masters = cluster.masters();
        var address = new LinkedHashMap<String, String>();
        members.forEach(m -> address.put(m.id(), m.address()));
        var result = new LinkedHashMap<String, Object>();
        result.put("localMember", cluster.localMemberId());
        result.put("membersNeeded", cluster.membersNeeded());
        result.put("settled", cluster.settled());
        result.put("members", members.stream().map(m -> {
            var j = new LinkedHashMap<String, Object>();
            j.put("id", m.id());
            j.put("address", m.address());
            j.put("local", m.local());
            j.put("oldest", m.oldest());
            j.put("switches", masters.values().stream().filter(m.id()::equals).count());
            j.put("packetInRate", m.packetInRate());
            j.put("cpu", m.cpu() < 0 ? null : m.cpu());
            return j;
        }).toList());
        var byDpid = new LinkedHashMap<String, Object>();
        masters.forEach((dpid, id) -> byDpid.put(Dpids.toString(dpid),
                Map.of("member", id, "address", address.getOrDefault(id, "?"))));
        result.put("masters", byDpid);
        result.put("migrations", cluster.recentMigrations().stream().map(ClusterWeb::json).toList());
        return result;
    }

    /** Body {@code {"switch": "<dpid>", "member": "<id, id prefix or host:port>"}}: moves the switch there. */
    @PostMapping("/wm/beacon/cluster/migrate/json")
    CompletableFuture<Map<String, Object>> migrate(@RequestBody Map<String, Object> body) {
        if (!(body.get("switch") instanceof String dpidText) || !(body.get("member") instanceof String member)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                    "expected {\"switch\": \"<dpid>\", \"member\": \"<member id or host:port>\"}");
        }
        long dpid;
        try {
            dpid = Dpids.parse(dpidText);
        } catch (IllegalArgumentException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "bad switch " + dpidText + ": " + e.getMessage());
        }
        return cluster.migrate(dpid, member).toCompletableFuture()
                .orTimeout(MIGRATION_WAIT.toSeconds(), TimeUnit.SECONDS)
                .handle((m, e) -> {
                    if (e == null) {
                        return json(m);
                    }
                    var cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                            ? e.getCause() : e;
                    throw new ResponseStatusException(cause instanceof TimeoutException ? HttpStatus.GATEWAY_TIMEOUT
                            : cause instanceof IllegalArgumentException ? HttpStatus.BAD_REQUEST : HttpStatus.CONFLICT,
                            cause.getMessage());
                });
    }

    private static Map<String, Object> json(ICluster.Migration m) {
        var j = new LinkedHashMap<String, Object>();
        j.put("switch", Dpids.toString(m.dpid()));
        j.put("from", m.from());
        j.put("to", m.to());
        j.put("ms", Math.round(m.took().toNanos() / 1e4) / 100.0);
        return j;
    }
}
