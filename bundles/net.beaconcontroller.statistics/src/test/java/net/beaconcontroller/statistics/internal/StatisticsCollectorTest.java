package net.beaconcontroller.statistics.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static net.beaconcontroller.core.test.ControllerFixture.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.IScheduler;
import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.ControllerFixture.Kind;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.statistics.OFDescStatsRequest;
import net.beaconcontroller.openflow.statistics.OFPortStatsEntry;
import net.beaconcontroller.openflow.statistics.OFPortStatsReply;
import net.beaconcontroller.statistics.PortBandwidth;

/** Polling against a real controller and scripted switches; the test polls and moves time by hand. */
class StatisticsCollectorTest {
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final AtomicLong polls = new AtomicLong();
    private final java.util.concurrent.ScheduledExecutorService executor =
            Executors.newSingleThreadScheduledExecutor();
    /** Schedules nothing that fires during a test: the test calls poll() itself. */
    private final IScheduler scheduler = new IScheduler() {
        @Override
        public ScheduledFuture<?> schedule(Runnable task, Duration delay) {
            return executor.schedule(task, 1, TimeUnit.HOURS);
        }

        @Override
        public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Duration initialDelay, Duration period) {
            return executor.scheduleAtFixedRate(task, 1, 1, TimeUnit.HOURS);
        }
    };

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private StatisticsCollector collector(ControllerFixture fx, String... settings) {
        return new StatisticsCollector(fx.controller, scheduler, Configs.of(StatisticsCollector.Config.class,
                settings), nanos::get, Clock.systemUTC());
    }

    /** Port 1's counters grow by {@code step} bytes (rx) and twice that (tx) per reply; port 2 stays at zero. */
    private byte[] reply(OFMessage m, AtomicLong counter, long step) {
        var req = (OFStatsRequest) m;
        if (req.body() instanceof OFDescStatsRequest) {
            return new OFStatsReply(m.xid(), FakeSwitch.DESCRIPTION).toByteArray();
        }
        polls.incrementAndGet();
        long c = counter.addAndGet(step);
        return new OFStatsReply(m.xid(), new OFPortStatsReply(List.of(
                new OFPortStatsEntry(1, 0, 0, c, 2 * c, 0, 0, 0, 0, 0, 0, 0, 0),
                new OFPortStatsEntry(2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))).toByteArray();
    }

    /** Polls, and returns once the replies are recorded: a barrier answered after them proves it. */
    private void pollAndWait(ControllerFixture fx, StatisticsCollector c, long expectedPolls) {
        c.poll();
        awaitTrue("replies", WAIT, () -> polls.get() >= expectedPolls);
        fx.controller.getSwitches().values().forEach(sw -> sw.barrier(WAIT).join());
    }

    @Test
    void ratesFromTheLastTwoReplies() {
        try (var fx = ControllerFixture.start()) {
            var s1 = fx.connectActive(1);
            var counter = new AtomicLong();
            s1.fake().answer(OFType.STATS_REQUEST, m -> reply(m, counter, 1000));
            var c = collector(fx);
            assertTrue(c.isEnabled());
            pollAndWait(fx, c, 1);
            assertTrue(c.getBandwidth().isEmpty(), "one reply gives no rate yet");
            nanos.addAndGet(2_000_000_000L);
            pollAndWait(fx, c, 2);
            awaitTrue("rates", WAIT, () -> c.getBandwidth().size() == 2);
            var port1 = c.getBandwidth().get(0);
            assertEquals(1, port1.dpid());
            assertEquals(1, port1.port());
            assertEquals(4000, port1.rxBitsPerSecond()); // 1000 bytes in 2 s
            assertEquals(8000, port1.txBitsPerSecond());
            assertEquals(0, c.getBandwidth().get(1).rxBitsPerSecond());
        }
    }

    @Test
    void aSilentSwitchDelaysNobodyAndALeavingOneTakesItsRates() {
        try (var fx = ControllerFixture.start()) {
            var silent = fx.connectActive(2);
            silent.fake().answer(OFType.STATS_REQUEST, m -> ((OFStatsRequest) m).body() instanceof OFDescStatsRequest
                    ? new OFStatsReply(m.xid(), FakeSwitch.DESCRIPTION).toByteArray() : null);
            var s1 = fx.connectActive(1);
            var counter = new AtomicLong();
            s1.fake().answer(OFType.STATS_REQUEST, m -> reply(m, counter, 500));
            var c = collector(fx, "statistics.period=1");
            pollAndWait(fx, c, 1);
            nanos.addAndGet(1_000_000_000L);
            pollAndWait(fx, c, 2);
            awaitTrue("switch 1's rates", WAIT, () -> c.getBandwidth().size() == 2);
            assertTrue(c.getBandwidth().stream().allMatch(b -> b.dpid() == 1));
            assertEquals(4000, c.getBandwidth().get(0).rxBitsPerSecond());
            s1.fake().close();
            fx.awaitEvent(Kind.REMOVED, 1);
            c.removedSwitch(s1.sw());
            assertTrue(c.getBandwidth().isEmpty());
        }
    }

    @Test
    void disabledItForgetsAndIgnoresLateReplies() {
        try (var fx = ControllerFixture.start()) {
            var s1 = fx.connectActive(1);
            var counter = new AtomicLong();
            s1.fake().answer(OFType.STATS_REQUEST, m -> reply(m, counter, 100));
            var c = collector(fx, "statistics.enabled=false");
            assertFalse(c.isEnabled());
            c.setEnabled(true);
            pollAndWait(fx, c, 1);
            nanos.addAndGet(1_000_000_000L);
            pollAndWait(fx, c, 2);
            awaitTrue("rates", WAIT, () -> !c.getBandwidth().isEmpty());
            c.setEnabled(false);
            assertTrue(c.getBandwidth().isEmpty());
            assertFalse(c.isEnabled());
            // A reply that comes after disabling is not recorded.
            pollAndWait(fx, c, 3);
            assertEquals(List.<PortBandwidth>of(), c.getBandwidth());
        }
    }
}
