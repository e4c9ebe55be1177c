package net.beaconcontroller.cluster.internal;

import static net.beaconcontroller.cluster.internal.ClusterTest.await;
import static net.beaconcontroller.cluster.internal.ClusterTest.sleepMillis;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import net.beaconcontroller.cluster.ICluster.Migration;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * The migration protocol's failure paths, driven one step at a time over the in-memory transport: a message lost, a
 * member that leaves mid-migration on either side. Whatever happens, the switch ends with exactly one master and every
 * PACKET_IN is answered once.
 */
class MigrationsTest {
    /** cluster.migrationTimeout: long enough that a give-up at once cannot be mistaken for one on the timeout. */
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** What "at once" allows. */
    private static final long AT_ONCE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long DPID = 1;
    private static final NiciraRole[] A_MASTERS = {NiciraRole.MASTER, NiciraRole.SLAVE};

    private final InMemoryMember.Network net = new InMemoryMember.Network();
    private InMemoryMember a;
    private InMemoryMember b;
    private RoleSwitch sw;
    private int sent;

    @BeforeEach
    void aMastersTheSwitch() {
        net.masters.put(DPID, "a");
        a = new InMemoryMember(net, "a", TIMEOUT);
        b = new InMemoryMember(net, "b", TIMEOUT);
        sw = new RoleSwitch(DPID, a.fx.port(), b.fx.port());
        await(() -> sw.roles()[0] == NiciraRole.MASTER && sw.roles()[1] == NiciraRole.SLAVE, "a MASTER, b SLAVE");
        // b's handshake: a member takes a migration only for a switch its connection has granted SLAVE.
        await(() -> b.local(DPID) != null && b.local(DPID).sw.getRole() == NiciraRole.SLAVE, "b's handshake");
    }

    @AfterEach
    void close() {
        sw.close();
        a.close();
        b.close();
    }

    @Test
    void aMigrationHandsTheSwitchOverAndAnswersEachPacketInOnce() throws Exception {
        var sender = new Thread(() -> send(2_000));
        sender.start();
        var m = a.migrate(DPID, "b").get(10, TimeUnit.SECONDS);
        sender.join();
        assertEquals("b", m.to());
        assertEquals("b", net.masters.get(DPID));
        await(() -> sw.roles()[0] == NiciraRole.SLAVE && sw.roles()[1] == NiciraRole.MASTER, "b MASTER, a SLAVE");
        send(100);
        assertEachAnsweredOnce();
    }

    /** Asked at a member that does not master the switch: the master runs it, the asker hears of the map's change. */
    @Test
    void aMoveAskedAtAnotherMemberIsDoneWhenTheMapNamesTheTarget() throws Exception {
        var m = b.migrate(DPID, "b").get(10, TimeUnit.SECONDS);
        assertEquals("a", m.from());
        assertEquals("b", m.to());
        assertEquals("b", net.masters.get(DPID));
        await(() -> sw.roles()[0] == NiciraRole.SLAVE && sw.roles()[1] == NiciraRole.MASTER, "b MASTER, a SLAVE");
    }

    @Test
    void aTargetThatNeverAnswersLeavesTheSwitchWithItsMaster() {
        net.cut = (to, m) -> to.equals("b");
        var e = assertThrows(ExecutionException.class, () -> a.migrate(DPID, "b").get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause().getMessage().contains("given up"), e.getCause().getMessage());
        assertEquals("a", net.masters.get(DPID));
        assertArrayEquals(A_MASTERS, sw.roles());
        send(200);
        assertEachAnsweredOnce();
    }

    @Test
    void aTargetThatLeavesAfterItsReadyIsGivenUpAtOnce() {
        // b is EQUAL with its gate shut, its READY lost; then it leaves the cluster.
        var run = migrationWithReadyLost();
        long left = System.nanoTime();
        a.memberLeft("b");
        var e = assertThrows(ExecutionException.class, () -> run.get(10, TimeUnit.SECONDS));
        assertTrue(System.nanoTime() - left < AT_ONCE_NANOS, "given up at once, not after the timeout: "
                + e.getCause().getMessage());
        assertEquals("a", net.masters.get(DPID));
        // b, alive after all, gets the ABORT and returns to SLAVE.
        await(() -> sw.roles()[1] == NiciraRole.SLAVE, "b back to SLAVE");
        assertArrayEquals(A_MASTERS, sw.roles());
        send(200);
        assertEachAnsweredOnce();
    }

    @Test
    void aTargetWhoseMasterLeavesGivesItsClaimUpAtOnce() {
        var run = migrationWithReadyLost();
        long left = System.nanoTime();
        b.memberLeft("a");
        await(() -> sw.roles()[1] == NiciraRole.SLAVE && b.local(DPID).gate() == SwitchState.Gate.OPEN,
                "b back to SLAVE with its gate open");
        assertTrue(System.nanoTime() - left < AT_ONCE_NANOS, "b waited for its timeout");
        // a, alive after all, gives up on its own timeout and keeps the switch.
        assertThrows(ExecutionException.class, () -> run.get(10, TimeUnit.SECONDS));
        assertArrayEquals(A_MASTERS, sw.roles());
        send(200);
        assertEachAnsweredOnce();
    }

    @Test
    void aLostCompleteStillEndsTheMigrationWithTheTargetAsMaster() {
        net.cut = (to, m) -> m instanceof Message.Step s && s.phase() == Message.Phase.COMPLETE;
        var e = assertThrows(ExecutionException.class, () -> a.migrate(DPID, "b").get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause().getMessage().contains("after the hand-over"), e.getCause().getMessage());
        assertEquals("b", net.masters.get(DPID));
        await(() -> sw.roles()[0] == NiciraRole.SLAVE && sw.roles()[1] == NiciraRole.MASTER, "b MASTER, a SLAVE");
        send(200);
        assertEachAnsweredOnce();
    }

    /**
     * The deadline for the hand-over passes with the marker written but not back: the target will handle the switch's
     * messages after the marker whatever the old master does, so the old master waits for it too (giving up then, with
     * its gate open, would have both answer the messages after the marker until the target heard of it).
     */
    @Test
    void aGiveUpDueWhileTheMarkerIsOnItsWayWaitsForTheMarker() throws Exception {
        sw.holdRemovals = true;
        var run = a.migrate(DPID, "b");
        await(() -> b.local(DPID).gate() == SwitchState.Gate.DROP_UNTIL_MARKER
                && a.local(DPID).gate() == SwitchState.Gate.HANDLE_UNTIL_MARKER, "the marker on its way");
        send(100);
        sleepMillis(TIMEOUT.toMillis() + 300);
        assertFalse(run.isDone(), "given up with the marker on its way");
        send(100);
        sw.release();
        assertEquals("b", run.get(10, TimeUnit.SECONDS).to());
        await(() -> sw.roles()[0] == NiciraRole.SLAVE && sw.roles()[1] == NiciraRole.MASTER, "b MASTER, a SLAVE");
        send(100);
        assertEachAnsweredOnce();
    }

    /** The marker never comes back: after a second deadline the old master keeps the switch, the target stands down. */
    @Test
    void aMarkerThatNeverComesBackIsGivenUpAfterASecondDeadline() {
        sw.holdRemovals = true;
        var run = a.migrate(DPID, "b");
        var e = assertThrows(ExecutionException.class, () -> run.get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause().getMessage().contains("the marker never came back"), e.getCause().getMessage());
        assertEquals("a", net.masters.get(DPID));
        await(() -> sw.roles()[1] == NiciraRole.SLAVE && a.local(DPID).gate() == SwitchState.Gate.OPEN,
                "b back to SLAVE, a's gate open");
        assertArrayEquals(A_MASTERS, sw.roles());
        send(200);
        assertEachAnsweredOnce();
    }

    /** A migration from a to b stopped after its first phase: b is EQUAL with its gate shut, its READY lost. */
    private CompletableFuture<Migration> migrationWithReadyLost() {
        net.cut = (to, m) -> to.equals("a") && m instanceof Message.Step s && s.phase() == Message.Phase.READY;
        var run = a.migrate(DPID, "b");
        await(() -> sw.roles()[1] == NiciraRole.OTHER, "b to be EQUAL");
        return run;
    }

    /** Sends {@code n} more numbered PACKET_INs and waits until every one sent so far has an answer. */
    private void send(int n) {
        int from;
        synchronized (this) {
            from = sent;
            sent += n;
        }
        for (int k = from + 1; k <= from + n; k++) {
            sw.packetIn(k);
            if (k % 50 == 0) {
                sleepMillis(1);
            }
        }
        int total = from + n;
        await(() -> sw.answers.size() >= total, total + " PACKET_INs answered");
    }

    private void assertEachAnsweredOnce() {
        var twice = sw.answers.entrySet().stream().filter(e -> e.getValue().size() != 1).limit(3).toList();
        assertEquals(List.of(), twice, "PACKET_INs answered more than once");
        assertEquals(sent, sw.answers.size());
        assertEquals(0, sw.refused.get(), "writes refused by the switch (sent by a SLAVE)");
    }
}
