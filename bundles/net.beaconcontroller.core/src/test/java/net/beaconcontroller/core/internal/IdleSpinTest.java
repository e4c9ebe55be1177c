package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFType;

/** The latency mode's idle strategy: a loop that polls after traffic still serves messages, tasks and timers. */
class IdleSpinTest {
    @Test
    void aSpinningLoopServesMessagesTasksAndKeepalive() throws Exception {
        try (var fx = ControllerFixture.start("controller.idleSpinMicros=2000", "controller.echoInterval=1",
                "controller.echoTimeout=3")) {
            var listener = new RecordingListener("recorder");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, listener);
            var c = fx.connectActive(1);
            for (int i = 1; i <= 50; i++) {
                c.fake().send(c.fake().packetIn(1 + i % 4, FakeSwitch.frame(64, i)));
                assertEquals(1 + i % 4, ((OFPacketIn) listener.await(WAIT).msg()).inPort());
            }
            // A write handed over by another thread goes out while the loop polls or blocks.
            c.sw().getStatistics(new net.beaconcontroller.openflow.OFStatsRequest(0, 0,
                    new net.beaconcontroller.openflow.statistics.OFDescStatsRequest()), Duration.ofSeconds(5))
                    .get(WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            // Idle, it blocks again and the keepalive timer still runs: an ECHO_REQUEST after the interval.
            c.fake().expectReceived(OFType.ECHO_REQUEST, m -> true, Duration.ofSeconds(3));
            assertEquals(0, fx.count(ControllerFixture.Kind.REMOVED, 1));
        }
    }
}
