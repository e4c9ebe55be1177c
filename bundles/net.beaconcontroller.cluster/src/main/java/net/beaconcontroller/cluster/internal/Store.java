package net.beaconcontroller.cluster.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.map.IMap;

import net.beaconcontroller.util.Threads;
import net.beaconcontroller.cluster.ICluster.Migration;
import net.beaconcontroller.openflow.vendor.NiciraRole;
import net.beaconcontroller.util.Dpids;

/**
 * This member's reads and writes of the shared maps, on a thread of their own: its report, the oldest member's
 * decisions (a master for every switch that has no live one, balancing rounds) and the view of the masters map that
 * the coordinator's roles follow. Hazelcast makes a caller wait while a partition it needs moves, for seconds after a
 * member died; the coordinator thread, which takes over a dead member's switches, retries forwarded writes and answers
 * the switches' role replies, must not wait behind it. Everything here but {@link #round}'s coalescing flag belongs
 * to this thread.
 */
final class Store {
    private static final Logger log = LoggerFactory.getLogger(Store.class);
    /** After a member joined or a connection appeared, a balancing round once the newcomers' handshakes are over. */
    private static final long BALANCE_DELAY_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** After a balancing move failed (often a target still in its handshake): another round soon. */
    private static final long RETRY_BALANCE_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * The masters map for the switches connected here, read at {@code readAt} (System.nanoTime, taken before the read),
     * and those another member holds MASTER at although the map gives them to this one.
     */
    record View(Map<Long, String> masters, Set<Long> contested, long readAt) { }

    private final Members members;
    private final IMap<Long, String> masters;
    private final Reports reports;
    private final IMap<String, Boolean> leaving;
    private final Supplier<String> self;
    private final Switches switches;
    private final Supplier<ClusterConfig> config;
    private final BiFunction<Long, String, CompletionStage<Migration>> migrate;
    private final BooleanSupplier handingOff;
    /** Switch to the switches it has links to, as the topology app knows them (empty without it). */
    private final Supplier<Map<Long, Set<Long>>> neighbours;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(
            r -> Threads.named(r, "beacon-cluster-store"));
    /** A round is queued and has not started: another request joins it. Any thread. */
    private final AtomicBoolean roundQueued = new AtomicBoolean();

    private final Mastership mastership = new Mastership();
    private long lastBalance = System.nanoTime();
    /** When the next balancing round is due (System.nanoTime), or Long.MAX_VALUE for none. */
    private long balanceAt = Long.MAX_VALUE;
    private CompletionStage<?> balancing = CompletableFuture.completedFuture(null);
    private int knownConnections;
    /** The masters map at the last balancing round, and when each switch was seen with another master (nanoTime). */
    private Map<Long, String> lastMasters = Map.of();
    private final Map<Long, Long> movedAt = new HashMap<>();
    private String lastFailure;
    private long lastFailureLogged;

    Store(Members members, IMap<Long, String> masters, Reports reports, IMap<String, Boolean> leaving,
            Supplier<String> self, Switches switches, Supplier<ClusterConfig> config,
            BiFunction<Long, String, CompletionStage<Migration>> migrate, BooleanSupplier handingOff,
            Supplier<Map<Long, Set<Long>>> neighbours) {
        this.members = members;
        this.masters = masters;
        this.reports = reports;
        this.leaving = leaving;
        this.self = self;
        this.switches = switches;
        this.config = config;
        this.migrate = migrate;
        this.handingOff = handingOff;
        this.neighbours = neighbours;
    }

    void close() {
        thread.shutdownNow();
    }

    /**
     * Runs a task on this thread. A failure is said once a minute per kind: Hazelcast fails operations while members
     * come and go and the next round tries again, but a failure that lasts must be seen.
     */
    void execute(Runnable task) {
        try {
            thread.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    var what = e.getClass().getSimpleName() + ": " + e.getMessage();
                    long now = System.nanoTime();
                    if (!what.equals(lastFailure) || now - lastFailureLogged > TimeUnit.MINUTES.toNanos(1)) {
                        log.warn("cluster: reading or writing the shared maps failed (tried again each round): {}",
                                what);
                        lastFailure = what;
                        lastFailureLogged = now;
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            // stopped
        }
    }

    /**
     * One round: this member's report, the oldest member's decisions, then a fresh view for the coordinator. Requests
     * while one is queued join it; one while a round runs queues the next, so a view is never older than the request.
     */
    void round(Consumer<View> then) {
        if (!roundQueued.compareAndSet(false, true)) {
            return;
        }
        execute(() -> {
            roundQueued.set(false);
            publish();
            if (members.isOldest() && members.quorum()) {
                decide();
            }
            then.accept(view());
        });
    }

    /** Writes this member's report: its switches, the role each granted it, their load. This thread. */
    void publish() {
        reports.publish(self.get(), switches);
    }

    /** Writes this member's report soon, on this thread: a switch granted a role, or the switches changed. */
    void publishSoon() {
        execute(this::publish);
    }

    /** Gives a switch that is no longer connected here back to the oldest member's choice. */
    void giveBack(long dpid) {
        execute(() -> {
            if (switches.get(dpid) == null) {
                publish();
                masters.remove(dpid, self.get());
            }
        });
    }

    /** A balancing round soon (a member joined, the cluster merged). */
    void balanceSoon() {
        execute(() -> balanceAt = Math.min(balanceAt, System.nanoTime() + BALANCE_DELAY_NANOS));
    }

    /** The balancing round under way, if this member started one: a member leaving waits for it. */
    CompletableFuture<CompletionStage<?>> balancing() {
        var result = new CompletableFuture<CompletionStage<?>>();
        execute(() -> result.complete(balancing));
        return result;
    }

    /**
     * A member left: the oldest member decides right away, and the member's report goes. Here, not on the coordinator:
     * both wait while Hazelcast re-homes the partitions the dead member owned, and the coordinator must take its
     * switches over meanwhile.
     *
     * @param majority whether the coordinator saw a majority (then the oldest decides)
     */
    void memberLeft(String gone, boolean majority) {
        execute(() -> {
            if (majority && members.isOldest() && members.quorum()) {
                reconcile();
            }
        });
        execute(() -> reports.remove(gone)); // a task of its own: a failed decision must not keep the report
    }

    private View view() {
        long readAt = System.nanoTime();
        var dpids = switches.dpids();
        if (dpids.isEmpty()) {
            return new View(Map.of(), Set.of(), readAt);
        }
        var now = masters.getAll(dpids);
        var live = members.live();
        return new View(now, Mastership.contested(self.get(), live, reports.live(live), now), readAt);
    }

    private void decide() {
        var read = reconcile();
        long now = System.nanoTime();
        // A member's new connections are seen here first: any member's handshake, not only the oldest's.
        int connections = read.values().stream().mapToInt(r -> r.switches().size()).sum();
        if (connections > knownConnections) {
            balanceAt = Math.min(balanceAt, now + BALANCE_DELAY_NANOS);
        }
        knownConnections = connections;
        var c = config.get();
        boolean periodic = c.balancePeriod() > 0 && now - lastBalance >= TimeUnit.SECONDS.toNanos(c.balancePeriod());
        if (!handingOff.getAsBoolean() && c.balancePeriod() > 0 && (periodic || now >= balanceAt)) {
            lastBalance = now;
            balanceAt = Long.MAX_VALUE;
            balance(c);
        }
    }

    /**
     * The oldest member, with a majority: every switch a live master connected to it (see {@link Mastership}).
     *
     * @return the live members' reports it decided on
     */
    private Map<String, MemberReport> reconcile() {
        var live = members.live();
        var current = new HashMap<>(masters); // before the reports: a claim is made after its report is written
        noteMoves(current);
        var byMember = reports.live(live);
        var gone = leaving.keySet();
        for (var change : mastership.decide(live, gone, byMember, current, System.nanoTime())) {
            long dpid = change.dpid();
            // Conditional: a migration may have named a new master since the snapshot.
            boolean done = change.to() == null ? masters.remove(dpid, change.from())
                    : change.from() == null ? masters.putIfAbsent(dpid, change.to()) == null
                    : masters.replace(dpid, change.from(), change.to());
            if (done && change.to() != null) {
                log.info("cluster: switch {} mastered by {} (was {})", Dpids.toString(dpid),
                        members.describe(change.to()), change.from() == null ? "none" : members.describe(change.from()));
            }
        }
        return byMember;
    }

    /**
     * Notes the switches whose master changed since the last round (this member's rounds run every
     * {@link Coordinator#TICK_MILLIS} on the oldest member, so a move by hand is seen within one; a balancing round,
     * which used to be the only one to look, could take a switch moved just before it for one that had not moved).
     */
    private void noteMoves(Map<Long, String> current) {
        long now = System.nanoTime();
        current.forEach((dpid, master) -> {
            var before = lastMasters.get(dpid);
            if (before != null && !before.equals(master)) {
                movedAt.put(dpid, now);
            }
        });
        movedAt.keySet().retainAll(current.keySet());
        lastMasters = Map.copyOf(current);
    }

    /**
     * The switches whose master changed in the last two balancing periods, as far as this member's rounds saw: they are
     * left where they are by the neighbourhood rule.
     */
    private Set<Long> settling(ClusterConfig c) {
        long now = System.nanoTime();
        long window = 2 * TimeUnit.SECONDS.toNanos(c.balancePeriod());
        var settling = new HashSet<Long>();
        movedAt.forEach((dpid, at) -> {
            if (now - at < window) {
                settling.add(dpid);
            }
        });
        return settling;
    }

    /** One round of moves towards balance, run together (see {@link Balancer#planAll}). */
    private void balance(ClusterConfig c) {
        if (!balancing.toCompletableFuture().isDone()) {
            return;
        }
        var live = members.live();
        var byMember = reports.live(live);
        var connections = new HashMap<Long, Set<String>>();
        var rates = new HashMap<Long, Long>();
        for (var r : byMember.values()) {
            for (var sw : r.switches()) {
                connections.computeIfAbsent(sw.dpid(), k -> new HashSet<>()).add(r.member());
                if (sw.role() == NiciraRole.MASTER) {
                    rates.put(sw.dpid(), sw.rate());
                }
            }
        }
        var current = new HashMap<>(masters);
        noteMoves(current);
        var moves = Balancer.planAll(Mastership.targets(live, leaving.keySet()), current, connections, rates,
                c.highWater(), c.lowWater(), neighbours.get(), settling(c));
        var runs = new ArrayList<CompletableFuture<?>>();
        for (var m : moves) {
            log.info("cluster: balancing: switch {} from {} to {}", Dpids.toString(m.dpid()),
                    members.describe(m.from()), members.describe(m.to()));
            runs.add(migrate.apply(m.dpid(), m.to()).toCompletableFuture().exceptionally(e -> {
                log.warn("cluster: balancing move of switch {} failed: {}", Dpids.toString(m.dpid()), e.getMessage());
                execute(() -> balanceAt = Math.min(balanceAt, System.nanoTime() + RETRY_BALANCE_NANOS));
                return null;
            }));
        }
        balancing = CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new));
    }
}
