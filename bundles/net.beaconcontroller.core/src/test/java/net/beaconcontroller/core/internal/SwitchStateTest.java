package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.core.SwitchDisconnectedException;
import net.beaconcontroller.openflow.OFBarrierReply;
import net.beaconcontroller.openflow.OFBarrierRequest;
import net.beaconcontroller.openflow.OFError;
import net.beaconcontroller.openflow.OFErrorCode;
import net.beaconcontroller.openflow.OFData;
import net.beaconcontroller.openflow.OFPhysicalPort;
import net.beaconcontroller.openflow.OFPortStatus;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.statistics.OFTableStatsEntry;
import net.beaconcontroller.openflow.statistics.OFTableStatsReply;
import net.beaconcontroller.openflow.statistics.OFTableStatsRequest;

/** Per-switch state the controller keeps (ports) and requests with futures (statistics, barrier). */
class SwitchStateTest {

    private static Set<Integer> portNumbers(java.util.Collection<OFPhysicalPort> ports) {
        return ports.stream().map(OFPhysicalPort::portNo).collect(Collectors.toSet());
    }

    private static <T> T get(CompletableFuture<T> f) throws Exception {
        return f.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The cause a failed future completes with, waiting at most {@link ControllerFixture#WAIT}. */
    private static Throwable failure(CompletableFuture<?> f) {
        var e = assertThrows(ExecutionException.class, () -> f.get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        return e.getCause();
    }

    @Test
    void portStatusKeepsThePortsCurrentAndReachesListeners() {
        try (var fx = ControllerFixture.start()) {
            var listener = new RecordingListener("ports");
            fx.controller.addOFMessageListener(OFType.PORT_STATUS, listener);
            var c = fx.connectActive(1);
            assertEquals(Set.of(1, 2), portNumbers(c.sw().getPorts()));

            var added = FakeSwitch.port(3, "eth3");
            c.fake().send(new OFPortStatus(11, OFPortStatus.Reason.ADD, added));
            assertEquals(new OFPortStatus(11, OFPortStatus.Reason.ADD, added), listener.await(WAIT).msg());
            assertEquals(Set.of(1, 2, 3), portNumbers(c.sw().getPorts()));
            assertEquals(added, c.sw().getPort(3));

            var down = new OFPhysicalPort(1, 0x0200_0000_0001L, "eth1", OFPhysicalPort.CONFIG_PORT_DOWN,
                    OFPhysicalPort.STATE_LINK_DOWN, 0, 0, 0, 0);
            c.fake().send(new OFPortStatus(12, OFPortStatus.Reason.MODIFY, down));
            var call = listener.await(WAIT);
            assertEquals(OFPortStatus.Reason.MODIFY, ((OFPortStatus) call.msg()).reason());
            assertEquals(c.sw(), call.sw());
            assertEquals(down, c.sw().getPort(1));
            assertTrue(c.sw().getPort(1).isDown());
            assertEquals(3, c.sw().getPorts().size());

            c.fake().send(new OFPortStatus(13, OFPortStatus.Reason.DELETE, FakeSwitch.port(2, "eth2")));
            assertEquals(OFPortStatus.Reason.DELETE, ((OFPortStatus) listener.await(WAIT).msg()).reason());
            assertNull(c.sw().getPort(2));
            assertEquals(Set.of(1, 3), portNumbers(c.sw().getPorts()));
            // Features stay what the switch said at connect time; the ports view is the live one.
            assertEquals(2, c.sw().getFeatures().ports().size());
        }
    }

    @Test
    void getStatisticsCollectsEveryPartOfAMultipartReply() throws Exception {
        try (var fx = ControllerFixture.start()) {
            var c = fx.connectActive(1);
            var future = c.sw().getStatistics(new OFStatsRequest(0, OFTableStatsRequest.INSTANCE), WAIT);
            OFStatsRequest request = c.fake().expect(OFType.STATS_REQUEST,
                    m -> ((OFStatsRequest) m).body() instanceof OFTableStatsRequest, WAIT);
            assertTrue(request.xid() != 0, "the request gets a fresh xid");

            var t0 = new OFTableStatsEntry(0, "classifier", 0x3fffff, 1_000_000, 7, 100, 90);
            var t1 = new OFTableStatsEntry(1, "second", 0x3fffff, 1000, 0, 10, 0);
            var t2 = new OFTableStatsEntry(2, "third", 0x3fffff, 1000, 1, 10, 1);
            var part1 = new OFStatsReply(request.xid(), OFStatsReply.FLAG_MORE, new OFTableStatsReply(List.of(t0)));
            var part2 = new OFStatsReply(request.xid(), OFStatsReply.FLAG_MORE, new OFTableStatsReply(List.of(t1)));
            var part3 = new OFStatsReply(request.xid(), 0, new OFTableStatsReply(List.of(t2)));
            // The parts come in separate writes; an unrelated message in between must not disturb the collection.
            c.fake().send(part1);
            c.fake().send(new OFPortStatus(request.xid(), OFPortStatus.Reason.ADD, FakeSwitch.port(9, "eth9")));
            c.fake().send(part2);
            assertTrue(!future.isDone());
            c.fake().send(part3);
            assertEquals(List.of(part1, part2, part3), get(future));
        }
    }

    @Test
    void getStatisticsTimesOutWhenTheSwitchDoesNotAnswer() {
        try (var fx = ControllerFixture.start()) {
            var c = fx.connectActive(1);
            long start = System.nanoTime();
            var future = c.sw().getStatistics(new OFStatsRequest(0, OFTableStatsRequest.INSTANCE),
                    Duration.ofMillis(300));
            var cause = failure(future);
            long took = System.nanoTime() - start;
            assertTrue(cause instanceof TimeoutException, cause.toString());
            assertTrue(took >= Duration.ofMillis(290).toNanos(), "timed out after only " + took / 1_000_000 + " ms");
            assertTrue(took < Duration.ofMillis(1500).toNanos(), "timed out only after " + took / 1_000_000 + " ms");
            // A late answer is ignored; the switch stays connected.
            OFStatsRequest request = c.fake().expect(OFType.STATS_REQUEST,
                    m -> ((OFStatsRequest) m).body() instanceof OFTableStatsRequest, WAIT);
            c.fake().send(new OFStatsReply(request.xid(), 0, new OFTableStatsReply(List.of())));
            assertTrue(c.sw().isConnected());
        }
    }

    @Test
    void anErrorAnsweringARequestFailsItsFuture() {
        try (var fx = ControllerFixture.start()) {
            var c = fx.connectActive(1);
            c.fake().answer(OFType.STATS_REQUEST, m -> new OFError(m.xid(), OFErrorCode.BadRequest.BAD_STAT,
                    OFData.of(m.toByteArray())).toByteArray());
            var cause = failure(c.sw().getStatistics(new OFStatsRequest(0, OFTableStatsRequest.INSTANCE), WAIT));
            assertTrue(cause.getMessage().contains("BAD_STAT"), cause.toString());
            assertTrue(c.sw().isConnected());
        }
    }

    @Test
    void barrierCompletesWithTheMatchingReply() throws Exception {
        try (var fx = ControllerFixture.start()) {
            var c = fx.connectActive(1);
            OFBarrierReply reply = get(c.sw().barrier(WAIT));
            OFBarrierRequest request = c.fake().expect(OFType.BARRIER_REQUEST, m -> m.xid() == reply.xid(), WAIT);
            assertEquals(request.xid(), reply.xid());
        }
    }

    /** "No timeout" written as a very long one must not lose the future (Duration.toNanos overflows past 292 years). */
    @Test
    void aTimeoutTooLongForNanosecondsStillCompletes() throws Exception {
        try (var fx = ControllerFixture.start()) {
            var c = fx.connectActive(1);
            var forever = Duration.ofSeconds(Long.MAX_VALUE);
            assertTrue(get(c.sw().barrier(forever)).xid() != 0);
            var stats = c.sw().getStatistics(new OFStatsRequest(0, OFTableStatsRequest.INSTANCE), forever);
            OFStatsRequest request = c.fake().expect(OFType.STATS_REQUEST,
                    m -> ((OFStatsRequest) m).body() instanceof OFTableStatsRequest, WAIT);
            c.fake().send(new OFStatsReply(request.xid(), 0, new OFTableStatsReply(List.of())));
            assertEquals(1, get(stats).size());
        }
    }

    @Test
    void requestsFailWithSwitchDisconnectedWhenTheSwitchLeaves() {
        try (var fx = ControllerFixture.start()) {
            var c = fx.connectActive(1);
            c.fake().answer(OFType.BARRIER_REQUEST, null);
            var stats = c.sw().getStatistics(new OFStatsRequest(0, OFTableStatsRequest.INSTANCE), WAIT);
            var barrier = c.sw().barrier(WAIT);
            c.fake().expect(OFType.STATS_REQUEST, m -> ((OFStatsRequest) m).body() instanceof OFTableStatsRequest, WAIT);
            ControllerFixture.awaitTrue("the switch got the barrier request", WAIT,
                    () -> c.fake().count(OFType.BARRIER_REQUEST) == 2);
            c.fake().close();
            assertTrue(failure(stats) instanceof SwitchDisconnectedException);
            assertTrue(failure(barrier) instanceof SwitchDisconnectedException);
            fx.awaitEvent(ControllerFixture.Kind.REMOVED, 1);

            // And requests made after it left fail at once.
            assertTrue(failure(c.sw().barrier(WAIT)) instanceof SwitchDisconnectedException);
            assertTrue(failure(c.sw().getStatistics(new OFStatsRequest(0, OFTableStatsRequest.INSTANCE), WAIT))
                    instanceof SwitchDisconnectedException);
        }
    }
}
