package net.beaconcontroller.cluster.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.core.HazelcastInstance;

import net.beaconcontroller.util.Threads;


/**
 * The coordinator: the one thread ({@code beacon-cluster}) that owns the roles of the switches connected to this
 * member ({@link Roles}) and whether it may assert MASTER at all (a majority, no merge under way). Membership changes,
 * the masters map's events and a round every {@link #TICK_MILLIS} are posted to it, as are the switches' role replies,
 * migrations' steps and forwarded writes' retries ({@link Migrations}, {@link Forwarding}). It never waits on
 * Hazelcast: the shared maps are read and written on the store's thread ({@link Store}), which posts its views back.
 *
 * <p>Its package methods may be called from any thread; those that change something post the work to the coordinator.
 */
final class Coordinator {
    private static final Logger log = LoggerFactory.getLogger(Coordinator.class);
    /** The round: reports written, decisions re-derived, roles checked against the switches. */
    static final long TICK_MILLIS = 500;
    /** How often connections to the other members are checked for a process that is gone (see DeathWatch). */
    private static final long DEATH_WATCH_MILLIS = 200;
    /** How long a stop waits for the coordinator's last task. */
    private static final long CLOSE_WAIT_MILLIS = 5_000;

    private final Membership member;
    private final Switches switches;
    private final MasterView masterView;
    private final Migrations migrations;
    private final Roles roles;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(
            r -> Threads.named(r, "beacon-cluster"));
    /** Whether the last look saw a majority of the configured members (see hasQuorum). The coordinator's. */
    private boolean hadQuorum = true;
    /**
     * Between Hazelcast's MERGING and this member's {@link #merged}: its maps are being replaced by the larger part's,
     * so what it read before says nothing about who masters a switch now, while its member list already shows the
     * majority it joins. It asserts MASTER on nothing meanwhile. Set by Hazelcast's lifecycle thread the moment the
     * merge starts (a round queued before it must not act on the old map), cleared by the coordinator; volatile for
     * those two and the handshake pool.
     */
    private volatile boolean merging;
    /** {@link #call}s not answered yet: failed when the thread stops, as it drops those still queued. */
    private final Set<CompletableFuture<?>> calls = ConcurrentHashMap.newKeySet();

    Coordinator(Membership member, Switches switches, MasterView masterView, Migrations migrations) {
        this.member = member;
        this.switches = switches;
        this.masterView = masterView;
        this.migrations = migrations;
        roles = new Roles(member, switches, masterView, migrations, this);
    }

    /** On this thread, once the member has joined: the rounds, and the watch for members whose process is gone. */
    void startRounds(HazelcastInstance hz) {
        thread.scheduleWithFixedDelay(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        var watch = new DeathWatch(hz, DEATH_WATCH_MILLIS);
        thread.scheduleWithFixedDelay(() -> {
            try {
                watch.check();
            } catch (RuntimeException e) {
                log.warn("cluster: checking for members whose process is gone failed: {}", e.toString());
            }
        }, DEATH_WATCH_MILLIS, DEATH_WATCH_MILLIS, TimeUnit.MILLISECONDS);
    }

    void close() {
        stopThread();
    }

    /**
     * Stops the thread and waits for it to end (a task under way is interrupted, queued ones dropped), so that what
     * it owned may be cleared by the caller.
     */
    private void stopThread() {
        thread.shutdownNow();
        try {
            if (!thread.awaitTermination(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                log.warn("cluster: stopping: the coordinator's task did not end within {} ms", CLOSE_WAIT_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        failCalls();
    }

    private void failCalls() {
        var stopped = new IllegalStateException("the cluster bundle stopped");
        List.copyOf(calls).forEach(c -> c.completeExceptionally(stopped));
    }

    /**
     * Runs {@code last} as this thread's last task, after those already due, and stops the thread: no round starts a
     * migration after {@code last} gave them up. Waits for it at most {@link #CLOSE_WAIT_MILLIS}; the thread is stopped
     * either way.
     *
     * @return whether {@code last} ran to its end
     */
    boolean closeAfter(Runnable last) {
        try {
            thread.submit(last).get(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            log.warn("cluster: stopping: {}", e.getCause().toString());
            return false;
        } catch (TimeoutException e) {
            log.warn("cluster: stopping: the coordinator was still busy after {} ms", CLOSE_WAIT_MILLIS);
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (RejectedExecutionException e) {
            return false; // closed already
        } finally {
            stopThread();
        }
    }

    /** Runs a task on this thread, unless the member has stopped meanwhile (then there is nothing to do). */
    void later(Runnable task) {
        after(0, task);
    }

    /** Runs a task on this thread after {@code millis}, unless the member has stopped meanwhile. */
    void after(long millis, Runnable task) {
        try {
            thread.schedule(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    // An executor keeps a task's exception to itself: said here, or a failed step would go unseen.
                    // Hazelcast fails operations while members come and go; the next round tries again.
                    log.warn("cluster: a step failed (the next round tries again): {}", e.toString());
                }
            }, millis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // stopping
        }
    }

    /**
     * Runs {@code task} on this thread and gives its result; fails should the member stop before it runs (a task
     * still queued then is dropped, not run).
     */
    <T> CompletableFuture<T> call(Supplier<T> task) {
        var result = new CompletableFuture<T>();
        calls.add(result);
        result.whenComplete((r, e) -> calls.remove(result));
        try {
            thread.execute(() -> {
                try {
                    result.complete(task.get());
                } catch (RuntimeException e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new IllegalStateException("the cluster bundle stopped"));
        }
        return result;
    }

    /** Whether this member is merging back after a split: it asserts MASTER on nothing meanwhile. */
    boolean merging() {
        return merging;
    }

    void memberJoined() {
        later(this::membersChanged);
    }

    /**
     * Migrations with the member that left are given up at once: as the target of one whose source died, this member
     * would otherwise hold the switch as EQUAL and drop its messages until its own timeout.
     */
    void memberLeft(String gone, String address) {
        later(() -> {
            migrations.memberLeft(gone);
            roles.reassertNextRound();
            boolean majority = mayMaster();
            if (majority) {
                roles.takeOver(gone, address);
            }
            member.joined().store().memberLeft(gone, majority);
            refresh();
        });
    }

    /**
     * Hazelcast is about to merge this member into the larger part after a split. Posted before it resets the member
     * and joins it to the other part, so before the joins that give it a majority again.
     */
    void mergeStarted() {
        merging = true;
    }

    void mergeFailed() {
        later(() -> {
            log.warn("cluster: merging back after a split failed; Hazelcast tries again");
            merging = false;
            refresh();
        });
    }

    /**
     * Back from a split (see {@link Membership}), with the merged map of masters as read at {@code readAt}
     * (System.nanoTime): migrations under way are given up, and the roles of the switches connected here follow the
     * merged map.
     */
    void merged(Map<Long, String> masters, long readAt) {
        later(() -> {
            merging = false;
            migrations.giveUpAll("the cluster merged after a split");
            switches.all().forEach(st -> st.sw.execute(st::open));
            masterView.replaceAll(masters, readAt);
            migrations.mastersReplaced();
            member.joined().store().publishSoon();
            membersChanged();
        });
    }

    /** The masters map's event: the view, a migration watching the switch, and the role follow it. */
    void masterChanged(long dpid, String master) {
        later(() -> {
            masterView.changed(dpid, master);
            migrations.masterChanged(dpid, master);
            var st = switches.get(dpid);
            if (st != null && master.equals(masterView.get(dpid))) {
                roles.follow(st, master, mayMaster(), false);
            }
        });
    }

    /** The masters map's event for a switch that has no master now (it left every member). */
    void masterRemoved(long dpid) {
        later(() -> masterView.changed(dpid, null));
    }

    /** The member that held the switch stepped down for this one (see {@link Message.Reassert}). */
    void reassertAsked(long dpid) {
        later(() -> {
            var st = switches.get(dpid);
            var self = member.self();
            if (st != null && self.equals(masterView.get(dpid))) {
                roles.follow(st, self, mayMaster(), true);
            }
        });
    }

    /**
     * A switch's handshake is over: its role follows what this member learned meanwhile (a take-over, an event of the
     * map), which the role the handshake asked for may predate.
     */
    void added(SwitchState st) {
        later(() -> {
            var m = masterView.get(st.sw.getId());
            if (m != null) {
                roles.follow(st, m, mayMaster(), false);
            }
        });
    }

    /** Another survivor took over a switch of {@code dead} (see {@link Message.TakenOver}). */
    void takenOver(long dpid, String by, String dead) {
        later(() -> roles.takenOverBy(dpid, by, dead, mayMaster()));
    }

    // ------------------------------------------------------------------------------------------ on this thread

    /** A member joined or the cluster merged. */
    private void membersChanged() {
        roles.reassertNextRound();
        member.joined().store().balanceSoon();
        refresh();
    }

    /** A fresh view of the masters map, read off this thread, then the roles follow it. */
    private void refresh() {
        member.joined().store().round(view -> later(() -> roles.followMasters(view, mayMaster())));
    }

    /** Whether this member may assert MASTER now: a majority, and not in the middle of a merge. */
    private boolean mayMaster() {
        return hasQuorum() && !merging;
    }

    /** {@link Members#quorum}, saying when it changes. */
    private boolean hasQuorum() {
        var members = member.joined().members();
        boolean quorum = members.quorum();
        if (quorum != hadQuorum) {
            hadQuorum = quorum;
            int size = members.size();
            int configured = members.configured();
            if (quorum) {
                log.info("cluster: {} of {} configured members present: assigning masters again", size, configured);
            } else {
                log.warn("cluster: only {} of {} configured members present: no switch changes master and this member"
                        + " asserts MASTER on none until a majority is back", size, configured);
            }
        }
        return quorum;
    }

    /**
     * Every {@link #TICK_MILLIS}: load sampled here; the report, the oldest member's decisions and balancing on the
     * store's thread; roles checked against the view it reads.
     */
    private void tick() {
        try {
            forgetClosed();
            member.joined().reports().sample(switches.all());
            refresh();
        } catch (RuntimeException e) {
            // A scheduled task that throws is never run again: the member would stop following the map.
            log.warn("cluster: a round of mastership work failed (tried again in {} ms): {}", TICK_MILLIS,
                    e.toString());
        }
    }

    /**
     * Switches whose connection closed without a removedSwitch (during their handshake, which the core does not
     * report) are forgotten as if they had been removed.
     */
    private void forgetClosed() {
        for (var st : switches.all()) {
            if (!st.sw.isConnected()) {
                member.arbiter().forget(st.sw);
            }
        }
        // The map may name this member for a switch it no longer has (the oldest read a report written before the
        // switch left): only this member can tell, and it gives the switch back at once.
        var self = member.self();
        var store = member.joined().store();
        masterView.snapshot().forEach((dpid, m) -> {
            if (m.equals(self) && switches.get(dpid) == null) {
                store.giveBack(dpid);
            }
        });
    }
}
