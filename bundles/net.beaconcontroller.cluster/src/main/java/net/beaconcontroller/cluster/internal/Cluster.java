package net.beaconcontroller.cluster.internal;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
import com.hazelcast.config.Config;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryMergedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import com.hazelcast.multimap.MultiMap;

import net.beaconcontroller.cluster.ICluster;
import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.IRoleArbiter;
import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.SwitchLocal;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFMessageReader;
import net.beaconcontroller.openflow.OFParseException;
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
public final class Cluster implements ICluster, IRoleArbiter, IOFSwitchListener {
    private static final Logger log = LoggerFactory.getLogger(Cluster.class);
    private static final SwitchLocal<SwitchState> STATE = new SwitchLocal<>("cluster", null);
    private static final int RECENT_MIGRATIONS = 100;
    /** Threads that decide the roles of connecting switches (each decision waits on the cluster). */
    private static final int HANDSHAKE_THREADS = 4;
    /** How long a forwarded write waits for its switch to have a master before it is dropped. */
    private static final int FORWARD_RETRIES = 40;
    private static final long FORWARD_RETRY_MILLIS = 50;
    /** How long a member that leaves on purpose spends handing its switches over (see handOff). */
    private static final Duration HAND_OFF_LIMIT = Duration.ofSeconds(10);

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
    private volatile String self;
    private IMap<Long, String> masters;
    private MultiMap<Long, String> connected;
    private IMap<Long, Long> rates;
    private IMap<String, String> memberLoad;
    /** Members handing their switches over before they leave: no switch is given to them. */
    private IMap<String, Boolean> leaving;
    private volatile boolean handingOff;
    /** The masters map as last seen: read on every forwarded write, so it must not cost a network round trip. */
    private final Map<Long, String> masterCache = new ConcurrentHashMap<>();
    private final Map<Long, SwitchState> local = new ConcurrentHashMap<>();
    private final Map<Long, Outgoing> outgoing = new ConcurrentHashMap<>();
    /** WRITEs and BARRIERs for switches without a master to send them to, in order; guarded by itself. */
    private final Map<Long, ArrayDeque<Wire>> waiting = new HashMap<>();
    /** Barriers asked through a master (see barrierThroughMaster), by id. */
    private final Map<Long, CompletableFuture<Void>> barriers = new ConcurrentHashMap<>();
    private final AtomicLong barrierIds = new AtomicLong();
    /** Migrations this member is the target of: switch to migration id. */
    private final Map<Long, Long> incoming = new ConcurrentHashMap<>();
    private final ArrayDeque<Migration> recent = new ArrayDeque<>();
    private final AtomicLong migrationIds = new AtomicLong(System.nanoTime() & 0xffff_ffffL);
    private long lastSample = System.nanoTime();
    private long lastBalance = System.nanoTime();
    private volatile CompletionStage<Migration> balancing = CompletableFuture.completedFuture(null);
    /** Membership changed: MASTER roles are asserted again on the next tick (see followMasters). */
    private volatile boolean reassert;
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
        handOff(); // while the core still has this arbiter: migrations need it
        synchronized (registrations) {
            registered = false;
            registrations.forEach(ServiceRegistration::unregister);
            registrations.clear();
        }
        stop();
    }

    /** Joins the cluster in the background (outside OSGi: for tests). */
    void start(ClusterConfig c) {
        config = c;
        handingOff = false;
        ready = new CompletableFuture<>();
        timeout = Duration.ofMillis(c.migrationTimeout());
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "beacon-cluster"));
        var count = new AtomicLong();
        handshakes = Executors.newFixedThreadPool(HANDSHAKE_THREADS,
                r -> new Thread(r, "beacon-cluster-handshake-" + count.incrementAndGet()));
        executor.execute(this::join);
    }

    /** The state applications share, once this member has joined (published as a service then). */
    ISharedState sharedState() {
        return new SharedState(ready.join());
    }

    /**
     * A member that leaves on purpose first moves the switches it masters to the others, one migration at a time, so
     * none of their PACKET_INs is lost; a take-over after it has gone would leave them without a master for a second
     * or two. What is not moved within {@link #HAND_OFF_LIMIT} is taken over as from a member that failed.
     */
    void handOff() {
        if (hz == null || executor == null) {
            return;
        }
        if (!hasQuorum()) {
            // Without a majority a member must not hand switches over (see hasQuorum): the others take them.
            log.warn("cluster: leaving without a majority of cluster.members present: no switch is handed over");
            return;
        }
        long started = System.nanoTime();
        long deadline = started + HAND_OFF_LIMIT.toNanos();
        var tried = new HashSet<Long>();
        var failed = new ArrayList<String>();
        try {
            handingOff = true;
            leaving.set(self, true, 1, TimeUnit.MINUTES); // no longer than a rejoin under the same id could take
            try {
                // One this member started, if it is the oldest: its switch cannot move twice at once.
                waitFor(balancing, Math.min(deadline, System.nanoTime() + timeout.toNanos()));
            } catch (RuntimeException e) {
                log.debug("cluster: leaving: a balancing move did not finish", e);
            }
            var targets = targets();
            if (targets.isEmpty()) {
                return;
            }
            var counts = new HashMap<String, Integer>();
            masters.values().forEach(m -> counts.merge(m, 1, Integer::sum));
            // Again until none is left: a move to this member planned just before it said it was leaving lands late.
            while (System.nanoTime() < deadline && !Thread.currentThread().isInterrupted()) {
                var mine = mastered(tried);
                if (mine.isEmpty()) {
                    if (incoming.isEmpty()) {
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
                    var conns = new HashSet<>(connected.get(dpid));
                    conns.retainAll(targets);
                    if (conns.isEmpty()) {
                        failed.add(Dpids.toString(dpid) + " (no other member is connected to it)");
                        continue;
                    }
                    var to = Balancer.pick(conns, counts, targets);
                    counts.merge(to, 1, Integer::sum);
                    try {
                        waitFor(migrate(dpid, to), deadline);
                    } catch (RuntimeException e) {
                        failed.add(Dpids.toString(dpid) + " (" + e.getMessage() + ")");
                    }
                }
            }
            mastered(Set.of()).stream().filter(d -> !tried.contains(d))
                    .forEach(d -> failed.add(Dpids.toString(d) + " (no time left)"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failed.add("the rest (interrupted)");
        } catch (RuntimeException e) {
            failed.add("the rest (" + e.getMessage() + ")");
        } finally {
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            if (tried.isEmpty() && failed.isEmpty()) {
                log.debug("cluster: leaving: no switch to hand over");
            } else if (failed.isEmpty()) {
                log.info("cluster: leaving: handed {} switch(es) to the others in {} ms", tried.size(), ms);
            } else {
                log.warn("cluster: leaving: {} switch(es) not handed over in {} ms, the others take them over: {}",
                        failed.size(), ms, String.join(", ", failed));
            }
        }
    }

    /** The switches connected here that this member masters, but for {@code except}. */
    private List<Long> mastered(Set<Long> except) {
        return local.keySet().stream().filter(d -> !except.contains(d) && self.equals(masterCache.get(d))).sorted()
                .toList();
    }

    /** @throws RuntimeException when it failed or the deadline passed first */
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

    /** Leaves the cluster. */
    void stop() {
        if (hz != null) {
            // The targets would otherwise wait for a marker that never comes (until their own timeout).
            outgoing.values().stream().filter(o -> !o.handedOver).forEach(o -> abort(o, "this member is leaving"));
        }
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
            handshakes.shutdownNow();
        }
        ready.completeExceptionally(new IllegalStateException("the cluster bundle stopped"));
        var h = hz;
        hz = null;
        if (h != null) {
            h.shutdown(); // its threads are not daemons: left running they would keep the JVM alive
        }
        local.clear();
        masterCache.clear();
        outgoing.values().forEach(o -> o.done.completeExceptionally(new IllegalStateException("the cluster stopped")));
        outgoing.clear();
        incoming.clear();
        synchronized (waiting) {
            waiting.clear();
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
        var c = new Config();
        c.setClusterName(config.name());
        c.setInstanceName("beacon-" + config.bindAddress() + "-" + config.port());
        c.setClassLoader(Cluster.class.getClassLoader());
        c.setProperty("hazelcast.logging.type", "slf4j");
        c.setProperty("hazelcast.phone.home.enabled", "false");
        c.setProperty("hazelcast.shutdownhook.enabled", "false");
        c.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        c.setProperty("hazelcast.max.no.heartbeat.seconds", Integer.toString(config.failureTimeout()));
        c.setProperty("hazelcast.merge.first.run.delay.seconds", "10");
        c.setProperty("hazelcast.merge.next.run.delay.seconds", "5");
        c.setProperty("hazelcast.socket.bind.any", "false");
        c.setProperty("hazelcast.local.localAddress", config.bindAddress());
        var network = c.getNetworkConfig();
        network.setPort(config.port()).setPortAutoIncrement(false);
        var join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setMembers(List.of(config.members()));
        try {
            var h = Hazelcast.newHazelcastInstance(c);
            self = h.getCluster().getLocalMember().getUuid().toString();
            masters = h.getMap("beacon.masters");
            connected = h.getMultiMap("beacon.connected");
            rates = h.getMap("beacon.rates");
            memberLoad = h.getMap("beacon.memberLoad");
            leaving = h.getMap("beacon.leaving");
            hz = h; // last: readers take a set hz to mean that everything above is there
            masters.addEntryListener(new MasterListener(), true);
            masterCache.putAll(masters);
            h.getTopic("beacon.member." + self).addMessageListener(m -> receive((byte[]) m.getMessageObject()));
            h.getLifecycleService().addLifecycleListener(e -> {
                if (e.getState() == LifecycleEvent.LifecycleState.MERGED) {
                    later(this::merged);
                }
            });
            h.getCluster().addMembershipListener(new MembershipListener() {
                @Override
                public void memberAdded(MembershipEvent e) {
                    log.info("cluster: member {} joined ({} members)", e.getMember().getAddress(), e.getMembers().size());
                    reassert = true;
                }

                @Override
                public void memberRemoved(MembershipEvent e) {
                    log.warn("cluster: member {} left ({} members)", e.getMember().getAddress(), e.getMembers().size());
                    later(() -> memberLeft(e.getMember().getUuid().toString()));
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
            executor.scheduleWithFixedDelay(this::tick, 1, 1, TimeUnit.SECONDS);
        } catch (RuntimeException e) {
            log.error("cluster: cannot start the member on {}:{}: {}", config.bindAddress(), config.port(),
                    e.getMessage());
            ready.completeExceptionally(e);
        }
    }

    /**
     * Back from a split: this member rejoined the larger part of the cluster, whose map of masters won, possibly
     * under a new member id. Migrations under way are given up; every switch connected here is registered again and
     * takes the role the merged map gives this member; the oldest member reassigns what names the old id.
     */
    private void merged() {
        var h = hz;
        var id = h.getCluster().getLocalMember().getUuid().toString();
        log.warn("cluster: merged back after a split; member id {} (was {})", id, self);
        if (!id.equals(self)) {
            self = id;
            h.getTopic("beacon.member." + self).addMessageListener(m -> receive((byte[]) m.getMessageObject()));
        }
        outgoing.values().forEach(o -> abort(o, "the cluster merged after a split"));
        incoming.clear();
        for (var st : local.values()) {
            connected.put(st.sw.getId(), self);
            st.sw.execute(st::open);
        }
        masterCache.clear();
        masterCache.putAll(masters);
        reassert = true;
        followMasters();
    }

    /** Runs a task on the cluster's thread, unless the cluster has stopped meanwhile (then there is nothing to do). */
    private void later(Runnable task) {
        after(0, task);
    }

    private void after(long millis, Runnable task) {
        var ex = executor;
        if (ex == null) {
            return;
        }
        try {
            ex.schedule(task, millis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // stopping
        }
    }

    private boolean isOldest() {
        var h = hz;
        return h != null && h.getCluster().getMembers().iterator().next().localMember();
    }

    private List<String> liveMembers() {
        return hz.getCluster().getMembers().stream().map(m -> m.getUuid().toString()).toList();
    }

    /** The live members a switch may be given to: the ones not leaving, oldest first. */
    private List<String> targets() {
        var gone = leaving.keySet();
        return liveMembers().stream().filter(m -> !gone.contains(m)).toList();
    }

    private void memberLeft(String member) {
        reassert = true;
        outgoing.values().stream().filter(o -> o.target.equals(member) && !o.handedOver)
                .forEach(o -> abort(o, "the target left the cluster"));
        if (isOldest() && hasQuorum()) {
            reconcile();
        }
    }

    /**
     * Whether this member sees a majority of the configured members: only then does the oldest one reassign switches
     * or balance. A member cut off from the others (or a minority of them) then never takes switches from masters
     * that are alive on the other side; it may only keep serving what it masters.
     */
    private boolean hasQuorum() {
        int configured = (int) Arrays.stream(config.members()).distinct().count();
        int size = hz.getCluster().getMembers().size();
        boolean quorum = size >= configured / 2 + 1;
        if (quorum != hadQuorum) {
            hadQuorum = quorum;
            if (quorum) {
                log.info("cluster: {} of {} configured members present: assigning masters again", size, configured);
            } else {
                log.warn("cluster: only {} of {} configured members present: no switch changes master until a"
                        + " majority is back", size, configured);
            }
        }
        return quorum;
    }

    /** Once a second: load, the oldest member's assignments and balancing, and this member's roles. */
    private void tick() {
        try {
            sampleLoad();
            if (isOldest() && hasQuorum()) {
                reconcile();
                long now = System.nanoTime();
                if (!handingOff && config.balancePeriod() > 0 && now - lastBalance >= TimeUnit.SECONDS.toNanos(config.balancePeriod())) {
                    lastBalance = now;
                    balance();
                }
            }
            followMasters();
        } catch (RuntimeException e) {
            // Hazelcast operations fail while members come and go: the next tick tries again.
            log.debug("cluster: tick failed", e);
        }
    }

    private void sampleLoad() {
        long now = System.nanoTime();
        double seconds = (now - lastSample) / 1e9;
        lastSample = now;
        long total = 0;
        for (var st : local.values()) {
            long count = st.packetIns;
            long rate = Math.round((count - st.sampled) / seconds);
            st.sampled = count;
            if (st.sw.getRole() == NiciraRole.MASTER) {
                total += rate;
                rates.setAsync(st.sw.getId(), rate);
            }
        }
        double cpu = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuLoad() : -1;
        memberLoad.setAsync(self, total + " " + cpu);
    }

    /** The oldest member: every connected switch gets a live master that is connected to it. */
    private void reconcile() {
        var order = liveMembers();
        var live = new HashSet<>(order);
        var targets = targets();
        var counts = new HashMap<String, Integer>();
        var current = new HashMap<>(masters);
        current.values().forEach(m -> counts.merge(m, 1, Integer::sum));
        var connections = new HashMap<Long, Set<String>>();
        for (var e : connected.entrySet()) { // one call for all: this runs every second
            if (live.contains(e.getValue())) {
                connections.computeIfAbsent(e.getKey(), k -> new HashSet<>()).add(e.getValue());
            } else {
                connected.remove(e.getKey(), e.getValue());
            }
        }
        var dpids = new HashSet<>(connections.keySet());
        dpids.addAll(current.keySet());
        for (long dpid : dpids) {
            var conns = connections.getOrDefault(dpid, Set.of());
            var master = current.get(dpid);
            if (conns.isEmpty()) {
                if (master != null) {
                    masters.remove(dpid, master);
                }
                continue;
            }
            if (master == null || !conns.contains(master)) {
                // A leaving member only if no other is connected to the switch.
                var pick = Balancer.pick(conns, counts, targets.stream().anyMatch(conns::contains) ? targets : order);
                counts.merge(pick, 1, Integer::sum);
                if (master != null) {
                    counts.merge(master, -1, Integer::sum);
                }
                // Conditional: a migration may have named a new master since the snapshot.
                boolean set = master == null ? masters.putIfAbsent(dpid, pick) == null : masters.replace(dpid, master, pick);
                if (set) {
                    log.info("cluster: switch {} mastered by {} (was {})", Dpids.toString(dpid), describe(pick),
                            master == null ? "none" : describe(master));
                }
            }
        }
    }

    private void balance() {
        if (!balancing.toCompletableFuture().isDone()) {
            return;
        }
        var connections = new HashMap<Long, Set<String>>();
        for (var e : connected.entrySet()) {
            connections.computeIfAbsent(e.getKey(), k -> new HashSet<>()).add(e.getValue());
        }
        var move = Balancer.plan(targets(), new HashMap<>(masters), connections, new HashMap<>(rates),
                config.highWater(), config.lowWater());
        move.ifPresent(m -> {
            log.info("cluster: balancing: switch {} from {} to {}", Dpids.toString(m.dpid()), describe(m.from()),
                    describe(m.to()));
            balancing = migrate(m.dpid(), m.to()).exceptionally(e -> {
                log.warn("cluster: balancing move of switch {} failed: {}", Dpids.toString(m.dpid()), e.getMessage());
                return null;
            });
        });
    }

    /** Every member: each switch connected here takes the role the map gives this member. */
    /**
     * Once a second, and at once after membership changes: the roles of the switches connected here follow the map.
     * After membership changed, MASTER is asserted again even where this member believes it has it: a switch demotes
     * a master without telling it (another member may have claimed the switch while the cluster was split).
     */
    private void followMasters() {
        // Only with a majority: a member cut off from it must not take switches back from masters on the other side.
        boolean force = reassert && hasQuorum();
        reassert = false;
        if (local.isEmpty()) {
            return;
        }
        var now = masters.getAll(new HashSet<>(local.keySet()));
        for (var st : local.values()) {
            var m = now.get(st.sw.getId());
            if (m != null) {
                masterCache.put(st.sw.getId(), m);
                follow(st, m, force);
            }
        }
    }

    private void follow(SwitchState st, String master, boolean force) {
        long dpid = st.sw.getId();
        if (outgoing.containsKey(dpid) || incoming.containsKey(dpid) || !st.sw.isConnected()) {
            return; // a migration sets the roles itself
        }
        var want = self.equals(master) ? NiciraRole.MASTER : NiciraRole.SLAVE;
        if (!st.rolesUnsupported && (st.sw.getRole() != want || force && want == NiciraRole.MASTER)) {
            st.sw.setRole(want, timeout).whenComplete((r, e) -> {
                if (e instanceof UnsupportedOperationException
                        || e != null && e.getCause() instanceof UnsupportedOperationException) {
                    st.rolesUnsupported = true; // the core has said so once; the switch stays with this member
                } else if (e != null) {
                    log.warn("cluster: switch {} refused role {}: {}", st.sw.getStringId(), want, e.getMessage());
                }
            });
        }
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
            masterCache.remove(e.getKey());
        }

        private void changed(long dpid, String master) {
            masterCache.put(dpid, master);
            var st = local.get(dpid);
            if (st != null) {
                follow(st, master, false);
            }
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
            connected.put(dpid, self);
            var m = masters.get(dpid);
            if (m == null && !handingOff) { // a leaving member claims none: the oldest member finds it a master
                var before = masters.putIfAbsent(dpid, self);
                m = before == null ? self : before;
            }
            if (m != null) {
                masterCache.put(dpid, m);
            }
            local.put(dpid, st);
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
        forward(new Wire(Wire.Kind.WRITE, sw.getId(), 0, self, msg.toByteArray()));
    }

    /** A BARRIER in the switch's queue of forwarded writes; the member that runs it answers this one. */
    @Override
    public CompletionStage<Void> barrierThroughMaster(IOFSwitch sw, Duration timeout) {
        var me = self;
        if (me == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("this member has not joined a cluster"));
        }
        long id = barrierIds.incrementAndGet();
        var done = new CompletableFuture<Void>();
        barriers.put(id, done);
        done.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((v, e) -> barriers.remove(id));
        forward(new Wire(Wire.Kind.BARRIER, sw.getId(), id, me, me.getBytes(StandardCharsets.UTF_8)));
        return done;
    }

    /**
     * Sends a WRITE or BARRIER to the switch's master. While the switch has none (or the map already names this member
     * and its MASTER request is on its way), they wait in order, and later ones queue behind them: a switch receives
     * the writes of one member in the order they were made.
     */
    private void forward(Wire w) {
        long dpid = w.dpid();
        synchronized (waiting) {
            var queue = waiting.get(dpid);
            if (queue != null) {
                queue.add(w);
                return;
            }
            var m = masterCache.get(dpid);
            if (m != null && !m.equals(self)) {
                send(m, w.sentBy(self));
                return;
            }
            queue = new ArrayDeque<>();
            queue.add(w);
            waiting.put(dpid, queue);
        }
        after(FORWARD_RETRY_MILLIS, () -> retryWaiting(dpid, 1));
    }

    private void retryWaiting(long dpid, int attempt) {
        synchronized (waiting) {
            var queue = waiting.get(dpid);
            var st = local.get(dpid);
            var m = masterCache.get(dpid);
            if (st != null && st.sw.getRole() != NiciraRole.SLAVE) {
                queue.forEach(w -> deliverHere(st, w));
            } else if (m != null && !m.equals(self)) {
                queue.forEach(w -> send(m, w.sentBy(self)));
            } else if (attempt < FORWARD_RETRIES) {
                after(FORWARD_RETRY_MILLIS, () -> retryWaiting(dpid, attempt + 1));
                return;
            } else {
                log.warn("cluster: switch {} has had no other master for {} ms: dropped {} message(s) written to it",
                        Dpids.toString(dpid), FORWARD_RETRIES * FORWARD_RETRY_MILLIS, queue.size());
                queue.stream().filter(w -> w.kind() == Wire.Kind.BARRIER)
                        .forEach(w -> barrierAnswered(w, new IllegalStateException("the switch has no master")));
            }
            waiting.remove(dpid);
        }
    }

    /** On the switch's master: a WRITE goes to the switch; a BARRIER too, and its answer to the member that asked. */
    private void deliverHere(SwitchState st, Wire w) {
        if (w.kind() == Wire.Kind.BARRIER) {
            st.sw.barrier(timeout).whenComplete((reply, e) -> barrierAnswered(w, e));
            return;
        }
        try {
            st.sw.write(OFMessageReader.read(ByteBuffer.wrap(w.data())));
        } catch (OFParseException e) {
            throw new IllegalStateException("a message this cluster serialized does not parse", e);
        }
    }

    private void barrierAnswered(Wire barrier, Throwable failure) {
        var asker = new String(barrier.data(), StandardCharsets.UTF_8);
        var answer = new Wire(Wire.Kind.BARRIER_DONE, barrier.dpid(), barrier.id(), self, failure == null ? Wire.NONE
                : String.valueOf(failure.getMessage()).getBytes(StandardCharsets.UTF_8));
        if (asker.equals(self)) {
            barrierDone(answer);
        } else {
            send(asker, answer);
        }
    }

    private void barrierDone(Wire w) {
        var done = barriers.remove(w.id());
        if (done == null) {
            return; // timed out already
        }
        if (w.data().length == 0) {
            done.complete(null);
        } else {
            done.completeExceptionally(new IllegalStateException("the barrier at switch " + Dpids.toString(w.dpid())
                    + "'s master failed: " + new String(w.data(), StandardCharsets.UTF_8)));
        }
    }

    @Override
    public void addedSwitch(IOFSwitch sw) {
    }

    @Override
    public void removedSwitch(IOFSwitch sw) {
        long dpid = sw.getId();
        var st = local.get(dpid);
        if (st == null || st.sw != sw) {
            return; // a newer connection of the same switch already took its place
        }
        local.remove(dpid, st);
        var o = outgoing.get(dpid);
        if (o != null && !o.handedOver) {
            abort(o, "the switch disconnected");
        }
        incoming.remove(dpid);
        later(() -> {
            if (!local.containsKey(dpid)) {
                connected.remove(dpid, self);
                masters.remove(dpid, self); // the oldest member picks a new master among the others
            }
        });
    }

    // ------------------------------------------------------------------------------------------------- migration

    @Override
    public CompletionStage<Migration> migrate(long dpid, String member) {
        var result = new CompletableFuture<Migration>();
        if (executor == null || hz == null) {
            result.completeExceptionally(new IllegalStateException("this member has not joined a cluster"));
            return result;
        }
        later(() -> {
            try {
                var target = resolve(member);
                var master = masters.get(dpid);
                if (master == null) {
                    throw new IllegalArgumentException("switch " + Dpids.toString(dpid) + " is not connected to the cluster");
                }
                if (!connected.get(dpid).contains(target)) {
                    throw new IllegalArgumentException("member " + describe(target) + " is not connected to switch "
                            + Dpids.toString(dpid));
                }
                if (master.equals(target)) {
                    result.complete(new Migration(dpid, master, target, Duration.ZERO));
                } else if (master.equals(self)) {
                    startAsMaster(dpid, target, System.nanoTime(), result);
                } else {
                    send(master, new Wire(Wire.Kind.MIGRATE, dpid, 0, self, target.getBytes(StandardCharsets.UTF_8)));
                    awaitMaster(dpid, master, target, System.nanoTime(), result);
                }
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /**
     * Runs a migration this member masters the switch for. The map names a migration's target a moment before the
     * switch has granted it MASTER (the last phase): a request in that moment, such as a move asked right after the
     * one to this member, waits for the grant instead of failing.
     */
    private void startAsMaster(long dpid, String target, long since, CompletableFuture<Migration> result) {
        if (incoming.containsKey(dpid)
                && System.nanoTime() - since < TimeUnit.MILLISECONDS.toNanos(config.migrationTimeout())) {
            after(5, () -> startAsMaster(dpid, target, since, result));
            return;
        }
        start(dpid, target).whenComplete((m, e) -> complete(result, m, e));
    }

    /** A migration run by another member: done when the map names the target. */
    private void awaitMaster(long dpid, String from, String target, long started, CompletableFuture<Migration> result) {
        long took = System.nanoTime() - started;
        if (target.equals(masterCache.get(dpid))) {
            result.complete(new Migration(dpid, from, target, Duration.ofNanos(took)));
        } else if (took > TimeUnit.MILLISECONDS.toNanos(2L * config.migrationTimeout())) {
            result.completeExceptionally(new TimeoutException("switch " + Dpids.toString(dpid) + " did not move to "
                    + describe(target) + " in time"));
        } else {
            after(5, () -> awaitMaster(dpid, from, target, started, result));
        }
    }

    /** Phase 1, on the master: ask the target to become EQUAL and watch for the marker. */
    private CompletableFuture<Migration> start(long dpid, String target) {
        var st = local.get(dpid);
        if (st != null && st.rolesUnsupported) {
            return CompletableFuture.failedFuture(new IllegalStateException("switch " + Dpids.toString(dpid)
                    + " does not support the Nicira role extension: it cannot move"));
        }
        if (st == null || st.sw.getRole() != NiciraRole.MASTER) {
            return CompletableFuture.failedFuture(new IllegalStateException("this member does not master switch "
                    + Dpids.toString(dpid)));
        }
        var o = new Outgoing(migrationIds.incrementAndGet(), dpid, target);
        if (outgoing.putIfAbsent(dpid, o) != null) {
            return CompletableFuture.failedFuture(new IllegalStateException("switch " + Dpids.toString(dpid)
                    + " is already migrating"));
        }
        send(target, new Wire(Wire.Kind.PREPARE, dpid, o.id, self, Wire.NONE));
        after(config.migrationTimeout(), () -> {
            if (!o.done.isDone() && !o.handedOver) {
                abort(o, "no hand-over within " + config.migrationTimeout() + " ms");
            }
        });
        return o.done;
    }

    private void receive(byte[] bytes) {
        Wire w;
        try {
            w = Wire.decode(bytes);
        } catch (IllegalArgumentException e) {
            log.warn("cluster: dropped a malformed message from another member");
            return;
        }
        try {
            switch (w.kind()) {
                case WRITE, BARRIER -> received(w);
                case BARRIER_DONE -> barrierDone(w);
                case MIGRATE -> {
                    var target = new String(w.data(), StandardCharsets.UTF_8);
                    var run = new CompletableFuture<Migration>();
                    startAsMaster(w.dpid(), target, System.nanoTime(), run);
                    run.whenComplete((m, e) -> {
                        if (e != null) {
                            log.warn("cluster: migration of switch {} to {} failed: {}", Dpids.toString(w.dpid()),
                                    describe(target), e.getMessage());
                        }
                    });
                }
                case PREPARE -> prepare(w);
                case READY -> ready(w);
                case DONE -> done(w);
                case COMPLETE -> complete(w);
                case ABORT -> aborted(w);
            }
        } catch (RuntimeException e) {
            log.warn("cluster: {} for switch {} failed: {}", w.kind(), Dpids.toString(w.dpid()), e.toString());
        }
    }

    private void received(Wire w) {
        var st = local.get(w.dpid());
        if (st == null) {
            log.warn("cluster: a message for switch {} arrived from {}, which is not connected here",
                    Dpids.toString(w.dpid()), describe(w.from()));
            failBarrier(w, "the switch is not connected to the member it was sent to");
        } else if (st.sw.getRole() != NiciraRole.SLAVE) {
            deliverHere(st, w);
        } else if (!w.from().equals(masterCache.get(w.dpid()))) {
            forward(w); // the switch moved on while the message was under way
        } else {
            // Each names the other as master: their views of the map disagree for a moment. Sending it back could
            // bounce it between the two, so it is dropped, and said.
            log.warn("cluster: dropped a message for switch {} from {}, which this member takes for its master",
                    Dpids.toString(w.dpid()), describe(w.from()));
            failBarrier(w, "the members disagreed on the switch's master");
        }
    }

    private void failBarrier(Wire w, String why) {
        if (w.kind() == Wire.Kind.BARRIER) {
            barrierAnswered(w, new IllegalStateException(why));
        }
    }

    /** Phase 1, on the target: EQUAL, dropping the switch's messages until the marker. */
    private void prepare(Wire w) {
        var st = local.get(w.dpid());
        if (st == null || handingOff) {
            send(w.from(), new Wire(Wire.Kind.ABORT, w.dpid(), w.id(), self, Wire.NONE));
            return;
        }
        incoming.put(w.dpid(), w.id());
        // The master gives up after migrationTimeout and says so; should that never arrive (it left), so does this.
        after(2L * config.migrationTimeout(), () -> giveUpIncoming(w.dpid(), w.id()));
        // The gate first, on the I/O thread: no message the switch sends us as EQUAL may pass before it.
        st.sw.execute(() -> st.awaitMarker(SwitchState.Gate.DROP_UNTIL_MARKER, w.id(), () -> { }));
        st.sw.setRole(NiciraRole.OTHER, timeout).whenComplete((r, e) -> send(w.from(),
                new Wire(e == null ? Wire.Kind.READY : Wire.Kind.ABORT, w.dpid(), w.id(), self, Wire.NONE)));
    }

    /** Phase 2, on the master: the marker flow goes in and out; its FLOW_REMOVED marks the hand-over point. */
    private void ready(Wire w) {
        var o = outgoing.get(w.dpid());
        var st = local.get(w.dpid());
        if (o == null || o.id != w.id() || st == null) {
            return;
        }
        var sw = st.sw;
        sw.execute(() -> {
            st.awaitMarker(SwitchState.Gate.HANDLE_UNTIL_MARKER, o.id, () -> markerPassed(o, st));
            sw.write(SwitchState.marker(sw, o.id, OFFlowMod.Command.ADD));
            sw.barrier(timeout).thenRun(() -> {
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
        st.sw.barrier(timeout).whenCompleteAsync((r, e) -> {
            masters.put(o.dpid, o.target);
            masterCache.put(o.dpid, o.target);
            st.sw.setRole(NiciraRole.SLAVE, timeout).whenComplete((role, e2) -> {
                st.sw.execute(st::open); // as SLAVE the core drops its messages; the gate is for the next time
                send(o.target, new Wire(Wire.Kind.DONE, o.dpid, o.id, self, Wire.NONE));
            });
        }, executor);
    }

    /** Phase 4, on the target: MASTER. */
    private void done(Wire w) {
        var st = local.get(w.dpid());
        if (st == null || !Long.valueOf(w.id()).equals(incoming.get(w.dpid()))) {
            return;
        }
        st.sw.setRole(NiciraRole.MASTER, timeout).whenComplete((r, e) -> {
            incoming.remove(w.dpid(), w.id());
            if (e != null) {
                log.warn("cluster: switch {} refused MASTER after a hand-over: {}", st.sw.getStringId(), e.getMessage());
            }
            send(w.from(), new Wire(Wire.Kind.COMPLETE, w.dpid(), w.id(), self, Wire.NONE));
        });
    }

    private void complete(Wire w) {
        var o = outgoing.get(w.dpid());
        if (o == null || o.id != w.id()) {
            return;
        }
        outgoing.remove(w.dpid(), o);
        var m = new Migration(o.dpid, self, o.target, Duration.ofNanos(System.nanoTime() - o.started));
        synchronized (recent) {
            recent.addLast(m);
            if (recent.size() > RECENT_MIGRATIONS) {
                recent.removeFirst();
            }
        }
        log.info("cluster: switch {} migrated to {} in {} ms", Dpids.toString(o.dpid), describe(o.target),
                String.format("%.1f", m.took().toNanos() / 1e6));
        o.done.complete(m);
    }

    private void aborted(Wire w) {
        var o = outgoing.get(w.dpid());
        if (o != null && o.id == w.id()) {
            if (!o.handedOver) {
                abort(o, "the target gave up");
            }
            return;
        }
        giveUpIncoming(w.dpid(), w.id());
    }

    /** On the target of a migration that is given up, unless it is over already. */
    private void giveUpIncoming(long dpid, long id) {
        var st = local.get(dpid);
        if (st != null && incoming.remove(dpid, id)) {
            // Back to SLAVE before the gate opens: nothing the switch sends us may be handled twice.
            st.sw.setRole(NiciraRole.SLAVE, timeout).whenComplete((r, e) -> st.sw.execute(st::open));
        }
    }

    /** Before the hand-over point only: the old master keeps the switch and handles everything again. */
    private void abort(Outgoing o, String why) {
        if (!outgoing.remove(o.dpid, o)) {
            return;
        }
        send(o.target, new Wire(Wire.Kind.ABORT, o.dpid, o.id, self, Wire.NONE));
        var st = local.get(o.dpid);
        if (st != null) {
            st.sw.execute(st::open);
        }
        log.warn("cluster: migration of switch {} to {} given up: {}", Dpids.toString(o.dpid), describe(o.target), why);
        o.done.completeExceptionally(new IllegalStateException("migration given up: " + why));
    }

    private void send(String member, Wire w) {
        hz.<byte[]>getTopic("beacon.member." + member).publishAsync(w.encode());
    }

    private static <T> void complete(CompletableFuture<T> f, T value, Throwable error) {
        if (error != null) {
            f.completeExceptionally(error);
        } else {
            f.complete(value);
        }
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
        var result = new ArrayList<Member>();
        boolean first = true;
        for (var m : h.getCluster().getMembers()) {
            var id = m.getUuid().toString();
            var load = memberLoad.get(id);
            long rate = 0;
            double cpu = -1;
            if (load != null) {
                var parts = load.split(" ");
                rate = Long.parseLong(parts[0]);
                cpu = Double.parseDouble(parts[1]);
            }
            result.add(new Member(id, m.getAddress().getHost() + ":" + m.getAddress().getPort(), m.localMember(), first,
                    rate, cpu));
            first = false;
        }
        return result;
    }

    @Override
    public Map<Long, String> masters() {
        return hz == null ? Map.of() : new TreeMap<>(masters);
    }

    @Override
    public List<Migration> recentMigrations() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }

    /** A member named by its id, a unique id prefix or its {@code host:port}. */
    private String resolve(String name) {
        var matches = new LinkedHashMap<String, String>();
        for (var m : hz.getCluster().getMembers()) {
            var id = m.getUuid().toString();
            var address = m.getAddress().getHost() + ":" + m.getAddress().getPort();
            if (id.equals(name) || address.equals(name)) {
                return id;
            }
            if (id.startsWith(name)) {
                matches.put(id, address);
            }
        }
        if (matches.size() != 1) {
            throw new IllegalArgumentException(matches.isEmpty() ? "no member " + name
                    : "member " + name + " is ambiguous: " + matches.values());
        }
        return matches.keySet().iterator().next();
    }

    private String describe(String member) {
        var h = hz;
        if (h != null) {
            for (var m : h.getCluster().getMembers()) {
                if (m.getUuid().toString().equals(member)) {
                    return m.getAddress().getHost() + ":" + m.getAddress().getPort();
                }
            }
        }
        return member.length() > 8 ? member.substring(0, 8) : member;
    }
}
