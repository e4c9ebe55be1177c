package net.beaconcontroller.cluster.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import net.beaconcontroller.cluster.ICluster;

/**
 * The cluster as the console, the REST API, the web UI and the metrics see it ({@link ICluster}): read from the shared
 * maps and Hazelcast's member list when asked, on the caller's thread (before the member has joined and after it has
 * stopped: no members, no masters); and the one way to start a migration.
 */
final class ClusterView implements ICluster {
    private final Membership member;
    private final Supplier<ClusterConfig> settings;
    private final Migrations migrations;
    private final Coordinator coordinator;

    ClusterView(Membership member, Supplier<ClusterConfig> settings, Migrations migrations, Coordinator coordinator) {
        this.member = member;
        this.settings = settings;
        this.migrations = migrations;
        this.coordinator = coordinator;
    }

    @Override
    public String localMemberId() {
        return member.self();
    }

    @Override
    public List<Member> members() {
        var j = member.joined();
        if (j == null) {
            return List.of();
        }
        var all = j.hz().getCluster().getMembers();
        var byMember = j.reports().live(all.stream().map(m -> m.getUuid().toString()).toList());
        var result = new ArrayList<Member>();
        boolean first = true;
        for (var m : all) {
            var id = m.getUuid().toString();
            var report = byMember.get(id);
            result.add(new Member(id, Members.address(m), m.localMember(), first,
                    report == null ? 0 : report.masteredRate(), report == null ? -1 : report.cpu()));
            first = false;
        }
        return result;
    }

    @Override
    public Map<Long, String> masters() {
        var j = member.joined();
        return j == null ? Map.of() : new TreeMap<>(j.masters());
    }

    /**
     * The one way a migration starts: from the console, REST, the balancer and the hand-off alike. What the move
     * starts from (who masters the switch, who is connected to it) is read on the store's thread, as every read of the
     * shared maps is; the move runs on the coordinator.
     */
    @Override
    public CompletionStage<Migration> migrate(long dpid, String target) {
        var result = new CompletableFuture<Migration>();
        var j = member.joined();
        if (j == null) {
            result.completeExceptionally(new IllegalStateException("this member has not joined a cluster"));
            return result;
        }
        j.store().execute(() -> {
            try {
                var to = j.members().resolve(target);
                var master = j.masters().get(dpid);
                var connected = j.connectedTo(dpid);
                // A call, not a task: should the member stop first, the caller is told.
                coordinator.call(() -> {
                    migrations.migrate(dpid, to, master, connected, result);
                    return null;
                }).whenComplete((v, e) -> {
                    if (e != null) {
                        result.completeExceptionally(e);
                    }
                });
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    @Override
    public int membersNeeded() {
        var j = member.joined();
        if (j == null) {
            return 1;
        }
        long total = j.reports().live(j.members().live()).values().stream().mapToLong(MemberReport::masteredRate)
                .sum();
        var c = settings.get();
        long perMember = Math.max(1, ((long) c.highWater() + c.lowWater()) / 2);
        return (int) Math.max(1, (total + perMember - 1) / perMember);
    }

    @Override
    public boolean settled() {
        var j = member.joined();
        var node = j == null ? null : Internals.node(j.hz());
        // Read here only: isLocalMemberSafe and isPartitionTableSafe ask other members and wait for them, which a
        // console command or /metrics must not do while a member is frozen.
        return node != null && !node.partitionService.hasOnGoingMigrationLocal();
    }

    @Override
    public List<Migration> recentMigrations() {
        return migrations.recent();
    }
}
