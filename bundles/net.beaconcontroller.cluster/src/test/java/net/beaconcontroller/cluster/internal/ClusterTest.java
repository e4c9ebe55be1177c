package net.beaconcontroller.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.hazelcast.map.MapInterceptor;

import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * Three controllers, each with a cluster member (real Hazelcast members in this JVM), and emulated switches connected
 * to all three that follow Open vSwitch's role rules. Each controller answers every PACKET_IN it handles with a
 * PACKET_OUT, so the switch can count who answered what.
 */
class ClusterTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final List<ControllerFixture> controllers = new ArrayList<>();
    private final List<Membership> members = new ArrayList<>();
    private final List<RoleSwitch> switches = new ArrayList<>();

    /** Answers each PACKET_IN with a PACKET_OUT of the same frame, as a hub would. */
    static final class Echo implements IOFMessageListener {
        @Override
        public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
            sw.write(OFPacketOut.of((OFPacketIn) msg, List.of(new OFActionOutput(OFPort.FLOOD, 0))));
            return Command.CONTINUE;
        }
    }

    private int[] ports;

    @BeforeEach
    void startThree() {
        ports = freePorts(3);
        var list = Arrays.stream(ports).mapToObj(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
        for (int port : ports) {
            var settings = Configs.of(ClusterConfig.class, "cluster.enabled=true", "cluster.name=test-" + ports[0],
                    "cluster.members=" + list, "cluster.port=" + port, "cluster.balancePeriod=0",
                    "cluster.failureTimeout=3");
            var member = new Membership(() -> settings, Map::of);
            member.start();
            var fx = ControllerFixture.start();
            fx.controller.setRoleArbiter(member.arbiter());
            fx.controller.addOFSwitchListener(member.arbiter());
            fx.controller.addOFMessageListener(OFType.PACKET_IN, new Echo());
            members.add(member);
            controllers.add(fx);
        }
        await(() -> members.stream().allMatch(m -> m.view().members().size() == 3), "three members");
    }

    @AfterEach
    void stopAll() {
        switches.forEach(RoleSwitch::close);
        controllers.forEach(ControllerFixture::close);
        members.forEach(Membership::stop);
    }

    @Test
    void everySwitchGetsExactlyOneMasterAndTheOthersAreSlaves() {
        for (long dpid = 1; dpid <= 6; dpid++) {
            switches.add(connect(dpid));
        }
        for (var sw : switches) {
            await(() -> oneMaster(sw), "one master and two slaves");
        }
        var masters = members.get(0).view().masters();
        assertEquals(6, masters.size());
        for (var m : members) {
            await(() -> m.view().masters().equals(masters), "every member sees the same masters");
        }
    }

    @Test
    void migrationsUnderLoadAnswerEveryPacketInExactlyOnce() throws Exception {
        var sw = connect(1);
        switches.add(sw);
        await(() -> oneMaster(sw), "one master");
        var sender = new Thread(() -> {
            for (int n = 1; n <= 20_000; n++) {
                sw.packetIn(n);
                if (n % 50 == 0) {
                    sleepMillis(1);
                }
            }
        });
        sender.start();
        var times = new ArrayList<Double>();
        var ids = members.stream().map(Membership::self).toList();
        for (int k = 0; k < 12 && sender.isAlive(); k++) {
            var target = ids.get((k + 1) % 3);
            // Asked of any member: the master runs it, the others forward the request.
            var m = members.get(k % 3).view().migrate(1, target).toCompletableFuture().get(10, TimeUnit.SECONDS);
            times.add(m.took().toNanos() / 1e6);
            waitMaster(1, target);
        }
        sender.join();
        await(() -> sw.answers.size() == 20_000, "an answer to each of the 20,000 PACKET_INs");
        Thread.sleep(300); // duplicates, if any, come in late
        var duplicates = sw.answers.entrySet().stream().filter(e -> e.getValue().size() != 1).toList();
        assertTrue(duplicates.isEmpty(), duplicates.size() + " PACKET_INs answered more than once, e.g. "
                + duplicates.stream().limit(3).toList());
        assertEquals(0, sw.refused.get(), "writes refused by the switch (sent by a SLAVE)");
        assertTrue(times.size() >= 3, "migrations done while the load ran: " + times);
        System.out.printf("migrations under load: %d, ms %s%n", times.size(), times);
    }

    @Test
    void aSlaveForwardsItsWritesToTheMaster() {
        var sw = connect(7);
        switches.add(sw);
        var slaveSwitch = aSlaveOf(sw, 7);
        writeNumbered(slaveSwitch, 424242);
        await(() -> sw.answers.containsKey(424242), "the slave's PACKET_OUT to reach the switch through the master");
        assertEquals(0, sw.refused.get());
        int master = Arrays.asList(sw.roles()).indexOf(NiciraRole.MASTER);
        assertEquals(List.of(master), sw.answers.get(424242));
    }

    @Test
    void aMemberThatLeavesHasItsSwitchesTakenOverByTheOthers() {
        for (long dpid = 1; dpid <= 3; dpid++) {
            switches.add(connect(dpid));
        }
        switches.forEach(sw -> await(() -> oneMaster(sw), "one master"));
        var leaving = members.get(0).view().masters().values().iterator().next();
        int index = members.stream().map(Membership::self).toList().indexOf(leaving);
        long t = System.nanoTime();
        controllers.get(index).close();
        members.get(index).stop();
        for (var sw : switches) {
            await(() -> Arrays.stream(sw.roles()).filter(r -> r == NiciraRole.MASTER).count() == 1
                    && sw.roles()[index] != NiciraRole.MASTER, "a new master among the others");
        }
        System.out.printf("fail-over after a member left: %.0f ms%n", (System.nanoTime() - t) / 1e6);
        int other = (index + 1) % 3;
        await(() -> members.get(other).view().masters().values().stream().noneMatch(leaving::equals),
                "the map to forget the member that left");
    }

    /**
     * As kill -9 does it: the member's Hazelcast instance terminates without a word and its switch connections close.
     * Its switches, whichever member it is (here the oldest, which assigns the masters), get exactly one new master.
     */
    @Test
    void aMemberKilledRightAfterTheClusterFormedHasItsSwitchesTakenOverAtOnce() {
        for (long dpid = 1; dpid <= 4; dpid++) {
            switches.add(connect(dpid));
        }
        switches.forEach(sw -> await(() -> oneMaster(sw), "one master"));
        var ids = members.stream().map(Membership::self).toList();
        int oldest = ids.indexOf(members.get(0).view().members().get(0).id());
        long t = System.nanoTime();
        kill(oldest);
        for (var sw : switches) {
            await(() -> Arrays.stream(sw.roles()).filter(r -> r == NiciraRole.MASTER).count() == 1
                    && sw.roles()[oldest] != NiciraRole.MASTER, "one master among the survivors");
        }
        System.out.printf("fail-over after kill of the oldest member: %.0f ms%n", (System.nanoTime() - t) / 1e6);
        int other = (oldest + 1) % 3;
        await(() -> members.get(other).view().masters().size() == 4
                && members.get(other).view().masters().values().stream().noneMatch(ids.get(oldest)::equals),
                "the map to name a survivor for every switch");
    }

    /**
     * The master is killed in the middle of moving a switch away: the target, which was dropping the switch's
     * messages until a marker that will never come, gives the migration up at once, and the switch ends with one
     * master that answers its PACKET_INs.
     */
    @Test
    void aMasterKilledInTheMiddleOfAMigrationLeavesTheSwitchWithOneWorkingMaster() {
        var sw = connect(1);
        switches.add(sw);
        await(() -> oneMaster(sw), "one master");
        int source = Arrays.asList(sw.roles()).indexOf(NiciraRole.MASTER);
        int target = (source + 1) % 3;
        var ids = members.stream().map(Membership::self).toList();
        sw.withholdEqual = true; // the migration stays in its first phase until the kill
        members.get(source).view().migrate(1, ids.get(target)); // its answer dies with it
        await(() -> Arrays.asList(sw.roles()).contains(NiciraRole.OTHER), "the target to become EQUAL");
        kill(source);
        await(() -> Arrays.stream(sw.roles()).filter(r -> r == NiciraRole.MASTER).count() == 1
                && sw.roles()[source] != NiciraRole.MASTER && !Arrays.asList(sw.roles()).contains(NiciraRole.OTHER),
                "one master among the survivors, no member left EQUAL: " + Arrays.toString(sw.roles()));
        sw.packetIn(4711);
        await(() -> sw.answers.containsKey(4711), "an answer to a PACKET_IN after the fail-over");
        assertEquals(1, sw.answers.get(4711).size());
    }

    /**
     * The masters map loses its entries (as when a partition and its backups go with members): the oldest member
     * re-derives them from what the members report, each switch staying with the member it has as MASTER.
     */
    @Test
    void lostMasterEntriesAreRederivedFromTheSwitchesWithoutARoleChange() {
        for (long dpid = 1; dpid <= 3; dpid++) {
            switches.add(connect(dpid));
        }
        switches.forEach(sw -> await(() -> oneMaster(sw), "one master"));
        var before = members.get(0).view().masters();
        var hz = com.hazelcast.core.Hazelcast.getHazelcastInstanceByName(instanceName(0));
        // What is re-derived is what the members report: wait until the reports say what the switches say.
        await(() -> {
            var reports = hz.<String, byte[]>getMap("beacon.reports");
            return before.entrySet().stream().allMatch(e -> {
                var r = reports.get(e.getValue());
                return r != null && MemberReport.decode(r).find(e.getKey()) != null
                        && MemberReport.decode(r).find(e.getKey()).role() == NiciraRole.MASTER;
            });
        }, "every master's report to say MASTER");
        var rolesBefore = switches.stream().map(sw -> Arrays.toString(sw.roles())).toList();
        hz.getMap("beacon.masters").clear();
        await(() -> members.get(0).view().masters().equals(before), "the map to name the same masters again");
        assertEquals(rolesBefore, switches.stream().map(sw -> Arrays.toString(sw.roles())).toList());
    }

    /** While set, no member can write the masters map (see {@link Frozen}). */
    private static final AtomicBoolean FROZEN = new AtomicBoolean();

    /** Refuses writes to the masters map while {@link #FROZEN}, as while Hazelcast re-homes a dead member's partitions. */
    private static final class Frozen implements MapInterceptor {
        private static final long serialVersionUID = 1L;

        @Override
        public Object interceptGet(Object value) {
            return null;
        }

        @Override
        public void afterGet(Object value) {
        }

        @Override
        public Object interceptPut(Object oldValue, Object newValue) {
            if (FROZEN.get()) {
                throw new IllegalStateException("the masters map is frozen by the test");
            }
            return null;
        }

        @Override
        public void afterPut(Object value) {
        }

        @Override
        public Object interceptRemove(Object removedValue) {
            if (FROZEN.get()) {
                throw new IllegalStateException("the masters map is frozen by the test");
            }
            return null;
        }

        @Override
        public void afterRemove(Object oldValue) {
        }
    }

    /**
     * The master dies while the masters map cannot be written (in a CI run Hazelcast took over 5 s to re-home the
     * partitions of a dead oldest member): the survivor that the rule picks asserts MASTER from what it last read,
     * at once, and once the map can be written it names that member, with no further role change at the switch.
     */
    @Test
    void aDeadMastersSwitchIsTakenOverWithoutWaitingForTheMastersMap() {
        var sw = connect(1);
        switches.add(sw);
        await(() -> oneMaster(sw), "one master");
        int victim = Arrays.asList(sw.roles()).indexOf(NiciraRole.MASTER);
        var ids = members.stream().map(Membership::self).toList();
        sleepMillis(1500); // a few rounds: every member has read the reports that show the switch connected
        var map = com.hazelcast.core.Hazelcast.getHazelcastInstanceByName(instanceName((victim + 1) % 3))
                .<Long, String>getMap("beacon.masters");
        var interceptor = map.addInterceptor(new Frozen());
        FROZEN.set(true);
        try {
            long t = System.nanoTime();
            kill(victim);
            await(() -> oneMasterAmongSurvivors(sw, victim), "a survivor's MASTER while the map names the dead member: "
                    + Arrays.toString(sw.roles()));
            System.out.printf("taken over without the masters map: %.0f ms%n", (System.nanoTime() - t) / 1e6);
            assertEquals(ids.get(victim), map.get(1L), "the map could not change meanwhile");
            var roles = sw.roles();
            int took = Arrays.asList(roles).indexOf(NiciraRole.MASTER);
            assertTrue(took >= 0 && took != victim, "the survivor that took the switch over keeps it: "
                    + Arrays.toString(roles));
            int other = 3 - victim - took;
            await(() -> ids.get(took).equals(members.get(other).master(1L)),
                    "the other survivor to send its writes for the switch to the member that took it over");
        } finally {
            FROZEN.set(false);
        }
        int taker = Arrays.asList(sw.roles()).indexOf(NiciraRole.MASTER);
        var before = Arrays.toString(sw.roles());
        await(() -> ids.get(taker).equals(map.get(1L)), "the map to name the member that took the switch over");
        sleepMillis(1000); // rounds after the decision: nothing changes at the switch
        assertEquals(before, Arrays.toString(sw.roles()));
        map.removeInterceptor(interceptor);
    }

    private static boolean oneMasterAmongSurvivors(RoleSwitch sw, int dead) {
        var roles = sw.roles();
        return Arrays.stream(roles).filter(r -> r == NiciraRole.MASTER).count() == 1 && roles[dead] != NiciraRole.MASTER;
    }

    /** kill -9 of member {@code i}: no hand-over, no goodbye; its switch connections close. */
    private void kill(int i) {
        com.hazelcast.core.Hazelcast.getHazelcastInstanceByName(instanceName(i)).getLifecycleService().terminate();
        controllers.get(i).close();
    }

    private String instanceName(int i) {
        return "beacon-127.0.0.1-" + ports[i];
    }

    /**
     * As when its bundle stops while its switches are busy: the member hands them over before it leaves, so every
     * PACKET_IN is answered once and none by a member that is no longer its switch's master.
     */
    @Test
    void aMemberThatLeavesOnPurposeHandsItsSwitchesOverWithoutLosingAPacketIn() throws Exception {
        for (long dpid = 1; dpid <= 3; dpid++) {
            switches.add(connect(dpid));
        }
        switches.forEach(sw -> await(() -> oneMaster(sw), "one master"));
        int index = Arrays.asList(switches.get(0).roles()).indexOf(NiciraRole.MASTER);
        var leaving = members.get(index);
        int count = 20_000;
        var sender = new Thread(() -> {
            for (int n = 1; n <= count; n++) {
                for (var sw : switches) {
                    sw.packetIn(n);
                }
                if (n % 50 == 0) {
                    sleepMillis(1);
                }
            }
        });
        sender.start();
        await(() -> switches.get(0).answers.size() > 1000, "load");
        assertTrue(sender.isAlive(), "the hand-over starts under load");
        long t = System.nanoTime();
        leaving.handOff(); // as the bundle's stop does
        leaving.stop();
        controllers.get(index).controller.unsetRoleArbiter(leaving.arbiter()); // as the service's unregistration does
        double ms = (System.nanoTime() - t) / 1e6;
        for (var sw : switches) {
            assertTrue(sw.roles()[index] == NiciraRole.SLAVE, "handed over before it left: "
                    + Arrays.toString(sw.roles()));
        }
        sender.join();
        for (var sw : switches) {
            await(() -> sw.answers.size() == count, "an answer to each PACKET_IN");
            Thread.sleep(100); // duplicates, if any, come in late
            var duplicates = sw.answers.entrySet().stream().filter(e -> e.getValue().size() != 1).toList();
            assertTrue(duplicates.isEmpty(), duplicates.size() + " PACKET_INs answered more than once, e.g. "
                    + duplicates.stream().limit(3).toList());
            assertEquals(0, sw.refused.get(), "writes refused by the switch (sent by a SLAVE)");
            assertTrue(oneMaster(sw) && sw.roles()[index] == NiciraRole.SLAVE, Arrays.toString(sw.roles()));
        }
        System.out.printf("a member left under load (hand-over and Hazelcast's shutdown): %.0f ms%n", ms);
    }

    @Test
    void aSlavesBarrierAnswersOnceTheSwitchHasTheWritesItForwarded() {
        var sw = connect(8);
        switches.add(sw);
        var slaveSwitch = aSlaveOf(sw, 8);
        int count = 200;
        for (int n = 1; n <= count; n++) {
            writeNumbered(slaveSwitch, n);
        }
        slaveSwitch.barrier(WAIT).join();
        assertEquals(count, sw.answers.size(), "forwarded PACKET_OUTs at the switch when the barrier answered");
        int master = Arrays.asList(sw.roles()).indexOf(NiciraRole.MASTER);
        assertTrue(sw.barriers.contains(List.of(master, count)), "a barrier on the master's connection, behind the"
                + " forwarded writes: " + sw.barriers);
        assertEquals(0, sw.refused.get());
    }

    /** A PACKET_OUT the switch counts as an answer to PACKET_IN {@code n}. */
    private static void writeNumbered(IOFSwitch sw, int n) {
        sw.write(OFPacketOut.unbuffered(sw.nextXid(), OFPort.NONE, List.of(new OFActionOutput(OFPort.FLOOD, 0)),
                ByteBuffer.wrap(RoleSwitch.numbered(n))));
    }

    /** A controller's view of {@code sw} where it is SLAVE, once its handshake is done. */
    private IOFSwitch aSlaveOf(RoleSwitch sw, long dpid) {
        await(() -> oneMaster(sw), "one master");
        int slave = Arrays.asList(sw.roles()).indexOf(NiciraRole.SLAVE);
        // The switch takes its role before the slave has read the reply and finished the handshake.
        await(() -> controllers.get(slave).controller.getSwitches().containsKey(dpid), "the slave's handshake");
        return controllers.get(slave).controller.getSwitches().get(dpid);
    }

    private void waitMaster(long dpid, String target) {
        await(() -> target.equals(members.get(0).view().masters().get(dpid)), "the map to name the target");
    }

    private RoleSwitch connect(long dpid) {
        return new RoleSwitch(dpid, controllers.stream().mapToInt(ControllerFixture::port).toArray());
    }

    private static boolean oneMaster(RoleSwitch sw) {
        var roles = Arrays.asList(sw.roles());
        return roles.stream().filter(r -> r == NiciraRole.MASTER).count() == 1
                && roles.stream().filter(r -> r == NiciraRole.SLAVE).count() == roles.size() - 1;
    }

    static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            sleepMillis(10);
        }
    }

    static void sleepMillis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * {@code n} distinct free ports below the kernel's ephemeral range: a port the kernel handed out ({@code new
     * ServerSocket(0)}) is in that range, and between its choice and Hazelcast's bind the local end of any outgoing
     * connection (a member of the previous test still reconnecting, a switch) may take it: "Port ... is already in use"
     * failed a CI run. The sockets are all open while they are chosen, so none is handed out twice.
     */
    static int[] freePorts(int n) {
        int below = ephemeralLow();
        var random = new Random();
        var sockets = new ArrayList<ServerSocket>();
        try {
            while (sockets.size() < n) {
                int port = 10_000 + random.nextInt(below - 10_000);
                try {
                    sockets.add(new ServerSocket(port, 50, InetAddress.getLoopbackAddress()));
                } catch (IOException e) {
                    // taken: another one
                }
            }
            return sockets.stream().mapToInt(ServerSocket::getLocalPort).toArray();
        } finally {
            for (var s : sockets) {
                try {
                    s.close();
                } catch (IOException e) {
                    // closing a socket that was only bound: nothing to lose
                }
            }
        }
    }

    /** The first port of the kernel's ephemeral range (Linux: ip_local_port_range), 32768 where it cannot be read. */
    private static int ephemeralLow() {
        try {
            var range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));
            return Math.max(20_000, Integer.parseInt(range.trim().split("\\s+")[0]));
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }
}
