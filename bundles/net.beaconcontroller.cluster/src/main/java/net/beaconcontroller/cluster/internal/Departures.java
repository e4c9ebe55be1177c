package net.beaconcontroller.cluster.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.cluster.ICluster.Migration;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.vendor.NiciraRole;
import net.beaconcontroller.util.Dpids;

/**
 * The migrations of switches this member masters, to other members: the old master's side of {@link Migrations}.
 * The member's thread's, but for the two moments judged on the switch's I/O thread (see {@link Outgoing}).
 */
final class Departures {
    private static final Logger log = LoggerFactory.getLogger(Departures.class);
    private static final int RECENT = 100;
    private static final long HAND_OVER_RETRY_MILLIS = 100;

    /** A migration this member runs as the switch's master. */
    private static final class Outgoing {
        final long id;
        final long dpid;
        final String target;
        final long started = System.nanoTime();
        final CompletableFuture<Migration> done = new CompletableFuture<>();
        /**
         * Past the marker: the switch is the target's now, whatever happens. Set on the switch's I/O thread, where the
         * marker passes, so that a give-up never reopens the gate for messages already the target's.
         */
        volatile boolean handedOver;
        /**
         * The marker flow has been written: it will pass at both ends, and from then on only it, not a give-up, may
         * end the migration (the target handles the switch's messages after it whatever this member does). The
         * switch's I/O thread's, as is {@code abandoned}, so that the two are judged in one place.
         */
        boolean markerWritten;
        /** Given up before the marker was written: nothing may write it any more. I/O thread. */
        boolean abandoned;
        /** A give-up is being judged on the I/O thread. The member's thread's. */
        boolean abandoning;
        /** The masters map names the target. The member's thread's. */
        boolean mapWritten;

        Outgoing(long id, long dpid, String target) {
            this.id = id;
            this.dpid = dpid;
            this.target = target;
        }
    }

    private final Peers peers;
    private final Map<Long, Outgoing> outgoing = new HashMap<>();
    /** The last {@link #RECENT} migrations run here, oldest first, as the web and the console read them. */
    private volatile List<Migration> recent = List.of();
    private long ids = System.nanoTime() & 0xffff_ffffL;

    Departures(Peers peers) {
        this.peers = peers;
    }

    boolean has(long dpid) {
        return outgoing.containsKey(dpid);
    }

    /** Phase 1, on the master: ask the target to become EQUAL and watch for the marker. */
    CompletableFuture<Migration> start(long dpid, String target) {
        var st = peers.local(dpid);
        if (st != null && st.rolesUnsupported) {
            return CompletableFuture.failedFuture(new IllegalStateException("switch " + Dpids.toString(dpid)
                    + " does not support the Nicira role extension: it cannot move"));
        }
        if (st == null || st.sw.getRole() != NiciraRole.MASTER) {
            return CompletableFuture.failedFuture(new IllegalStateException("this member does not master switch "
                    + Dpids.toString(dpid)));
        }
        var o = new Outgoing(++ids, dpid, target);
        if (outgoing.putIfAbsent(dpid, o) != null) {
            return CompletableFuture.failedFuture(new IllegalStateException("switch " + Dpids.toString(dpid)
                    + " is already migrating"));
        }
        peers.step(target, Message.Phase.PREPARE, dpid, o.id);
        long limit = peers.timeout().toMillis();
        peers.after(limit, () -> abort(o, "no hand-over within " + limit + " ms", false));
        return o.done;
    }

    /** Phase 2, on the master: the marker flow goes in and out; its FLOW_REMOVED marks the hand-over point. */
    void ready(Message.Step s) {
        var o = outgoing.get(s.dpid());
        var st = peers.local(s.dpid());
        if (o == null || o.id != s.id() || st == null || o.abandoning) {
            return;
        }
        var sw = st.sw;
        sw.execute(() -> {
            if (o.abandoned) {
                return; // given up (timeout) after READY arrived: its gate was reopened, nothing may arm it again
            }
            st.awaitMarker(SwitchState.Gate.HANDLE_UNTIL_MARKER, o.id, () -> markerPassed(o, st));
            o.markerWritten = true;
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
            if (!outgoing.remove(o.dpid, o)) {
                return;
            }
            if (!o.mapWritten) {
                // The map still names this member, and every member follows the map: the switch would be handled
                // by nobody (this gate shut, the target back to SLAVE). It is this member's again.
                log.warn("cluster: migration of switch {} to {}: the masters map never took the hand-over; this"
                        + " member handles the switch again", Dpids.toString(o.dpid), peers.describe(o.target));
                st.sw.execute(st::open);
                peers.step(o.target, Message.Phase.ABORT, o.dpid, o.id);
            }
            o.done.completeExceptionally(new IllegalStateException("no answer from " + peers.describe(o.target)
                    + " after the hand-over"));
        });
        // The map is written from here, without waiting for this member's thread (Peers#handOver, any thread).
        st.sw.barrier(peers.timeout()).whenComplete((r, e) -> handOver(o, st));
    }

    /**
     * The map names the target (tried again while Hazelcast fails it), then this member steps down and says so. Any
     * thread: what follows the map's answer runs on the member's thread.
     */
    private void handOver(Outgoing o, SwitchState st) {
        // Async: should the answer be there already, the callback would otherwise run on the calling thread.
        peers.handOver(o.dpid, o.target).whenCompleteAsync((v, failed) -> {
            if (outgoing.get(o.dpid) != o) {
                return; // over: see the timeout in markerPassed
            }
            if (failed != null) {
                log.warn("cluster: migration of switch {} to {}: the masters map did not take the hand-over (tried"
                        + " again): {}", Dpids.toString(o.dpid), peers.describe(o.target), failed.toString());
                peers.after(HAND_OVER_RETRY_MILLIS, () -> handOver(o, st));
                return;
            }
            o.mapWritten = true;
            st.sw.setRole(NiciraRole.SLAVE, peers.timeout()).whenComplete((role, e2) -> {
                st.sw.execute(st::open); // as SLAVE the core drops its messages; the gate is for next time
                peers.step(o.target, Message.Phase.DONE, o.dpid, o.id);
            });
        }, task -> peers.after(0, task));
    }

    void complete(Message.Step s) {
        var o = outgoing.get(s.dpid());
        if (o == null || o.id != s.id()) {
            return;
        }
        outgoing.remove(s.dpid(), o);
        var m = new Migration(o.dpid, peers.self(), o.target, Duration.ofNanos(System.nanoTime() - o.started));
        var last = new ArrayList<Migration>(recent.size() + 1);
        last.addAll(recent.size() < RECENT ? recent : recent.subList(1, recent.size()));
        last.add(m);
        recent = List.copyOf(last);
        log.info("cluster: switch {} migrated to {} in {} ms", Dpids.toString(o.dpid), peers.describe(o.target),
                String.format("%.1f", m.took().toNanos() / 1e6));
        o.done.complete(m);
    }

    /** The target gave this one up: true when it was this member's to end. */
    boolean aborted(Message.Step s) {
        var o = outgoing.get(s.dpid());
        if (o == null || o.id != s.id()) {
            return false;
        }
        abort(o, "the target gave up", true);
        return true;
    }

    /**
     * Before the hand-over point only: the old master keeps the switch and handles everything again. Judged on the
     * switch's I/O thread, where the marker is written and passes: once it is written, the target will handle the
     * switch's messages after it, so this member must stop at it too, and only the hand-over ends the migration
     * (should the marker never come back, a second deadline gives up).
     *
     * @param force given up past the marker's writing too: the target gave up or left (nobody else handles the
     *              messages after the marker), or the marker never came back
     */
    private void abort(Outgoing o, String why, boolean force) {
        if (outgoing.get(o.dpid) != o || o.abandoning || o.handedOver) {
            return;
        }
        var st = peers.local(o.dpid);
        if (st == null) {
            gaveUp(o, why); // the switch left: no gate to reopen
            return;
        }
        o.abandoning = true;
        st.sw.execute(() -> {
            boolean goesOn = o.handedOver || o.markerWritten && !force;
            if (!goesOn) {
                o.abandoned = true;
                st.open();
            }
            peers.after(0, () -> {
                o.abandoning = false;
                if (!goesOn) {
                    gaveUp(o, why);
                } else if (!o.handedOver) {
                    long limit = peers.timeout().toMillis();
                    log.info("cluster: migration of switch {} to {}: {}, but its marker is on its way: waiting {} ms"
                            + " more for it", Dpids.toString(o.dpid), peers.describe(o.target), why, limit);
                    peers.after(limit, () -> abort(o, why + "; the marker never came back", true));
                }
            });
        });
    }

    /** The migration is over without a hand-over: the target is told, and so is the caller. */
    private void gaveUp(Outgoing o, String why) {
        if (!outgoing.remove(o.dpid, o)) {
            return;
        }
        try {
            peers.step(o.target, Message.Phase.ABORT, o.dpid, o.id);
        } catch (RuntimeException e) { // the target gives up at its own timeout instead
            log.warn("cluster: could not tell {} that the migration of switch {} is given up: {}",
                    peers.describe(o.target), Dpids.toString(o.dpid), e.toString());
        }
        log.warn("cluster: migration of switch {} to {} given up: {}", Dpids.toString(o.dpid),
                peers.describe(o.target), why);
        o.done.completeExceptionally(new IllegalStateException("migration given up: " + why));
    }

    /** The target left: a migration not yet handed over is given up; one handed over is over. */
    void memberLeft(String member) {
        List.copyOf(outgoing.values()).stream().filter(o -> o.target.equals(member)).forEach(o -> {
            if (!o.handedOver) {
                abort(o, "the target left the cluster", true);
            } else if (outgoing.remove(o.dpid, o)) {
                o.done.completeExceptionally(new IllegalStateException("the target left the cluster after the"
                        + " hand-over"));
            }
        });
    }

    void giveUpAll(String why) {
        List.copyOf(outgoing.values()).forEach(o -> abort(o, why, false));
    }

    void switchRemoved(long dpid) {
        var o = outgoing.get(dpid);
        if (o != null && !o.handedOver) {
            gaveUp(o, "the switch disconnected");
        }
    }

    /** The member stops: migrations are given up (and said so, while it can still send), then forgotten. */
    void stop(boolean canSend) {
        if (canSend) {
            // The targets would otherwise wait for a marker that never comes (until their own timeout).
            // At once, not judged on the I/O threads: this member stops handling every switch anyway.
            List.copyOf(outgoing.values()).stream().filter(o -> !o.handedOver).forEach(o -> {
                gaveUp(o, "this member is leaving");
                var st = peers.local(o.dpid);
                if (st != null) {
                    st.sw.execute(st::open);
                }
            });
        }
        outgoing.values().forEach(o -> o.done.completeExceptionally(new IllegalStateException("the cluster stopped")));
        outgoing.clear();
    }

    /** Any thread. */
    List<Migration> recent() {
        return recent;
    }
}
