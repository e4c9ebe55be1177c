package net.beaconcontroller.cluster.internal;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.map.IMap;

/**
 * This instance as a member of the cluster, from start to stop: it joins the embedded Hazelcast member, turns
 * Hazelcast's events (members joining and leaving, a merge after a split, the masters map's changes) into the
 * coordinator's work, takes up a new member id after a merge, hands its switches over when it leaves on purpose, and
 * stops. It makes the member's parts, and is what they know of the member ({@link Peers}).
 *
 * <p>Who writes what: the oldest member assigns a master to every switch that has none alive (at connection, after a
 * member left) and plans balancing moves; a switch's current master runs its migration and names the new master in
 * the map at the hand-over point; every member follows the map for the switches connected to it.
 */
final class Membership implements Peers {
    private static final Logger log = LoggerFactory.getLogger(Membership.class);
    /** How soon a merge whose maps could not be read is tried again. */
    private static final long REJOIN_RETRY_MILLIS = 500;

    private final Supplier<ClusterConfig> settings;
    private final Supplier<Map<Long, Set<Long>>> neighbours;
    private final Switches switches = new Switches();
    private final MasterView masterView;
    private final Forwarding forwarding;
    private final Migrations migrations;
    private final Coordinator coordinator;
    private final Arbiter arbiter;
    private final Inbox inbox;
    private final Events events;
    private final ClusterView view;
    /** Completed by the join (the coordinator thread); failed by a join that fails, or by the stop. */
    private final CompletableFuture<Joined> ready = new CompletableFuture<>();
    /** Guards {@code stopped} and the writes of {@code joined}: a stop, and a join that ends meanwhile. */
    private final Object lifecycle = new Object();
    private boolean stopped;
    /** Set by the join (the coordinator thread) when it is done, withdrawn by the stop; null before and after. */
    private volatile Joined joined;
    /**
     * This member's id, null until the join (the coordinator thread) sets it, before it publishes {@code joined}; then
     * changed only by the store's thread, when a merge gives the member a new id.
     */
    private volatile String self;
    /** Handing its switches over before it leaves: set by the thread that stops the member. */
    private volatile boolean handingOff;

    /**
     * @param settings   the cluster's settings as they are now (some change while the member runs)
     * @param neighbours switch to the switches it has links to, as known now (for the balancer)
     */
    Membership(Supplier<ClusterConfig> settings, Supplier<Map<Long, Set<Long>>> neighbours) {
        this.settings = settings;
        this.neighbours = neighbours;
        masterView = new MasterView(this::isMember, System::nanoTime);
        forwarding = new Forwarding(this);
        migrations = new Migrations(this);
        coordinator = new Coordinator(this, switches, masterView, migrations);
        arbiter = new Arbiter(this, switches, masterView, forwarding, migrations, coordinator);
        inbox = new Inbox(forwarding, migrations, coordinator);
        events = new Events(coordinator);
        view = new ClusterView(this, settings, migrations, coordinator);
    }

    /** Joins the cluster in the background. */
    void start() {
        coordinator.later(this::join);
    }

    Arbiter arbiter() {
        return arbiter;
    }

    ClusterView view() {
        return view;
    }

    /** Completes once the member has joined. */
    CompletionStage<Joined> ready() {
        return ready;
    }

    /** What exists once the member has joined; null before that and after the stop. */
    Joined joined() {
        return joined;
    }

    /** Whether {@code id} is this member or one it sees now. */
    boolean isMember(String id) {
        var j = joined;
        return id.equals(self) || j != null && j.members().contains(id);
    }

    private void join() {
        var c = settings.get();
        try {
            var h = Hazelcast.newHazelcastInstance(MemberConfig.of(c));
            self = h.getCluster().getLocalMember().getUuid().toString();
            IMap<Long, String> masters = h.getMap("beacon.masters");
            var reports = new Reports(h.getMap("beacon.reports"));
            IMap<String, Boolean> leaving = h.getMap("beacon.leaving");
            var members = new Members(h, MemberConfig.configuredMembers(c));
            var store = new Store(members, masters, reports, leaving, this::self, switches, settings, view::migrate,
                    this::leaving, neighbours);
            var j = new Joined(h, masters, reports, leaving, members, store);
            synchronized (lifecycle) {
                if (stopped) { // the member stopped while it joined: nobody else would shut it down
                    store.close();
                    h.shutdown();
                    return;
                }
                joined = j;
            }
            masters.addEntryListener(events.masters(), true);
            masters.forEach(masterView::learned);
            inbox.listen(h, self);
            events.listen(h, () -> store.execute(this::rejoined));
            int size = h.getCluster().getMembers().size();
            var address = c.bindAddress() + ":" + c.port();
            if (size == 1 && List.of(c.members()).stream().anyMatch(m -> !m.equals(address))) {
                log.warn("cluster '{}': no other member answered at {}; running alone until one joins (are"
                        + " cluster.name and cluster.members the same on every instance?)", c.name(),
                        String.join(",", c.members()));
            } else {
                log.info("cluster '{}': joined as {} with {} member(s)", c.name(), address, size);
            }
            ready.complete(j);
            store.publishSoon();
            coordinator.startRounds(h);
        } catch (RuntimeException e) {
            log.error("cluster: cannot start the member on {}:{}: {}", c.bindAddress(), c.port(), e.getMessage());
            ready.completeExceptionally(e);
        }
    }

    /**
     * Back from a split (the store's thread): this member rejoined the larger part of the cluster, whose map of
     * masters won, possibly under a new member id. Migrations under way are given up; every switch connected here
     * takes the role the merged map gives this member; the oldest member reassigns what names the old id. Until this
     * has run to its end the member masters nothing (see {@link Coordinator#merging}), so a failure is tried again.
     */
    private void rejoined() {
        var j = joined;
        if (j == null) {
            return;
        }
        try {
            var id = j.hz().getCluster().getLocalMember().getUuid().toString();
            log.warn("cluster: merged back after a split; member id {} (was {})", id, self);
            if (!id.equals(self)) {
                var old = self;
                inbox.close(j.hz(), old);
                inbox.listen(j.hz(), id);
                self = id;
                j.reports().remove(old);
                // At once, under the new id: a migration read meanwhile would find this member connected to nothing.
                j.store().publish();
            }
            long readAt = System.nanoTime();
            coordinator.merged(new HashMap<>(j.masters()), readAt);
        } catch (RuntimeException e) {
            log.warn("cluster: merged back after a split, but reading the merged map failed (again in {} ms): {}",
                    REJOIN_RETRY_MILLIS, e.toString());
            coordinator.after(REJOIN_RETRY_MILLIS, () -> j.store().execute(this::rejoined));
        }
    }

    /**
     * A member that leaves on purpose first moves the switches it masters to the others (see {@link HandOff}), unless
     * it has no majority: then the others take them, as they take whatever it fails to move.
     */
    void handOff() {
        var j = joined;
        if (j == null) {
            return;
        }
        try {
            if (!j.members().quorum()) {
                log.warn("cluster: leaving without a majority of cluster.members present: no switch is handed over");
                return;
            }
            handingOff = true;
            HandOff.leave(this, j, timeout());
        } catch (RuntimeException e) {
            log.warn("cluster: leaving: no switch handed over, the others take them over: {}", e.toString());
        }
    }

    /** The switches connected here that this member masters, but for {@code except}. */
    List<Long> mastered(Set<Long> except) {
        var me = self;
        return switches.dpids().stream().filter(d -> !except.contains(d) && me.equals(masterView.get(d))).sorted()
                .toList();
    }

    /** Whether a switch is moving to this member. */
    boolean receivingSwitches() {
        return migrations.anyIncoming();
    }

    /** Leaves the cluster, and stops every thread of this member. */
    void stop() {
        Joined j;
        synchronized (lifecycle) {
            stopped = true; // a join still under way shuts its member down itself (see join)
            j = joined;
        }
        try {
            if (j == null) {
                coordinator.close(); // not joined (a join still under way stops on its own): no migration to give up
            } else {
                // While still joined: giving a migration up tells its peer, through the member's topic. On the
                // coordinator, as its last task, so that no round starts another after it.
                boolean canSend = j.hz().getLifecycleService().isRunning();
                if (!coordinator.closeAfter(() -> migrations.stop(canSend))) {
                    migrations.stop(false); // their callers are still told
                }
            }
        } finally {
            synchronized (lifecycle) {
                joined = null;
            }
            arbiter.close();
            if (j != null) {
                j.store().close();
            }
            ready.completeExceptionally(new IllegalStateException("the cluster bundle stopped"));
            if (j != null) {
                j.hz().shutdown(); // its threads are not daemons: left running they would keep the JVM alive
            }
            switches.clear();
            masterView.clear();
            forwarding.clear();
        }
    }

    // ------------------------------------------------------------------------------------------ Peers

    @Override
    public String self() {
        return self;
    }

    @Override
    public SwitchState local(long dpid) {
        return switches.get(dpid);
    }

    /** A master that is no longer a member is none: writes wait for the next one rather than go to the dead. */
    @Override
    public String master(long dpid) {
        return masterView.live(dpid);
    }

    @Override
    public void send(String member, Message m) {
        joined.hz().<byte[]>getTopic(Inbox.topic(member)).publishAsync(m.encode());
    }

    @Override
    public void after(long millis, Runnable task) {
        coordinator.after(millis, task);
    }

    @Override
    public Duration timeout() {
        return Duration.ofMillis(settings.get().migrationTimeout());
    }

    @Override
    public String describe(String member) {
        var j = joined;
        return j != null ? j.members().describe(member) : Members.shortId(member);
    }

    @Override
    public CompletionStage<Void> handOver(long dpid, String target) {
        var done = new CompletableFuture<Void>();
        joined.masters().putAsync(dpid, target).whenComplete((old, e) -> coordinator.later(() -> {
            if (e != null) {
                done.completeExceptionally(e);
                return;
            }
            masterView.learned(dpid, target);
            done.complete(null);
        }));
        return done;
    }

    @Override
    public boolean leaving() {
        return handingOff;
    }
}
