package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.openflow.OFBarrierReply;
import net.beaconcontroller.openflow.OFBarrierRequest;
import net.beaconcontroller.openflow.OFData;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.OFVendor;
import net.beaconcontroller.openflow.statistics.OFDescStatsReply;
import net.beaconcontroller.openflow.statistics.OFDescStatsRequest;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/** How replies find their requests: by xid and reply type, each request gone from the tracker once it is over. */
class RequestTrackerTest {

    /**
     * A callback of a request (which may make the next request, or close the connection and fail every request left)
     * runs once the request has left the tracker; so does a statistics request's, completed by its last part.
     */
    @Test
    void aRequestHasLeftTheTrackerWhenItsCallbacksRun() {
        try (var fx = ControllerFixture.start()) {
            var c = fx.connectActive(0x51);
            // The handshake's requests, answered already.
            c.fake().expect(OFType.STATS_REQUEST, WAIT);
            c.fake().expect(OFType.BARRIER_REQUEST, WAIT);
            c.fake().answer(OFType.BARRIER_REQUEST, null).answer(OFType.STATS_REQUEST, null);
            var conn = (SwitchConnection) c.sw();
            var waitingSeen = new CopyOnWriteArrayList<Integer>();

            var barrier = c.sw().barrier(WAIT);
            barrier.whenComplete((reply, error) -> waitingSeen.add(conn.requests().waiting()));
            var stats = c.sw().getStatistics(new OFStatsRequest(0, 0, new OFDescStatsRequest()), WAIT);
            stats.whenComplete((reply, error) -> waitingSeen.add(conn.requests().waiting()));
            OFBarrierRequest barrierRequest = c.fake().expect(OFType.BARRIER_REQUEST, WAIT);
            OFStatsRequest statsRequest = c.fake().expect(OFType.STATS_REQUEST, WAIT);

            c.fake().send(new OFBarrierReply(barrierRequest.xid()));
            barrier.orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
            c.fake().send(new OFStatsReply(statsRequest.xid(), 0, new OFDescStatsReply("a", "b", "c", "d", "e")));
            stats.orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();

            assertEquals(List.of(1, 0), waitingSeen, "requests still waiting, as the callbacks saw them");
        }
    }

    /**
     * A VENDOR message with a request's xid answers it, whatever extension it is of (as before the split of the
     * connection): a reply the request cannot take fails it at once, and it does not reach the VENDOR listeners as an
     * unsolicited message while the request waits for its deadline.
     */
    @Test
    void aVendorReplyIsMatchedByXidAndOneOfAnotherKindFailsTheRequest() throws Exception {
        try (var fx = ControllerFixture.start()) {
            var vendorListener = new RecordingListener("vendor");
            fx.controller.addOFMessageListener(OFType.VENDOR, vendorListener);
            var c = fx.connectActive(0x52);
            c.fake().answer(OFType.VENDOR, m -> new OFVendor(m.xid(), 0xa0c9, OFData.of(new byte[] {1, 2, 3, 4}))
                    .toByteArray());

            var role = c.sw().setRole(NiciraRole.MASTER, WAIT);
            var failure = assertThrows(ExecutionException.class,
                    () -> role.get(WAIT.toMillis() / 2, TimeUnit.MILLISECONDS));
            assertInstanceOf(IllegalStateException.class, failure.getCause());
            assertTrue(failure.getCause().getMessage().contains("VENDOR message of vendor 0xa0c9"),
                    failure.getCause().getMessage());
            vendorListener.expectNone(Duration.ofMillis(200));
            assertEquals(NiciraRole.OTHER, c.sw().getRole());
        }
    }
}
