package net.beaconcontroller.cluster.internal;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;

import net.beaconcontroller.cluster.ICluster.Migration;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IRoleArbiter;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * A cluster member without Hazelcast, for tests that must drive the migration protocol's failure paths one step at a
 * time: a real controller (switches connect to it over TCP), the real {@link Migrations}, a masters map shared in
 * memory with the other members of its {@link Network}, and messages that pass through their codec to the addressee's
 * thread unless the test cuts them.
 */
final class InMemoryMember implements Peers, IRoleArbiter, AutoCloseable {
    /** The members, the masters map they share, and the test's cut of their messages. */
    static final class Network {
        final Map<String, InMemoryMember> members = new ConcurrentHashMap<>();
        final Map<Long, String> masters = new ConcurrentHashMap<>();
        /** Messages it returns true for (addressee, message) are lost. */
        volatile BiPredicate<String, Message> cut = (to, m) -> false;
    }

    final String id;
    final ControllerFixture fx;
    final Migrations migrations = new Migrations(this);
    private final Network net;
    private final Duration timeout;
    private final Map<Long, SwitchState> local = new ConcurrentHashMap<>();
    private final ScheduledExecutorService thread;

    InMemoryMember(Network net, String id, Duration timeout) {
        this.net = net;
        this.id = id;
        this.timeout = timeout;
        thread = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "member-" + id));
        fx = ControllerFixture.start();
        fx.controller.setRoleArbiter(this);
        fx.controller.addOFMessageListener(OFType.PACKET_IN, new ClusterTest.Echo());
        net.members.put(id, this);
    }

    /** Asks this member to move a switch, as {@link Coordinator#migrate} does once it has read the map. */
    CompletableFuture<Migration> migrate(long dpid, String target) {
        var result = new CompletableFuture<Migration>();
        after(0, () -> migrations.migrate(dpid, target, net.masters.get(dpid), Set.copyOf(net.members.keySet()),
                result));
        return result;
    }

    /** Another member has left, as Hazelcast would tell this one. */
    void memberLeft(String member) {
        after(0, () -> migrations.memberLeft(member));
    }

    @Override
    public void close() {
        net.members.remove(id);
        fx.close();
        thread.shutdownNow();
    }

    // ------------------------------------------------------------------------------------------------ Peers

    @Override
    public String self() {
        return id;
    }

    @Override
    public SwitchState local(long dpid) {
        return local.get(dpid);
    }

    @Override
    public String master(long dpid) {
        var m = net.masters.get(dpid);
        return m != null && net.members.containsKey(m) ? m : null;
    }

    @Override
    public void send(String member, Message m) {
        var to = net.members.get(member);
        if (to == null || net.cut.test(member, m)) {
            return;
        }
        var decoded = Message.decode(m.encode());
        to.after(0, () -> {
            if (decoded instanceof Message.Step s) {
                to.migrations.received(s);
            } else if (decoded instanceof Message.Migrate g) {
                to.migrations.migrateAsked(g);
            } else {
                throw new AssertionError("not a migration's message: " + decoded);
            }
        });
    }

    @Override
    public void after(long millis, Runnable task) {
        try {
            thread.schedule(task, millis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // closed: the member is gone, as in a real cluster
        }
    }

    @Override
    public Duration timeout() {
        return timeout;
    }

    @Override
    public String describe(String member) {
        return member;
    }

    @Override
    public CompletionStage<Void> handOver(long dpid, String target) {
        net.masters.put(dpid, target);
        // The map's entry event, on each member's thread, as Hazelcast delivers it to the coordinator.
        net.members.values().forEach(m -> m.after(0, () -> m.migrations.masterChanged(dpid, target)));
        var done = new CompletableFuture<Void>();
        after(0, () -> done.complete(null));
        return done;
    }

    @Override
    public boolean leaving() {
        return false;
    }

    // ------------------------------------------------------------------------------------------- IRoleArbiter

    @Override
    public CompletionStage<NiciraRole> initialRole(IOFSwitch sw) {
        local.put(sw.getId(), new SwitchState(sw));
        return CompletableFuture.completedFuture(id.equals(net.masters.get(sw.getId())) ? NiciraRole.MASTER
                : NiciraRole.SLAVE);
    }

    @Override
    public boolean handles(IOFSwitch sw, OFMessage msg) {
        var st = local.get(sw.getId());
        return st == null || st.handles(msg);
    }

    @Override
    public void writeThroughMaster(IOFSwitch sw, OFMessage msg) {
        throw new UnsupportedOperationException("the migration tests write only from the member handling a message");
    }

    @Override
    public CompletionStage<Void> barrierThroughMaster(IOFSwitch sw, Duration timeout) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("not forwarded in these tests"));
    }
}
