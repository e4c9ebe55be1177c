package net.beaconcontroller.core.web;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.server.ResponseStatusException;

import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.statistics.OFDescStatsRequest;
import net.beaconcontroller.openflow.statistics.OFPortStatsEntry;
import net.beaconcontroller.openflow.statistics.OFPortStatsReply;
import net.beaconcontroller.openflow.statistics.OFPortStatsRequest;
import net.beaconcontroller.core.test.FakeSwitch;

/** The switch endpoints against a real controller and scripted switches (the HTTP layer is the web bundle's). */
class SwitchControllerTest {
    /** Answers port statistics in two parts (the "more" flag), as a switch with many ports does. */
    private static void answerPortStats(FakeSwitch fake) {
        fake.answer(OFType.STATS_REQUEST, m -> {
            var req = (OFStatsRequest) m;
            if (req.body() instanceof OFDescStatsRequest) {
                return new OFStatsReply(m.xid(), FakeSwitch.DESCRIPTION).toByteArray();
            }
            if (!(req.body() instanceof OFPortStatsRequest)) {
                return null;
            }
            var first = new OFStatsReply(m.xid(), OFStatsReply.FLAG_MORE, new OFPortStatsReply(List.of(
                    new OFPortStatsEntry(2, 20, 21, 2000, 2100, 0, 0, 0, 0, 0, 0, 0, 0)))).toByteArray();
            var last = new OFStatsReply(m.xid(), new OFPortStatsReply(List.of(
                    new OFPortStatsEntry(1, 10, 11, 1000, 1100, 1, 2, 3, 4, 5, 6, 7, 8)))).toByteArray();
            var both = new byte[first.length + last.length];
            System.arraycopy(first, 0, both, 0, first.length);
            System.arraycopy(last, 0, both, first.length, last.length);
            return both;
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void portStatisticsOfOneSwitchAndOfAll() throws Exception {
        try (var fx = ControllerFixture.start()) {
            var web = new SwitchController(fx.controller);
            var s1 = fx.connectActive(1);
            var s2 = fx.connectActive(2);
            answerPortStats(s1.fake());
            answerPortStats(s2.fake());
            var one = (Map<String, Object>) web.stat("00:00:00:00:00:00:00:01", "port").get(5, TimeUnit.SECONDS);
            var reply = ((List<Map<String, Object>>) one.get("port_reply")).get(0);
            var ports = (List<Map<String, Object>>) reply.get("port");
            assertEquals(List.of("1", "2"), ports.stream().map(p -> p.get("portNumber")).toList());
            assertEquals("1000", ports.get(0).get("receiveBytes"));
            assertEquals("8", ports.get(0).get("collisions"));
            var all = (Map<String, Object>) web.stat("all", "port").get(5, TimeUnit.SECONDS);
            assertEquals(List.of("00:00:00:00:00:00:00:01", "00:00:00:00:00:00:00:02"), List.copyOf(all.keySet()));
            assertEquals(one, all.get("00:00:00:00:00:00:00:01"));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void listsAndDescriptionsWithoutAskingTheSwitch() throws Exception {
        try (var fx = ControllerFixture.start()) {
            var web = new SwitchController(fx.controller);
            fx.connectActive(7);
            var list = web.switches();
            assertEquals(1, list.size());
            assertEquals("00:00:00:00:00:00:00:07", list.get(0).get("switchDPID"));
            assertTrue(((String) list.get(0).get("inetAddress")).startsWith("/127.0.0.1:"));
            var features = (Map<String, Object>) web.stat("7", "features").get(5, TimeUnit.SECONDS);
            assertEquals("00:00:00:00:00:00:00:07", features.get("dpid"));
            assertEquals(2, ((List<?>) features.get("portDesc")).size());
            var beacon = web.beaconSwitches().get(0);
            assertEquals("FakeSwitch", beacon.get("hardware"));
            assertTrue((long) beacon.get("messagesIn") > 0);
        }
    }

    @Test
    void badRequestsFailAtOnceWithTheReason() {
        try (var fx = ControllerFixture.start()) {
            var web = new SwitchController(fx.controller);
            fx.connectActive(1);
            var stat = assertThrows(ErrorResponseException.class, () -> web.stat("1", "meter"));
            assertEquals(400, stat.getStatusCode().value());
            assertEquals("aggregate", ((Map<?, ?>) stat.getBody().getProperties()
                    .get("Valid statistics and features strings are:")).get("1)"));
            var dpid = assertThrows(ResponseStatusException.class, () -> web.stat("00:01:zz", "port"));
            assertEquals(400, dpid.getStatusCode().value());
            var absent = assertThrows(ResponseStatusException.class, () -> web.stat("9", "port"));
            assertEquals(404, absent.getStatusCode().value());
            assertTrue(absent.getReason().contains("00:00:00:00:00:00:00:09"), absent.getReason());
        }
    }

    @Test
    void aSwitchThatDoesNotAnswerTimesOutAndBlocksNothing() throws Exception {
        try (var fx = ControllerFixture.start()) {
            var web = new SwitchController(fx.controller);
            var silent = fx.connectActive(1);
            silent.fake().answer(OFType.STATS_REQUEST, m -> null);
            long start = System.nanoTime();
            var pending = web.stat("1", "flow");
            // The call returned at once: the wait is the future's, on no server thread.
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(1));
            var e = assertThrows(ExecutionException.class, () -> pending.get(SwitchController.SWITCH_TIMEOUT
                    .toSeconds() + 5, TimeUnit.SECONDS));
            assertInstanceOf(TimeoutException.class, e.getCause());
            // The switch is still served.
            assertTrue(silent.sw().isConnected());
            silent.sw().barrier(WAIT).get(5, TimeUnit.SECONDS);
        }
    }
}
