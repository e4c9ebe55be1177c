package net.beaconcontroller.cluster.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

import net.beaconcontroller.cluster.ICluster;

/** /wm/beacon/cluster/... over a fixed two-member cluster. */
class ClusterWebTest {
    private static final class Fixed implements ICluster {
        @Override
        public String localMemberId() {
            return "a";
        }

        @Override
        public List<Member> members() {
            return List.of(new Member("a", "127.0.0.1:5701", true, true, 1200, 0.25),
                    new Member("b", "127.0.0.1:5702", false, false, 0, -1));
        }

        @Override
        public Map<Long, String> masters() {
            return Map.of(1L, "a", 2L, "a", 3L, "b");
        }

        @Override
        public CompletionStage<Migration> migrate(long dpid, String member) {
            if (dpid == 9) {
                return CompletableFuture.failedFuture(new IllegalArgumentException("switch 9 is not connected"));
            }
            return CompletableFuture.completedFuture(new Migration(dpid, "a", "b", Duration.ofNanos(5_432_000)));
        }

        @Override
        public int membersNeeded() {
            return 2;
        }

        @Override
        public boolean settled() {
            return true;
        }

        @Override
        public List<Migration> recentMigrations() {
            return List.of(new Migration(3, "a", "b", Duration.ofMillis(7)));
        }
    }

    private final ClusterWeb web = new ClusterWeb(new Fixed());

    @Test
    @SuppressWarnings("unchecked")
    void theClusterViewListsMembersWithTheirSwitchesAndEachMaster() {
        var c = web.cluster();
        assertEquals("a", c.get("localMember"));
        assertEquals(2, c.get("membersNeeded"));
        assertEquals(true, c.get("settled"));
        var members = (List<Map<String, Object>>) c.get("members");
        assertEquals(2L, members.get(0).get("switches"));
        assertEquals(1L, members.get(1).get("switches"));
        assertEquals(null, members.get(1).get("cpu"));
        var masters = (Map<String, Map<String, Object>>) c.get("masters");
        assertEquals("127.0.0.1:5702", masters.get("00:00:00:00:00:00:00:03").get("address"));
        assertEquals(List.of(Map.of("switch", "00:00:00:00:00:00:00:03", "from", "a", "to", "b", "ms", 7.0)),
                c.get("migrations"));
    }

    @Test
    void aMigrationAnswersWithItsTime() {
        var m = web.migrate(Map.of("switch", "00:00:00:00:00:00:00:01", "member", "b")).join();
        assertEquals(5.43, m.get("ms"));
        assertEquals("00:00:00:00:00:00:00:01", m.get("switch"));
    }

    @Test
    void badRequestsGetAClearError() {
        var noMember = assertThrows(ResponseStatusException.class, () -> web.migrate(Map.of("switch", "1")));
        assertEquals(HttpStatus.BAD_REQUEST, noMember.getStatusCode());
        var badDpid = assertThrows(ResponseStatusException.class,
                () -> web.migrate(Map.of("switch", "zz", "member", "b")));
        assertEquals(HttpStatus.BAD_REQUEST, badDpid.getStatusCode());
        var unknown = assertThrows(CompletionException.class,
                () -> web.migrate(Map.of("switch", "00:00:00:00:00:00:00:09", "member", "b")).join());
        var cause = (ResponseStatusException) unknown.getCause();
        assertEquals(HttpStatus.BAD_REQUEST, cause.getStatusCode());
        assertEquals("switch 9 is not connected", cause.getReason());
    }
}
