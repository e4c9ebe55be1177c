package net.beaconcontroller.cluster.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import net.beaconcontroller.util.Threads;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.IRoleArbiter;
import net.beaconcontroller.core.SwitchLocal;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * What the core asks of the cluster ({@link IRoleArbiter}, and the switches coming and going as an
 * {@link IOFSwitchListener}): the role of a connecting switch, which of a migrating switch's messages this member
 * handles, and writes and barriers through a switch's master. Called on the switches' I/O threads and the
 * applications' threads; the roles' decisions wait for the cluster on a pool of their own.
 */
final class Arbiter implements IRoleArbiter, IOFSwitchListener {
    private static final SwitchLocal<SwitchState> STATE = new SwitchLocal<>("cluster", null);
    /**
     * The core has told this listener the switch was added. A switch connected before the cluster started is told so
     * when the listener registers, which may come before or after the role is asked of it (both on its I/O thread).
     */
    private static final SwitchLocal<Boolean> ADDED = new SwitchLocal<>("cluster-added", () -> false);
    /** Threads that decide the roles of connecting switches (each decision waits on the cluster). */
    private static final int HANDSHAKE_THREADS = 4;

    private final Membership member;
    private final Switches switches;
    private final MasterView masterView;
    private final Forwarding forwarding;
    private final Migrations migrations;
    private final Coordinator coordinator;
    private final ExecutorService handshakes;

    Arbiter(Membership member, Switches switches, MasterView masterView, Forwarding forwarding, Migrations migrations,
            Coordinator coordinator) {
        this.member = member;
        this.switches = switches;
        this.masterView = masterView;
        this.forwarding = forwarding;
        this.migrations = migrations;
        this.coordinator = coordinator;
        var count = new AtomicLong();
        handshakes = Executors.newFixedThreadPool(HANDSHAKE_THREADS,
                r -> Threads.named(r, "beacon-cluster-handshake-" + count.incrementAndGet()));
    }

    void close() {
        handshakes.shutdownNow();
    }

    /** The core names its switch listeners in log lines and orderings: this one is the cluster. */
    @Override
    public String getName() {
        return "cluster";
    }

    @Override
    public CompletionStage<NiciraRole> initialRole(IOFSwitch sw) {
        var st = new SwitchState(sw);
        st.active = sw.getLocal(ADDED); // a switch connected before the cluster started: no handshake to wait for
        sw.setLocal(STATE, st);
        long dpid = sw.getId();
        // On a pool of their own: a burst of connecting switches must not wait behind the periodic work, nor it for
        // them. The claim, and what the view of the masters learns from the read, on the coordinator, which owns both.
        return member.ready().thenCompose(j -> coordinator.call(() -> {
            if (!switches.claim(st)) {
                throw new IllegalStateException("switch " + sw.getStringId() + " connected again or closed during its"
                        + " handshake");
            }
            return j;
        })).thenApplyAsync(j -> {
            var self = member.self();
            // First: the oldest member must not see this member's claim without its connection.
            j.reports().publish(self, switches);
            // Taken before the read, which may wait seconds while Hazelcast re-homes partitions: a take-over recorded
            // meanwhile is newer than what it returns (see MasterView#reconcile).
            long readAt = System.nanoTime();
            var m = j.masters().get(dpid);
            // Cut off from a majority, or not yet joined by one, or merging back into it: the switch's master may be
            // alive on the other side, and MASTER asserted here would take the switch from it.
            boolean mayMaster = j.members().quorum() && !coordinator.merging();
            // A leaving member claims none: the oldest member finds it a master.
            if (m == null && mayMaster && !member.leaving()) {
                var before = j.masters().putIfAbsent(dpid, self);
                return new Read(self, before == null ? self : before, before == null, readAt, mayMaster);
            }
            return new Read(self, m, false, readAt, mayMaster);
        }, handshakes).thenCompose(read -> coordinator.call(() -> {
            String m = read.master();
            if (read.written()) {
                masterView.learned(dpid, m);
            } else if (m != null) {
                m = masterView.reconcile(dpid, m, read.readAt());
            }
            return read.mayMaster() && read.self().equals(m) ? NiciraRole.MASTER : NiciraRole.SLAVE;
        }));
    }

    /**
     * What a handshake read of the masters map, off the coordinator.
     *
     * @param master  the entry, null for none
     * @param written whether this member wrote it (there was none)
     * @param readAt  System.nanoTime() before the read
     */
    private record Read(String self, String master, boolean written, long readAt, boolean mayMaster) { }

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
        if (member.self() == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("this member has not joined a cluster"));
        }
        return forwarding.barrier(sw, timeout);
    }

    /** Its handshake is over and the switch has granted its first role: the others learn it at once. */
    @Override
    public void addedSwitch(IOFSwitch sw) {
        sw.setLocal(ADDED, true);
        var st = sw.getLocal(STATE);
        if (st != null) {
            st.active = true;
            coordinator.added(st);
        }
        var j = member.joined();
        if (j != null) {
            j.store().publishSoon();
        }
    }

    @Override
    public void removedSwitch(IOFSwitch sw) {
        coordinator.later(() -> forget(sw));
    }

    /**
     * On the coordinator: a switch removed, or a connection that closed during its handshake (which the core does not
     * report).
     */
    void forget(IOFSwitch sw) {
        if (!switches.remove(sw)) {
            return;
        }
        migrations.switchRemoved(sw.getId());
        var j = member.joined();
        if (j != null) {
            j.store().giveBack(sw.getId()); // the oldest member picks a new master among the others
        }
    }
}
