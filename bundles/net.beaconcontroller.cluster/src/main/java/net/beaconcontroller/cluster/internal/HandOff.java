package net.beaconcontroller.cluster.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.util.Dpids;

/**
 * A member that leaves on purpose (its bundle stops, the cluster is turned off, the instance shuts down) moves the
 * switches it masters to the others, one four-phase migration at a time, so none of their PACKET_INs is lost; a
 * take-over after it has gone would leave them without a master for a moment. Runs on the thread that stops the
 * bundle; what is not moved within the limit is taken over as from a member that failed, and the log line says which.
 */
final class HandOff {
    private static final Logger log = LoggerFactory.getLogger(HandOff.class);

    /** How long a member that leaves on purpose spends handing its switches over. */
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private final Membership member;
    private final Joined joined;
    /** The members that may take switches, oldest first. */
    private final List<String> targets;
    /** How many switches each member masters, counting the moves planned here. */
    private final Map<String, Integer> counts = new HashMap<>();

    /** Read once the others know this member is leaving, and its own balancing round is over. */
    private HandOff(Membership member, Joined joined) {
        this.member = member;
        this.joined = joined;
        targets = joined.targets();
        joined.masters().values().forEach(m -> counts.merge(m, 1, Integer::sum));
    }

    /**
     * Tells the others this member is leaving, so that no switch is planned for it, then hands its switches over.
     *
     * @throws RuntimeException when the shared maps cannot be read: no switch is handed over
     */
    static void leave(Membership member, Joined joined, Duration migrationTimeout) {
        try {
            // No longer than a rejoin under the same id could take.
            joined.leaving().set(member.self(), true, 1, TimeUnit.MINUTES);
        } catch (RuntimeException e) {
            log.warn("cluster: leaving: the others could not be told ({}); handing over anyway", e.toString());
        }
        // A round this member started, if it is the oldest: its switches cannot move twice at once.
        var pending = joined.store().balancing();
        CompletionStage<?> round;
        try {
            round = pending.get(migrationTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (ExecutionException | TimeoutException e) {
            round = CompletableFuture.completedFuture(null);
        }
        new HandOff(member, joined).run(round, migrationTimeout);
    }

    /** @param round a balancing round this member runs, waited for first (at most one migration timeout) */
    private void run(CompletionStage<?> round, Duration migrationTimeout) {
        long started = System.nanoTime();
        long deadline = started + LIMIT.toNanos();
        var tried = new HashSet<Long>();
        var failed = new ArrayList<String>();
        try {
            try {
                waitFor(round, Math.min(deadline, System.nanoTime() + migrationTimeout.toNanos()));
            } catch (IllegalStateException e) {
                log.info("cluster: leaving: a balancing move did not finish ({}); handing over anyway", e.getMessage());
            }
            if (targets.isEmpty()) {
                return;
            }
            // Again until none is left: a move to this member planned just before it said it was leaving lands late.
            while (System.nanoTime() < deadline && !Thread.currentThread().isInterrupted()) {
                var mine = member.mastered(tried);
                if (mine.isEmpty()) {
                    if (!member.receivingSwitches()) {
                        break;
                    }
                    Thread.sleep(10);
                    continue;
                }
                for (long dpid : mine) {
                    if (System.nanoTime() >= deadline || Thread.currentThread().isInterrupted()) {
                        break;
                    }
                    tried.add(dpid);
                    moveOne(dpid, deadline, failed);
                }
            }
            member.mastered(Set.of()).stream().filter(d -> !tried.contains(d))
                    .forEach(d -> failed.add(Dpids.toString(d) + " (no time left)"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failed.add("the rest (interrupted)");
        } catch (RuntimeException e) {
            failed.add("the rest (" + e.getMessage() + ")");
        } finally {
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            if (tried.isEmpty() && failed.isEmpty()) {
                log.info("cluster: leaving: no switch to hand over");
            } else if (failed.isEmpty()) {
                log.info("cluster: leaving: handed {} switch(es) to the others in {} ms", tried.size(), ms);
            } else {
                log.warn("cluster: leaving: {} switch(es) not handed over in {} ms, the others take them over: {}",
                        failed.size(), ms, String.join(", ", failed));
            }
        }
    }

    private void moveOne(long dpid, long deadline, List<String> failed) {
        var conns = new HashSet<>(joined.connectedTo(dpid));
        conns.retainAll(targets);
        if (conns.isEmpty()) {
            failed.add(Dpids.toString(dpid) + " (no other member is connected to it)");
            return;
        }
        var to = Balancer.pick(conns, counts, targets);
        counts.merge(to, 1, Integer::sum);
        try {
            waitFor(member.view().migrate(dpid, to), deadline);
        } catch (IllegalStateException e) {
            failed.add(Dpids.toString(dpid) + " (" + e.getMessage() + ")");
        }
    }

    /** @throws IllegalStateException when it failed or the deadline passed first */
    private static void waitFor(CompletionStage<?> stage, long deadline) {
        try {
            stage.toCompletableFuture().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("no time left");
        }
    }
}
