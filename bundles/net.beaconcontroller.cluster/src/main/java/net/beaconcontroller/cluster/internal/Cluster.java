package net.beaconcontroller.cluster.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryMergedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;

import net.beaconcontroller.cluster.ICluster;
import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.IRoleArbiter;
import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.SwitchLocal;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.vendor.NiciraRole;
import net.beaconcontroller.util.Dpids;

/**
 * This instance as a member of a Beacon cluster: an embedded Hazelcast member, the shared map of masters, the role
 * of each switch on this instance, writes forwarded to masters, and switch migration.
 *
 * <p>Who writes what: the oldest member assigns a master to every switch that has none alive (at connection,
 * after a member left) and plans balancing moves; a switch's current master runs its migration and names the new
 * master in the map at the hand-over point; every member follows the map for the switches connected to it.
 *
 * <p>It starts at a lower start level than the core, so that no switch is handled as this instance's own before the
 * cluster decides (see {@link IRoleArbiter}); it needs no service of the core.
 */
@Component(service = {}, immediate = true, configurationPid = "cluster",
        configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = ClusterConfig.class)
public final class Cluster implements ICluster, IRoleArbiter, IOFSwitchListener, Peers {
    private static final Logger log = LoggerFactory.getLogger(Cluster.class);
    private static final SwitchLocal<SwitchState> STATE = new SwitchLocal<>("cluster", null);
    /** Threads that decide the roles of connecting switches (each decision waits on the cluster). */
    private static final int HANDSHAKE_THREADS = 4;
    /** How long a member that leaves on purpose spends handing its switches over (see handOff). */
    private static final Duration HAND_OFF_LIMIT = Duration.ofSeconds(10);
    /** The coordinator's round: reports written, decisions re-derived, roles checked against the switches. */
    private static final long TICK_MILLIS = 500;
    /** A role request not answered in this time is asked again on a later round. */
    private static final Duration ROLE_TIMEOUT = Duration.ofSeconds(2);
    /** How often connections to the other members are checked for a process that is gone (see DeathWatch). */
    private static final long DEATH_WATCH_MILLIS = 200;

    private BundleContext context;
    private volatile ClusterConfig config;
    private volatile Duration timeout;
    /** Guarded by itself, as is {@code registered}: the shared state is published from the joining thread. */
    private final List<ServiceRegistration<?>> registrations = new ArrayList<>();
    private boolean registered;
    private volatile ScheduledExecutorService executor;
    private volatile ExecutorService handshakes;
    private volatile CompletableFuture<HazelcastInstance> ready = new CompletableFuture<>();
    private volatile HazelcastInstance hz;
    /** Guards {@code stopped} and the publication of {@code hz}: a stop and a join that ends meanwhile. */
    private final Object lifecycle = new Object();
    private boolean stopped;
    private volatile String self;
    /** The listener on this member's topic, {@code beacon.member.<self>}. */
    private volatile UUID inbox;
    private IMap<Long, String> masters;
    /** Each member's {@link MemberReport}, written by that member only. */
    private Reports reports;
    /** Members handing their switches over before they leave: no switch is given to them. */
    private IMap<String, Boolean> leaving;
    private volatile boolean handingOff;
    /** Who this member sees, set with the maps when it joins. */
    private volatile Members members;
    /** The shared maps' reads and writes, off the coordinator thread. */
    private volatile Store store;
    private final MasterView masterView = new MasterView(this::isMember, System::nanoTime);
    private final Map<Long, SwitchState> local = new ConcurrentHashMap<>();
    private final Forwarding forwarding = new Forwarding(this);
    private final Migrations migrations = new Migrations(this);
    // The coordinator thread's own (the executor's single thread): every event that changes them is posted to it.
    /** Membership changed: MASTER roles are asserted again on the next round (see followMasters). */
    private boolean reassert;
    private boolean hadQuorum = true;

    @Activate
    void activate(BundleContext context, ClusterConfig c) {
        validate(c);
        this.context = context;
        if (c.enabled()) {
            startAndRegister(c);
        }
    }

    /**
     * Balancing and migration settings apply at once; turning the cluster on or off starts or leaves it; the
     * member's own settings (name, members, address, port, failure timeout) need the bundle restarted, since the
     * member would otherwise rejoin under another identity in the middle of its work.
     */
    @Modified
    void modified(ClusterConfig c) {
        validate(c);
        var before = config;
        if (before == null || !before.enabled()) {
            if (c.enabled()) {
                startAndRegister(c);
            }
            return;
        }
        if (!c.enabled()) {
            deactivate();
            config = c;
            return;
        }
        String changed = !c.name().equals(before.name()) ? "cluster.name"
                : !Arrays.equals(c.members(), before.members()) ? "cluster.members"
                : !c.bindAddress().equals(before.bindAddress()) ? "cluster.bindAddress"
                : c.port() != before.port() ? "cluster.port"
                : c.failureTimeout() != before.failureTimeout() ? "cluster.failureTimeout" : null;
        if (changed != null) {
            throw new SettingException(changed, "(changed)", "this member's own setting applies when the bundle"
                    + " restarts: set it with --save, then stop and start net.beaconcontroller.cluster");
        }
        config = c;
        timeout = Duration.ofMillis(c.migrationTimeout());
    }

    private void startAndRegister(ClusterConfig c) {
        synchronized (registrations) {
            registered = true;
        }
        start(c);
        // Registered before the member has joined: switches that connect meanwhile wait for it (initialRole).
        register(IRoleArbiter.class, this);
        register(IOFSwitchListener.class, this);
        register(ICluster.class, this);
    }

    private <T> void register(Class<T> type, T service) {
        register(type, service, null);
    }

    /**
     * Publishes a service of this member unless the bundle is stopping, or {@code member} (if given) is no longer the
     * running member (outside OSGi, for tests: nothing).
     */
    private <T> void register(Class<T> type, T service, HazelcastInstance member) {
        synchronized (registrations) {
            if (registered && context != null
                    && (member == null || member == hz && member.getLifecycleService().isRunning())) {
                registrations.add(context.registerService(type, service, null));
            }
        }
    }

    @Deactivate
    void deactivate() {
        try {
            handOff(); // while the core still has this arbiter: migrations need it
        } catch (RuntimeException e) {
            log.warn("cluster: leaving: no switch handed over, the others take them over: {}", e.toString());
        } finally {
            synchronized (registrations) {
                registered = false;
                registrations.forEach(ServiceRegistration::unregister);
                registrations.clear();
            }
            stop();
        }
    }

    /** Joins the cluster in the background (outside OSGi: for tests). */
    void start(ClusterConfig c) {
        synchronized (lifecycle) {
            stopped = false;
        }
        config = c;
        handingOff = false;
        ready = new CompletableFuture<>();
        timeout = Duration.ofMillis(c.migrationTimeout());
        executor = Executors.newSingleThreadScheduledExecutor(r -> Threads.named(r, "beacon-cluster"));
        var count = new AtomicLong();
        handshakes = Executors.newFixedThreadPool(HANDSHAKE_THREADS,
                r -> Threads.named(r, "beacon-cluster-handshake-" + count.incrementAndGet()));
        executor.execute(this::join);
    }

    /** The state applications share, once this member has joined (published as a service then). */
    ISharedState sharedState() {
        return new SharedState(ready.join());
    }

    /**
     * A member that leaves on purpose first moves the switches it masters to the others (see {@link HandOff}), unless
     * it has no majority: then the others take them.
     */
    void handOff() {
        if (hz == null || executor == null) {
            return;
        }
        if (!members.quorum()) {
            log.warn("cluster: leaving without a majority of cluster.members present: no switch is handed over");
            return;
        }
        handingOff = true;
        try {
            leaving.set(self, true, 1, TimeUnit.MINUTES); // no longer than a rejoin under the same id could take
        } catch (RuntimeException e) {
            log.warn("cluster: leaving: the others could not be told ({}); handing over anyway", e.toString());
        }
        // A round this member started, if it is the oldest: its switches cannot move twice at once.
        var pending = store.balancing();
        CompletionStage<?> round;
        try {
            round = pending.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (ExecutionException | TimeoutException e) {
            round = CompletableFuture.completedFuture(null);
        }
        try {
            new HandOff(this, targets(), new HashMap<>(masters)).run(round, HAND_OFF_LIMIT, timeout);
        } catch (RuntimeException e) {
            log.warn("cluster: leaving: no switch handed over, the others take them over: {}", e.toString());
        }
    }

    /** The switches connected here that this member masters, but for {@code except}. */
    List<Long> mastered(Set<Long> except) {
        return local.keySet().stream().filter(d -> !except.contains(d) && self.equals(masterView.get(d))).sorted()
                .toList();
    }

    boolean receivingSwitches() {
        return migrations.anyIncoming();
    }

    /** Leaves the cluster. */
    void stop() {
        HazelcastInstance h;
        synchronized (lifecycle) {
            stopped = true; // a join still under way shuts its member down itself (see join)
            h = hz;
            hz = null;
        }
        try {
            migrations.stop(h != null && h.getLifecycleService().isRunning());
        } catch (RuntimeException e) {
            log.warn("cluster: stopping: migrations under way not given up cleanly: {}", e.toString());
        } finally {
            if (executor != null) {
                executor.shutdownNow();
                executor = null;
                handshakes.shutdownNow();
            }
            var st = store;
            if (st != null) {
                st.close();
                store = null;
            }
            ready.completeExceptionally(new IllegalStateException("the cluster bundle stopped"));
            if (h != null) {
                h.shutdown(); // its threads are not daemons: left running they would keep the JVM alive
            }
            local.clear();
            masterView.clear();
            forwarding.clear();
        }
    }

    private static void validate(ClusterConfig c) {
        for (var m : c.members()) {
            if (!m.matches("[A-Za-z0-9.:\\[\\]-]+(:\\d{1,5})?")) {
                throw new SettingException("cluster.members", String.join(",", c.members()),
                        "expected host or host:port entries, got '" + m + "'");
            }
        }
        if (c.lowWater() >= c.highWater()) {
            throw new SettingException("cluster.lowWater", Integer.toString(c.lowWater()),
                    "it must be below cluster.highWater (" + c.highWater() + ")");
        }
    }

    // ------------------------------------------------------------------------------------------------ membership

    private void join() {
        var c = MemberConfig.of(config);
        try {
            var h = Hazelcast.newHazelcastInstance(c);
            self = h.getCluster().getLocalMember().getUuid().toString();
            masters = h.getMap("beacon.masters");
            reports = new Reports(h.getMap("beacon.reports"));
            leaving = h.getMap("beacon.leaving");
            members = new Members(h, MemberConfig.configuredMembers(config));
            store = new Store(members, masters, reports, leaving, () -> self, local, () -> config, this::migrate,
                    () -> handingOff);
            synchronized (lifecycle) {
                if (stopped) { // the bundle stopped while the member joined: nobody else would shut it down
                    h.shutdown();
                    return;
                }
                hz = h; // last: readers take a set hz to mean that everything above is there
            }
            masters.addEntryListener(new MasterListener(), true);
            masters.forEach(masterView::learned);
            inbox = h.getTopic("beacon.member." + self).addMessageListener(m -> receive(m.getMessageObject()));
            h.getLifecycleService().addLifecycleListener(e -> {
                if (e.getState() == LifecycleEvent.LifecycleState.MERGED) {
                    store.execute(this::rejoined);
                }
            });
            h.getCluster().addMembershipListener(new MembershipListener() {
                @Override
                public void memberAdded(MembershipEvent e) {
                    log.info("cluster: member {} joined ({} members)", e.getMember().getAddress(), e.getMembers().size());
                    later(Cluster.this::membersChanged);
                }

                @Override
                public void memberRemoved(MembershipEvent e) {
                    log.warn("cluster: member {} left ({} members)", e.getMember().getAddress(), e.getMembers().size());
                    var id = e.getMember().getUuid().toString();
                    var address = e.getMember().getAddress().getHost() + ":" + e.getMember().getAddress().getPort();
                    later(() -> memberLeft(id, address));
                }
            });
            int size = h.getCluster().getMembers().size();
            var address = config.bindAddress() + ":" + config.port();
            if (size == 1 && List.of(config.members()).stream().anyMatch(m -> !m.equals(address))) {
                log.warn("cluster '{}': no other member answered at {}; running alone until one joins (are"
                        + " cluster.name and cluster.members the same on every instance?)", config.name(),
                        String.join(",", config.members()));
            } else {
                log.info("cluster '{}': joined as {} with {} member(s)", config.name(), address, size);
            }
            ready.complete(h);
            // Only once joined: an application that finds it reads the other members' state at once.
            register(ISharedState.class, new SharedState(h), h);
            store.execute(store::publish);
            executor.scheduleWithFixedDelay(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
            var watch = new DeathWatch(h, DEATH_WATCH_MILLIS);
            executor.scheduleWithFixedDelay(() -> {
                try {
                    watch.check();
                } catch (RuntimeException e) {
                    log.warn("cluster: checking for members whose process is gone failed: {}", e.toString());
                }
            }, DEATH_WATCH_MILLIS, DEATH_WATCH_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            log.error("cluster: cannot start the member on {}:{}: {}", config.bindAddress(), config.port(),
                    e.getMessage());
            ready.completeExceptionally(e);
        }
    }

    /**
     * Back from a split (the store's thread): this member rejoined the larger part of the cluster, whose map of
     * masters won, possibly under a new member id. Migrations under way are given up; every switch connected here is
     * registered again and takes the role the merged map gives this member; the oldest member reassigns what names
     * the old id.
     */
    private void rejoined() {
        var h = hz;
        if (h == null) {
            return;
        }
        var id = h.getCluster().getLocalMember().getUuid().toString();
        log.warn("cluster: merged back after a split; member id {} (was {})", id, self);
        if (!id.equals(self)) {
            h.getTopic("beacon.member." + self).removeMessageListener(inbox);
            reports.remove(self);
            self = id;
            inbox = h.getTopic("beacon.member." + self).addMessageListener(m -> receive(m.getMessageObject()));
            // At once, under the new id: a migration read meanwhile would find this member connected to nothing.
            store.publish();
        }
        var merged = new HashMap<>(masters);
        later(() -> merged(merged));
    }

    /** Coordinator thread: the part of {@link #rejoined} that touches this member's switches. */
    private void merged(Map<Long, String> merged) {
        migrations.giveUpAll("the cluster merged after a split");
        local.values().forEach(st -> st.sw.execute(st::open));
        masterView.replaceAll(merged);
        store.execute(store::publish);
        membersChanged();
    }

    /** Runs a task on the cluster's thread, unless the cluster has stopped meanwhile (then there is nothing to do). */
    private void later(Runnable task) {
        after(0, task);
    }

    @Override
    public void after(long millis, Runnable task) {
        var ex = executor;
        if (ex == null) {
            return;
        }
        try {
            ex.schedule(() -> {
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

    /** The live members a switch may be given to: the ones not leaving, oldest first. */
    private List<String> targets() {
        var gone = leaving.keySet();
        return members.live().stream().filter(m -> !gone.contains(m)).toList();
    }

    /** The live members connected to a switch, by their reports (a read of the shared map). */
    Set<String> connectedTo(long dpid) {
        return reports.connectedTo(dpid, members.live());
    }

    /** Coordinator thread: a member joined or the cluster merged. */
    private void membersChanged() {
        reassert = true;
        store.balanceSoon();
        refresh();
    }

    /** Coordinator thread: a fresh view of the masters map, read off this thread, then the roles follow it. */
    private void refresh() {
        store.round(view -> later(() -> followMasters(view)));
    }

    /**
     * Coordinator thread. Migrations with the member that left are given up at once: as the target of one whose
     * source died, this member would otherwise hold the switch as EQUAL and drop its messages until its own timeout.
     */
    private void memberLeft(String member, String address) {
        migrations.memberLeft(member);
        reports.remove(member);
        reassert = true;
        if (hasQuorum()) {
            takeOver(member, address);
            store.decideNow();
        }
        refresh();
    }

    /**
     * Coordinator thread, with a majority: the switches of a member that died which the oldest member's next decision
     * gives to this one ({@link Mastership#successors}: the same rule, from the masters map every member caches alike),
     * asserted at once, and the other members told (so that their writes for the switch come here meanwhile). The
     * oldest member's own decision waits until Hazelcast has re-homed the dead member's partitions, which took over
     * 5 s in a CI run when the oldest member itself died. Should the oldest decide otherwise (a member was not
     * connected to the switch), this member follows the map back to SLAVE as for any change of master.
     */
    private void takeOver(String dead, String address) {
        var live = members.live();
        Mastership.successors(dead, live, masterView.snapshot()).forEach((dpid, successor) -> {
            var st = local.get(dpid);
            if (self.equals(successor) && st != null && !migrations.migrating(dpid)) {
                log.info("cluster: switch {} taken over from {}, which left: asserting MASTER", st.sw.getStringId(),
                        address);
                follow(st, self, true, true);
                var told = new Message.TakenOver(dpid, self, dead);
                live.stream().filter(m -> !m.equals(self)).forEach(m -> send(m, told));
            }
        });
    }

    /** Coordinator thread: {@link Members#quorum}, saying when it changes. */
    private boolean hasQuorum() {
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
     * Coordinator thread, every {@link #TICK_MILLIS}: load sampled here; the report, the oldest member's decisions
     * and balancing on the store's thread; roles checked against the view it reads.
     */
    private void tick() {
        try {
            forgetClosed();
            reports.sample(local.values());
            refresh();
        } catch (RuntimeException e) {
            // A scheduled task that throws is never run again: the member would stop following the map.
            log.warn("cluster: a round of mastership work failed (tried again in {} ms): {}", TICK_MILLIS, e.toString());
        }
    }

    /**
     * Switches whose connection closed without a removedSwitch (during their handshake, which the core does not
     * report) are forgotten as if they had been removed.
     */
    private void forgetClosed() {
        for (var st : List.copyOf(local.values())) {
            if (!st.sw.isConnected()) {
                removedSwitch(st.sw);
            }
        }
        // The map may name this member for a switch it no longer has (the oldest read a report written before the
        // switch left): only this member can tell, and it gives the switch back at once.
        masterView.snapshot().forEach((dpid, m) -> {
            if (m.equals(self) && !local.containsKey(dpid)) {
                store.giveBack(dpid);
            }
        });
    }

    /**
     * Coordinator thread, every tick and at once after membership changes: the roles of the switches connected here
     * follow the map, checked against the role each switch last granted, until they agree. After membership changed,
     * or when another member reports MASTER for a switch the map gives this member, MASTER is asserted again even
     * where this member believes it holds it: a switch demotes a master without telling it. For a switch whose
     * master an event changed after the view was read (the map's listener, a take-over), the cache is newer.
     */
    private void followMasters(Store.View view) {
        // Only with a majority: a member cut off from it must not take switches back from masters on the other side.
        boolean majority = hasQuorum();
        boolean force = reassert && majority;
        reassert = false;
        for (var st : local.values()) {
            long dpid = st.sw.getId();
            var read = view.masters().get(dpid);
            if (read == null) {
                continue;
            }
            var m = masterView.reconcile(dpid, read, view.readAt());
            if (m != null) {
                follow(st, m, majority, force || view.contested().contains(dpid));
            }
        }
    }

    /** Coordinator thread: one switch's role follows {@code master}; at most one role request in flight each. */
    private void follow(SwitchState st, String master, boolean majority, boolean force) {
        long dpid = st.sw.getId();
        if (migrations.migrating(dpid) || !st.sw.isConnected() || st.rolesUnsupported) {
            return; // a migration sets the roles itself
        }
        if (!isMember(master)) {
            return; // the oldest member has yet to name a new master: a member that took the switch over keeps it
        }
        var want = self.equals(master) ? NiciraRole.MASTER : NiciraRole.SLAVE;
        if (want == NiciraRole.MASTER && !majority || st.asking == want
                || st.sw.getRole() == want && !(force && want == NiciraRole.MASTER)) {
            return;
        }
        // Stepping down: the switch demoted the new master, silently, if this member's MASTER request reached it last.
        boolean steppingDown = want == NiciraRole.SLAVE && st.sw.getRole() == NiciraRole.MASTER;
        st.asking = want;
        st.sw.setRole(want, ROLE_TIMEOUT).whenComplete((r, e) -> later(() -> {
            if (st.asking == want) {
                st.asking = null;
            }
            if (e instanceof UnsupportedOperationException
                    || e != null && e.getCause() instanceof UnsupportedOperationException) {
                st.rolesUnsupported = true; // the core has said so once; the switch stays with this member
            } else if (e != null) {
                log.warn("cluster: switch {} did not grant role {} (asked again within {} ms): {}",
                        st.sw.getStringId(), want, TICK_MILLIS, e.getMessage());
            } else if (r != want) {
                log.warn("cluster: switch {} granted {} when asked for {}", st.sw.getStringId(), r, want);
            } else {
                store.execute(store::publish);
                if (steppingDown) {
                    send(master, new Message.Reassert(dpid, self));
                }
            }
        }));
    }

    private final class MasterListener implements EntryAddedListener<Long, String>, EntryUpdatedListener<Long, String>,
            EntryRemovedListener<Long, String>, EntryMergedListener<Long, String> {
        @Override
        public void entryAdded(EntryEvent<Long, String> e) {
            changed(e.getKey(), e.getValue());
        }

        @Override
        public void entryUpdated(EntryEvent<Long, String> e) {
            changed(e.getKey(), e.getValue());
        }

        @Override
        public void entryMerged(EntryEvent<Long, String> e) {
            changed(e.getKey(), e.getValue());
        }

        @Override
        public void entryRemoved(EntryEvent<Long, String> e) {
            masterView.changed(e.getKey(), null);
        }

        /** The cache at once (forwarded writes read it); the role on the coordinator thread. */
        private void changed(long dpid, String master) {
            masterView.changed(dpid, master);
            later(() -> {
                var st = local.get(dpid);
                if (st != null && master.equals(masterView.get(dpid))) {
                    follow(st, master, hasQuorum(), false);
                }
            });
        }
    }

    // ------------------------------------------------------------------------------------------ the role arbiter

    @Override
    public CompletionStage<NiciraRole> initialRole(IOFSwitch sw) {
        var st = new SwitchState(sw);
        sw.setLocal(STATE, st);
        long dpid = sw.getId();
        // On a pool of their own: a burst of connecting switches must not wait behind the periodic work, nor it for them.
        return ready.thenApplyAsync(h -> {
            // Connections of one switch wait here together and run in no set order (a future completes its
            // dependents last first): only the newest may stand for the switch, and only while it is open (one that
            // closes in its handshake is never removedSwitch'ed).
            var current = local.merge(dpid, st, (old, nu) -> {
                if (old.seq > nu.seq && old.sw.isConnected()) {
                    return old;
                }
                nu.previous = old; // back in its place should this one close in its handshake while it lives on
                return nu;
            });
            if (current != st || !sw.isConnected()) {
                local.remove(dpid, st);
                throw new IllegalStateException("switch " + sw.getStringId() + " connected again or closed during its"
                        + " handshake");
            }
            // First: the oldest member must not see this member's claim without its connection.
            reports.publish(self, local.values());
            var m = masters.get(dpid);
            if (!members.quorum()) {
                // Cut off from a majority, or not yet joined by one: the switch's master may be alive on the other
                // side, and MASTER asserted here would take the switch from it.
                if (m != null) {
                    masterView.learned(dpid, m);
                }
                return NiciraRole.SLAVE;
            }
            if (m == null && !handingOff) { // a leaving member claims none: the oldest member finds it a master
                var before = masters.putIfAbsent(dpid, self);
                m = before == null ? self : before;
            }
            if (m != null) {
                masterView.learned(dpid, m);
            }
            return self.equals(m) ? NiciraRole.MASTER : NiciraRole.SLAVE;
        }, handshakes);
    }

    @Override
    public boolean handles(IOFSwitch sw, OFMessage msg) {
        var st = sw.getLocal(STATE);
        return st == null || st.handles(msg);
    }

    @Override
    public void writeThroughMaster(IOFSwitch sw, OFMessage msg) {
        forwarding.write(sw, msg);
    }

    @Override
    public CompletionStage<Void> barrierThroughMaster(IOFSwitch sw, Duration timeout) {
        if (self == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("this member has not joined a cluster"));
        }
        return forwarding.barrier(sw, timeout);
    }

    /** Its handshake is over and the switch has granted its first role: the others learn it at once. */
    @Override
    public void addedSwitch(IOFSwitch sw) {
        var s = store;
        if (s != null) {
            s.execute(s::publish);
        }
    }

    @Override
    public void removedSwitch(IOFSwitch sw) {
        long dpid = sw.getId();
        var st = local.get(dpid);
        if (st == null || st.sw != sw) {
            return; // a newer connection of the same switch already took its place
        }
        var previous = st.previous;
        st.previous = null;
        if (previous != null && previous.sw.isConnected() && local.replace(dpid, st, previous)) {
            return; // a newer connection closed in its handshake; the older one still stands for the switch
        }
        local.remove(dpid, st);
        migrations.switchRemoved(dpid);
        var s = store;
        if (s != null) {
            s.giveBack(dpid); // the oldest member picks a new master among the others
        }
    }

    // ------------------------------------------------------------------------------------------------- migration

    @Override
    public CompletionStage<Migration> migrate(long dpid, String member) {
        var result = new CompletableFuture<Migration>();
        if (executor == null || hz == null) {
            result.completeExceptionally(new IllegalStateException("this member has not joined a cluster"));
            return result;
        }
        // What the move starts from is read off the coordinator thread, as every read of the shared maps is.
        store.execute(() -> {
            try {
                var target = members.resolve(member);
                var master = masters.get(dpid);
                var connected = reports.connectedTo(dpid, members.live());
                later(() -> {
                    try {
                        migrations.migrate(dpid, target, master, connected, result);
                    } catch (RuntimeException e) {
                        result.completeExceptionally(e);
                    }
                });
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /** A message from another member, on a Hazelcast event thread. */
    private void receive(Object payload) {
        Message m;
        try {
            if (!(payload instanceof byte[] bytes)) {
                throw new IllegalArgumentException("not bytes but " + payload);
            }
            m = Message.decode(bytes);
        } catch (IllegalArgumentException e) {
            log.warn("cluster: dropped a message from another member: {}", e.getMessage());
            return;
        }
        try {
            if (m instanceof Message.Write || m instanceof Message.Barrier) {
                forwarding.received(m);
            } else if (m instanceof Message.BarrierDone d) {
                forwarding.barrierDone(d);
            } else if (m instanceof Message.Migrate g) {
                migrations.migrateAsked(g);
            } else if (m instanceof Message.Step st) {
                migrations.received(st);
            } else if (m instanceof Message.Reassert r) {
                later(() -> {
                    var st = local.get(r.dpid());
                    if (st != null && self.equals(masterView.get(r.dpid()))) {
                        follow(st, self, hasQuorum(), true);
                    }
                });
            } else if (m instanceof Message.TakenOver t) {
                masterView.takenOver(t.dpid(), t.from(), t.dead());
            }
        } catch (RuntimeException e) {
            log.warn("cluster: {} for switch {} failed: {}", m.getClass().getSimpleName(), Dpids.toString(m.dpid()),
                    e.toString());
        }
    }

    // ------------------------------------------------------------------------------------------------ the parts' view

    @Override
    public String self() {
        return self;
    }

    @Override
    public SwitchState local(long dpid) {
        return local.get(dpid);
    }

    /** A master that is no longer a member is none: writes wait for the next one rather than go to the dead. */
    @Override
    public String master(long dpid) {
        return masterView.live(dpid);
    }

    /** Whether {@code id} is this member or one it sees now. */
    private boolean isMember(String id) {
        var m = members;
        return id.equals(self) || m != null && hz != null && m.contains(id);
    }

    @Override
    public void send(String member, Message m) {
        hz.<byte[]>getTopic("beacon.member." + member).publishAsync(m.encode());
    }

    @Override
    public Duration timeout() {
        return timeout;
    }

    @Override
    public void handOver(long dpid, String target) {
        masters.put(dpid, target);
        masterView.learned(dpid, target);
    }

    @Override
    public boolean leaving() {
        return handingOff;
    }

    // ------------------------------------------------------------------------------------------ what others see

    @Override
    public String localMemberId() {
        return self;
    }

    @Override
    public List<Member> members() {
        var h = hz;
        if (h == null) {
            return List.of();
        }
        var all = h.getCluster().getMembers();
        var byMember = reports.live(all.stream().map(m -> m.getUuid().toString()).toList());
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
    public int membersNeeded() {
        var h = hz;
        if (h == null) {
            return 1;
        }
        long total = reports.live(members.live()).values().stream().mapToLong(MemberReport::masteredRate).sum();
        long perMember = Math.max(1, ((long) config.highWater() + config.lowWater()) / 2);
        return (int) Math.max(1, (total + perMember - 1) / perMember);
    }

    @Override
    public boolean settled() {
        var node = Internals.node(hz);
        // Read here only: isLocalMemberSafe and isPartitionTableSafe ask other members and wait for them, which a
        // console command or /metrics must not do while a member is frozen.
        return node != null && !node.partitionService.hasOnGoingMigrationLocal();
    }

    @Override
    public Map<Long, String> masters() {
        return hz == null ? Map.of() : new TreeMap<>(masters);
    }

    @Override
    public List<Migration> recentMigrations() {
        return migrations.recent();
    }

    @Override
    public String describe(String member) {
        var m = members;
        return m != null && hz != null ? m.describe(member) : member.length() > 8 ? member.substring(0, 8) : member;
    }
}
