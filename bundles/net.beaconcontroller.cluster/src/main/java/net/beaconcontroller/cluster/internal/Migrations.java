package net.beaconcontroller.cluster.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.cluster.ICluster.Migration;
import net.beaconcontroller.util.Dpids;

/**
 * The four-phase switch migration (ElastiCon), on both ends: the old master runs it ({@link Departures}), the target
 * follows it ({@link Arrivals}). Each side gives up after its timeout, and at once when the other side leaves the
 * cluster (see {@link #memberLeft}). Moves asked here start here, or at the switch's master, whose answer is the masters
 * map naming the target ({@link MoveWatch}).
 *
 * <p>Confined to the member's thread (the coordinator): the other members' steps, the switches' answers and the
 * timeouts are posted to it. The exception is the hand-over point, judged on the switch's I/O thread, where the marker
 * is written and passes (see {@link Departures}).
 */
final class Migrations {
    private static final Logger log = LoggerFactory.getLogger(Migrations.class);

    /** A move asked while a migration to this member was still being granted. */
    private record Waiter(String target, CompletableFuture<Migration> result) { }

    private final Peers peers;
    private final MoveWatch watch;
    private final Departures departures;
    private final Arrivals arrivals;
    /** Moves waiting for a migration to this member to end, by switch. */
    private final Map<Long, List<Waiter>> afterIncoming = new HashMap<>();

    Migrations(Peers peers) {
        this.peers = peers;
        this.watch = new MoveWatch(peers);
        this.departures = new Departures(peers);
        this.arrivals = new Arrivals(peers, this::incomingEnded);
    }

    /** The masters map's event for a switch, on the member's thread: a move run elsewhere may be done. */
    void masterChanged(long dpid, String master) {
        watch.masterChanged(dpid, master);
    }

    /** The whole map was replaced (a merge), without an event per switch. */
    void mastersReplaced() {
        watch.recheck();
    }

    /** Whether the switch is moving to or from this member: its roles are the migration's to set. */
    boolean migrating(long dpid) {
        return departures.has(dpid) || arrivals.has(dpid);
    }

    /** Any thread. */
    boolean anyIncoming() {
        return arrivals.any();
    }

    /**
     * On the member's thread: see {@link net.beaconcontroller.cluster.ICluster#migrate}.
     *
     * @param master    the switch's master as the masters map had it a moment ago, or null
     * @param connected the live members connected to the switch, by their reports
     */
    void migrate(long dpid, String target, String master, Set<String> connected, CompletableFuture<Migration> result) {
        if (master == null) {
            throw new IllegalArgumentException("switch " + Dpids.toString(dpid) + " is not connected to the cluster");
        }
        if (!connected.contains(target)) {
            throw new IllegalArgumentException("member " + peers.describe(target) + " is not connected to switch "
                    + Dpids.toString(dpid));
        }
        if (master.equals(target)) {
            result.complete(new Migration(dpid, master, target, Duration.ZERO));
        } else if (master.equals(peers.self())) {
            startAsMaster(dpid, target, result);
        } else {
            peers.send(master, new Message.Migrate(dpid, peers.self(), target));
            watch.await(dpid, master, target, result);
        }
    }

    /** Another member asked this one, the switch's master, to move it. */
    void migrateAsked(Message.Migrate m) {
        var run = new CompletableFuture<Migration>();
        startAsMaster(m.dpid(), m.target(), run);
        run.whenComplete((done, e) -> {
            if (e != null) {
                log.warn("cluster: migration of switch {} to {} failed: {}", Dpids.toString(m.dpid()),
                        peers.describe(m.target()), e.getMessage());
            }
        });
    }

    /**
     * Runs a migration this member masters the switch for. The map names a migration's target a moment before the
     * switch has granted it MASTER (the last phase): a request in that moment, such as a move asked right after the
     * one to this member, waits for the grant (at most the migration timeout) instead of failing.
     */
    private void startAsMaster(long dpid, String target, CompletableFuture<Migration> result) {
        if (!arrivals.has(dpid)) {
            startNow(dpid, target, result);
            return;
        }
        var waiter = new Waiter(target, result);
        afterIncoming.computeIfAbsent(dpid, k -> new ArrayList<>()).add(waiter);
        peers.after(peers.timeout().toMillis(), () -> {
            var waiting = afterIncoming.get(dpid);
            if (waiting != null && waiting.remove(waiter)) {
                if (waiting.isEmpty()) {
                    afterIncoming.remove(dpid);
                }
                startNow(dpid, target, result);
            }
        });
    }

    /** A migration to this member ended (granted, given up, or the switch left): moves asked meanwhile go on. */
    private void incomingEnded(long dpid) {
        var waiting = afterIncoming.remove(dpid);
        if (waiting != null) {
            waiting.forEach(w -> startNow(dpid, w.target(), w.result()));
        }
    }

    private void startNow(long dpid, String target, CompletableFuture<Migration> result) {
        departures.start(dpid, target).whenComplete((m, e) -> {
            if (e != null) {
                result.completeExceptionally(e);
            } else {
                result.complete(m);
            }
        });
    }

    /** A step of a migration, from the other end. */
    void received(Message.Step s) {
        switch (s.phase()) {
            case PREPARE -> arrivals.prepare(s);
            case READY -> departures.ready(s);
            case DONE -> arrivals.done(s);
            case COMPLETE -> departures.complete(s);
            case ABORT -> {
                if (!departures.aborted(s)) {
                    arrivals.aborted(s);
                }
            }
        }
    }

    /** A member left: migrations with it are given up at once. */
    void memberLeft(String member) {
        departures.memberLeft(member);
        arrivals.memberLeft(member);
    }

    /** Back from a split: every migration under way is given up (the merged map decides). */
    void giveUpAll(String why) {
        departures.giveUpAll(why);
        arrivals.giveUpAll();
    }

    /** The switch disconnected from this member. */
    void switchRemoved(long dpid) {
        departures.switchRemoved(dpid);
        arrivals.switchRemoved(dpid);
    }

    /** The member stops: migrations it runs are given up (and said so, while it can still send), then forgotten. */
    void stop(boolean canSend) {
        departures.stop(canSend);
        arrivals.stop();
        afterIncoming.values().forEach(waiting -> waiting.forEach(w -> w.result().completeExceptionally(
                new IllegalStateException("the cluster stopped"))));
        afterIncoming.clear();
        watch.stop();
    }

    /** Any thread. */
    List<Migration> recent() {
        return departures.recent();
    }
}
