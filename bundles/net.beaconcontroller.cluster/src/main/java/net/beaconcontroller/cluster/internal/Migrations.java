package net.beaconcontroller.cluster.internal;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.cluster.ICluster.Migration;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.vendor.NiciraRole;
import net.beaconcontroller.util.Dpids;

/**
 * The four-phase switch migration (ElastiCon), on both ends: the old master runs it ({@link Outgoing}), the target
 * follows it ({@link Incoming}). Each side gives up after its timeout, and at once when the other side leaves the
 * cluster (see {@link #memberLeft}).
 */
final class Migrations {
    private static final Logger log = LoggerFactory.getLogger(Migrations.class);
    private static final int RECENT = 100;

    /** A migration this member runs as the switch's master. */
    private static final class Outgoing {
        final long id;
        final long dpid;
        final String target;
        final long started = System.nanoTime();
        final CompletableFuture<Migration> done = new CompletableFuture<>();
        /** Past the marker: the switch is the target's now, whatever happens. */
        volatile boolean handedOver;

        Outgoing(long id, long dpid, String target) {
            this.id = id;
            this.dpid = dpid;
            this.target = target;
        }
    }

    /** A migration this member is the target of. */
    private record Incoming(long id, String from) { }

    /** A move asked while a migration to this member was still being granted. */
    private record Waiter(String target, CompletableFuture<Migration> result) { }

    private final Peers peers;
    private final MoveWatch watch;
    private final Map<Long, Outgoing> outgoing = new ConcurrentHashMap<>();
    private final Map<Long, Incoming> incoming = new ConcurrentHashMap<>();
    /** Moves waiting for a migration to this member to end, by switch; the member's thread's. */
    private final Map<Long, List<Waiter>> afterIncoming = new HashMap<>();
    private final ArrayDeque<Migration> recent = new ArrayDeque<>();
    private final AtomicLong ids = new AtomicLong(System.nanoTime() & 0xffff_ffffL);

    Migrations(Peers peers) {
        this.peers = peers;
        this.watch = new MoveWatch(peers);
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
        return outgoing.containsKey(dpid) || incoming.containsKey(dpid);
    }

    boolean anyIncoming() {
        return !incoming.isEmpty();
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

    /** Another member asked this one, the switch's master, to move it. On a Hazelcast event thread. */
    void migrateAsked(Message.Migrate m) {
        var run = new CompletableFuture<Migration>();
        peers.after(0, () -> startAsMaster(m.dpid(), m.target(), run));
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
        if (!incoming.containsKey(dpid)) {
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
        peers.after(0, () -> {
            var waiting = afterIncoming.remove(dpid);
            if (waiting != null) {
                waiting.forEach(w -> startNow(dpid, w.target(), w.result()));
            }
        });
    }

    private void startNow(long dpid, String target, CompletableFuture<Migration> result) {
        start(dpid, target).whenComplete((m, e) -> {
            if (e != null) {
                result.completeExceptionally(e);
            } else {
                result.complete(m);
            }
        });
    }

    /** Phase 1, on the master: ask the target to become EQUAL and watch for the marker. */
    private CompletableFuture<Migration> start(long dpid, String target) {
        var st = peers.local(dpid);
        if (st != null && st.rolesUnsupported) {
            return CompletableFuture.failedFuture(new IllegalStateException("switch " + Dpids.toString(dpid)
                    + " does not support the Nicira role extension: it cannot move"));
        }
        if (st == null || st.sw.getRole() != NiciraRole.MASTER) {
            return CompletableFuture.failedFuture(new IllegalStateException("this member does not master switch "
                    + Dpids.toString(dpid)));
        }
        var o = new Outgoing(ids.incrementAndGet(), dpid, target);
        if (outgoing.putIfAbsent(dpid, o) != null) {
            return CompletableFuture.failedFuture(new IllegalStateException("switch " + Dpids.toString(dpid)
                    + " is already migrating"));
        }
        send(target, Message.Phase.PREPARE, dpid, o.id);
        long limit = peers.timeout().toMillis();
        peers.after(limit, () -> {
            if (!o.done.isDone() && !o.handedOver) {
                abort(o, "no hand-over within " + limit + " ms");
            }
        });
        return o.done;
    }

    /** A step of a migration, from the other end. */
    void received(Message.Step s) {
        switch (s.phase()) {
            case PREPARE -> prepare(s);
            case READY -> ready(s);
            case DONE -> done(s);
            case COMPLETE -> complete(s);
            case ABORT -> aborted(s);
        }
    }

    /** Phase 1, on the target: EQUAL, dropping the switch's messages until the marker. */
    private void prepare(Message.Step s) {
        var st = peers.local(s.dpid());
        // Only from SLAVE: a connection whose handshake has not had its role yet would have its EQUAL overtaken by the
        // handshake's own role request, and as SLAVE it would never see the marker (its gate would stay shut).
        var why = st == null ? "the switch is not connected here"
                : st.sw.getRole() != NiciraRole.SLAVE ? "the switch has granted it " + st.sw.getRole() + ", not SLAVE"
                : peers.leaving() ? "this member is leaving" : null;
        if (why != null) {
            log.warn("cluster: migration of switch {} from {} to this member refused: {}", Dpids.toString(s.dpid()),
                    peers.describe(s.from()), why);
            send(s.from(), Message.Phase.ABORT, s.dpid(), s.id());
            return;
        }
        var in = new Incoming(s.id(), s.from());
        incoming.put(s.dpid(), in);
        // The master gives up after migrationTimeout and says so; should that never arrive, so does this (a master
        // that leaves the cluster is given up on at once, see memberLeft).
        peers.after(2 * peers.timeout().toMillis(), () -> giveUpIncoming(s.dpid(), in));
        // The gate first, on the I/O thread: no message the switch sends us as EQUAL may pass before it.
        st.sw.execute(() -> st.awaitMarker(SwitchState.Gate.DROP_UNTIL_MARKER, s.id(), () -> { }));
        st.sw.setRole(NiciraRole.OTHER, peers.timeout()).whenComplete((r, e) -> {
            if (e != null) {
                log.warn("cluster: migration of switch {} from {}: the switch did not grant EQUAL: {}",
                        Dpids.toString(s.dpid()), peers.describe(s.from()), e.toString());
            }
            send(s.from(), e == null ? Message.Phase.READY : Message.Phase.ABORT, s.dpid(), s.id());
        });
    }

    /** Phase 2, on the master: the marker flow goes in and out; its FLOW_REMOVED marks the hand-over point. */
    private void ready(Message.Step s) {
        var o = outgoing.get(s.dpid());
        var st = peers.local(s.dpid());
        if (o == null || o.id != s.id() || st == null) {
            return;
        }
        var sw = st.sw;
        sw.execute(() -> {
            if (outgoing.get(o.dpid) != o) {
                return; // given up (timeout) after READY arrived: its gate was reopened, nothing may arm it again
            }
            st.awaitMarker(SwitchState.Gate.HANDLE_UNTIL_MARKER, o.id, () -> markerPassed(o, st));
            sw.write(SwitchState.marker(sw, o.id, OFFlowMod.Command.ADD));
            sw.barrier(peers.timeout()).thenRun(() -> {
                sw.write(SwitchState.marker(sw, o.id, OFFlowMod.Command.DELETE_STRICT));
                sw.flush();
            });
        });
    }

    /**
     * Phase 3, on the master (its I/O thread): later messages are the target's. Once what it wrote before is
     * through (a barrier), the map names the target, this member steps down to SLAVE and tells the target.
     */
    private void markerPassed(Outgoing o, SwitchState st) {
        o.handedOver = true;
        // Past this point only the target's COMPLETE ends it; should that never come (the target died or lost the
        // switch), the migration is over all the same, or the switch could never move, nor follow the map, again.
        peers.after(2 * peers.timeout().toMillis(), () -> {
            if (outgoing.remove(o.dpid, o)) {
                o.done.completeExceptionally(new IllegalStateException("no answer from " + peers.describe(o.target)
                        + " after the hand-over"));
            }
        });
        st.sw.barrier(peers.timeout()).whenComplete((r, e) -> peers.after(0, () -> {
            peers.handOver(o.dpid, o.target);
            st.sw.setRole(NiciraRole.SLAVE, peers.timeout()).whenComplete((role, e2) -> {
                st.sw.execute(st::open); // as SLAVE the core drops its messages; the gate is for the next time
                send(o.target, Message.Phase.DONE, o.dpid, o.id);
            });
        }));
    }

    /** Phase 4, on the target: MASTER. */
    private void done(Message.Step s) {
        var st = peers.local(s.dpid());
        var in = incoming.get(s.dpid());
        if (st == null || in == null || in.id() != s.id()) {
            // Given up here, or the switch left: the old master is past its hand-over and only waits for this answer
            // to end the migration; the map's new master is asserted by the rounds (or re-derived if it cannot be).
            send(s.from(), Message.Phase.COMPLETE, s.dpid(), s.id());
            return;
        }
        st.sw.setRole(NiciraRole.MASTER, peers.timeout()).whenComplete((r, e) -> {
            incoming.remove(s.dpid(), in);
            incomingEnded(s.dpid());
            if (e != null) {
                log.warn("cluster: switch {} refused MASTER after a hand-over: {}", st.sw.getStringId(), e.getMessage());
            }
            // The marker came before DONE on this connection, so the gate is open by now, unless this member did not
            // see it (it was not EQUAL then): a gate left shut would drop every message of the switch it masters.
            st.sw.execute(() -> {
                if (st.gate() == SwitchState.Gate.DROP_UNTIL_MARKER) {
                    log.warn("cluster: switch {}: the migration's marker never arrived here; its messages are handled"
                            + " from now on", st.sw.getStringId());
                    st.open();
                }
            });
            send(s.from(), Message.Phase.COMPLETE, s.dpid(), s.id());
        });
    }

    private void complete(Message.Step s) {
        var o = outgoing.get(s.dpid());
        if (o == null || o.id != s.id()) {
            return;
        }
        outgoing.remove(s.dpid(), o);
        var m = new Migration(o.dpid, peers.self(), o.target, Duration.ofNanos(System.nanoTime() - o.started));
        synchronized (recent) {
            recent.addLast(m);
            if (recent.size() > RECENT) {
                recent.removeFirst();
            }
        }
        log.info("cluster: switch {} migrated to {} in {} ms", Dpids.toString(o.dpid), peers.describe(o.target),
                String.format("%.1f", m.took().toNanos() / 1e6));
        o.done.complete(m);
    }

    private void aborted(Message.Step s) {
        var o = outgoing.get(s.dpid());
        if (o != null && o.id == s.id()) {
            if (!o.handedOver) {
                abort(o, "the target gave up");
            }
            return;
        }
        var in = incoming.get(s.dpid());
        if (in != null && in.id() == s.id()) {
            giveUpIncoming(s.dpid(), in);
        }
    }

    /** On the target of a migration that is given up, unless it is over already. */
    private void giveUpIncoming(long dpid, Incoming in) {
        var st = peers.local(dpid);
        if (st != null && incoming.remove(dpid, in)) {
            incomingEnded(dpid);
            // Back to SLAVE before the gate opens: nothing the switch sends us may be handled twice.
            st.sw.setRole(NiciraRole.SLAVE, peers.timeout()).whenComplete((r, e) -> st.sw.execute(st::open));
        }
    }

    /** Before the hand-over point only: the old master keeps the switch and handles everything again. */
    private void abort(Outgoing o, String why) {
        if (!outgoing.remove(o.dpid, o)) {
            return;
        }
        try {
            send(o.target, Message.Phase.ABORT, o.dpid, o.id);
        } catch (RuntimeException e) { // the target gives up at its own timeout instead
            log.warn("cluster: could not tell {} that the migration of switch {} is given up: {}",
                    peers.describe(o.target), Dpids.toString(o.dpid), e.toString());
        }
        var st = peers.local(o.dpid);
        if (st != null) {
            st.sw.execute(st::open);
        }
        log.warn("cluster: migration of switch {} to {} given up: {}", Dpids.toString(o.dpid),
                peers.describe(o.target), why);
        o.done.completeExceptionally(new IllegalStateException("migration given up: " + why));
    }

    /**
     * A member left: migrations with it are given up at once. As the target of one whose source died, this member
     * would otherwise hold the switch as EQUAL, dropping its messages, until its own timeout.
     */
    void memberLeft(String member) {
        outgoing.values().stream().filter(o -> o.target.equals(member)).forEach(o -> {
            if (!o.handedOver) {
                abort(o, "the target left the cluster");
            } else if (outgoing.remove(o.dpid, o)) {
                o.done.completeExceptionally(new IllegalStateException("the target left the cluster after the"
                        + " hand-over"));
            }
        });
        incoming.forEach((dpid, in) -> {
            if (in.from().equals(member)) {
                log.warn("cluster: migration of switch {} to this member given up: its master {} left",
                        Dpids.toString(dpid), peers.describe(member));
                giveUpIncoming(dpid, in);
            }
        });
    }

    /** Back from a split: every migration under way is given up (the merged map decides). */
    void giveUpAll(String why) {
        outgoing.values().forEach(o -> abort(o, why));
        incoming.forEach(this::giveUpIncoming);
    }

    /** The switch disconnected from this member. */
    void switchRemoved(long dpid) {
        var o = outgoing.get(dpid);
        if (o != null && !o.handedOver) {
            abort(o, "the switch disconnected");
        }
        if (incoming.remove(dpid) != null) {
            incomingEnded(dpid);
        }
    }

    /** The member stops: migrations it runs are given up (and said so, while it can still send), then forgotten. */
    void stop(boolean canSend) {
        if (canSend) {
            // The targets would otherwise wait for a marker that never comes (until their own timeout).
            outgoing.values().stream().filter(o -> !o.handedOver).forEach(o -> abort(o, "this member is leaving"));
        }
        outgoing.values().forEach(o -> o.done.completeExceptionally(new IllegalStateException("the cluster stopped")));
        outgoing.clear();
        incoming.clear();
        afterIncoming.values().forEach(waiting -> waiting.forEach(w -> w.result().completeExceptionally(
                new IllegalStateException("the cluster stopped"))));
        afterIncoming.clear();
        watch.stop();
    }

    List<Migration> recent() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }

    private void send(String member, Message.Phase phase, long dpid, long id) {
        peers.send(member, new Message.Step(phase, dpid, peers.self(), id));
    }
}
