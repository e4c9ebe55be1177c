package net.beaconcontroller.cluster.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

import net.beaconcontroller.cluster.ICluster.Migration;
import net.beaconcontroller.util.Dpids;

/**
 * Moves asked here but run by another member (the switch's master): each is done when the masters map names its
 * target, as the map's event for the switch says, and fails after twice the migration timeout. Waiting on the event
 * rather than polling the map means a move is reported the moment the map changes. Confined to the member's thread
 * (and to the thread that stops the member once that thread has ended).
 */
final class MoveWatch {
    private record Awaited(String from, String target, long started, CompletableFuture<Migration> result) { }

    private final Peers peers;
    private final Map<Long, List<Awaited>> awaited = new HashMap<>();

    MoveWatch(Peers peers) {
        this.peers = peers;
    }

    /** Completes {@code result} once the map names {@code target} the master of {@code dpid}. */
    void await(long dpid, String from, String target, CompletableFuture<Migration> result) {
        long started = System.nanoTime();
        // The map's event may have come already: it updates the view the map is read from before it reaches here.
        if (target.equals(peers.master(dpid))) {
            result.complete(new Migration(dpid, from, target, Duration.ZERO));
            return;
        }
        var a = new Awaited(from, target, started, result);
        awaited.computeIfAbsent(dpid, k -> new ArrayList<>()).add(a);
        peers.after(2 * peers.timeout().toMillis(), () -> {
            if (forget(dpid, a)) {
                result.completeExceptionally(new TimeoutException("switch " + Dpids.toString(dpid)
                        + " did not move to " + peers.describe(target) + " in time"));
            }
        });
    }

    /** The masters map names {@code master} for {@code dpid} now. */
    void masterChanged(long dpid, String master) {
        var list = awaited.get(dpid);
        if (list == null) {
            return;
        }
        long now = System.nanoTime();
        list.removeIf(a -> a.target().equals(master)
                && a.result().complete(new Migration(dpid, a.from(), a.target(), Duration.ofNanos(now - a.started()))));
        if (list.isEmpty()) {
            awaited.remove(dpid);
        }
    }

    /** The map was replaced whole: every awaited move is checked against it. */
    void recheck() {
        for (long dpid : List.copyOf(awaited.keySet())) {
            var master = peers.master(dpid);
            if (master != null) {
                masterChanged(dpid, master);
            }
        }
    }

    /** The member stops: nobody is left to see the map change. */
    void stop() {
        awaited.values().forEach(list -> list.forEach(a -> a.result().completeExceptionally(
                new IllegalStateException("the cluster stopped"))));
        awaited.clear();
    }

    private boolean forget(long dpid, Awaited a) {
        var list = awaited.get(dpid);
        if (list == null || !list.remove(a)) {
            return false;
        }
        if (list.isEmpty()) {
            awaited.remove(dpid);
        }
        return true;
    }
}
