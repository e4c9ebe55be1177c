package net.beaconcontroller.cluster.internal;

import static net.beaconcontroller.cluster.internal.ClusterTest.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.test.Configs;

/** The applications' shared state on two real Hazelcast members in this JVM, shared by the tests (each its own maps). */
class SharedStateTest {
    private static final List<Membership> members = new ArrayList<>();
    private static ISharedState one;
    private static ISharedState two;

    @BeforeAll
    static void startTwo() {
        int[] free = ClusterTest.freePorts(2);
        int a = free[0];
        int b = free[1];
        for (int port : new int[] {a, b}) {
            var settings = Configs.of(ClusterConfig.class, "cluster.enabled=true", "cluster.name=shared-" + a,
                    "cluster.members=127.0.0.1:" + a + ",127.0.0.1:" + b, "cluster.port=" + port,
                    "cluster.balancePeriod=0", "cluster.failureTimeout=3");
            var member = new Membership(() -> settings, Map::of);
            member.start();
            members.add(member);
        }
        await(() -> members.stream().allMatch(m -> m.view().members().size() == 2), "two members");
        one = sharedState(members.get(0));
        two = sharedState(members.get(1));
    }

    @AfterAll
    static void stop() {
        members.forEach(Membership::stop);
    }

    /** As the bundle publishes it once the member has joined. */
    private static ISharedState sharedState(Membership member) {
        return new SharedState(member.ready().toCompletableFuture().join().hz());
    }

    @Test
    void whatOneMemberSetsTheOtherIsToldIncludingWhatWasThereBefore() {
        one.map("test.m").set("before", new byte[] {1}, Duration.ofMinutes(1));
        await(() -> two.map("test.m").setIfAbsent("before", new byte[] {9})[0] == 1, "the first value stays");
        var seen = new ConcurrentHashMap<String, byte[]>();
        var still = new ConcurrentHashMap<String, byte[]>();
        var open = two.map("test.m").subscribe(still::put);
        try (var sub = two.map("test.m").subscribe(seen::put)) {
            one.map("test.m").set("after", new byte[] {2, 3}, Duration.ofMinutes(1));
            await(() -> seen.size() == 2, "both entries");
            assertArrayEquals(new byte[] {1}, seen.get("before"));
            assertArrayEquals(new byte[] {2, 3}, seen.get("after"));
            one.map("test.m").set("after", new byte[] {4}, Duration.ofMinutes(1));
            await(() -> seen.get("after")[0] == 4, "the update");
        }
        one.map("test.m").set("closed", new byte[] {5}, Duration.ofMinutes(1));
        await(() -> still.containsKey("closed"), "an open subscription told");
        open.close();
        assertTrue(!seen.containsKey("closed"), "a closed subscription is told nothing more");
    }

    @Test
    void anEntryGoesByItselfAfterItsTimeToLiveAndSubscribersAreTold() {
        var gone = new ConcurrentHashMap<String, Boolean>();
        var values = new ConcurrentHashMap<String, byte[]>();
        try (var sub = two.map("test.ttl").subscribe((k, v) -> {
            if (v == null) {
                gone.put(k, true);
            } else {
                values.put(k, v);
            }
        })) {
            one.map("test.ttl").set("short", new byte[] {1}, Duration.ofSeconds(1));
            one.map("test.ttl").set("long", new byte[] {1}, Duration.ofMinutes(5));
            await(() -> values.size() == 2, "both set");
            await(() -> gone.containsKey("short"), "the short one expired");
            assertTrue(!gone.containsKey("long"));
        }
    }

    @Test
    void anEntryWithoutTimeToLiveStaysUntilRemoved() {
        var values = new ConcurrentHashMap<String, byte[]>();
        var gone = new ConcurrentHashMap<String, Boolean>();
        try (var sub = two.map("test.remove").subscribe((k, v) -> {
            if (v == null) {
                gone.put(k, true);
            } else {
                values.put(k, v);
            }
        })) {
            one.map("test.remove").set("kept", new byte[] {7}, Duration.ZERO);
            await(() -> values.containsKey("kept"), "set");
            one.map("test.remove").remove("kept");
            await(() -> gone.containsKey("kept"), "removed");
            assertArrayEquals(new byte[] {8}, two.map("test.remove").setIfAbsent("kept", new byte[] {8}));
        }
    }

    @Test
    void replaceSetsOnlyWhileTheValueIsTheExpectedBytes() {
        one.map("test.replace").put("k", new byte[] {1, 2});
        // A copy, not the same array: Hazelcast compares the serialised bytes.
        assertTrue(two.map("test.replace").replace("k", new byte[] {1, 2}, new byte[] {3}));
        assertFalse(one.map("test.replace").replace("k", new byte[] {1, 2}, new byte[] {4}), "stale expected bytes");
        assertFalse(one.map("test.replace").replace("absent", new byte[] {1}, new byte[] {4}), "nothing there");
        assertArrayEquals(new byte[] {3}, one.map("test.replace").get("k").toCompletableFuture().join());
    }

    @Test
    void theMembersAgreeOnTheTime() {
        // In one JVM both members read one clock: this checks the offsets Hazelcast applies, not clock skew.
        await(() -> Math.abs(one.clusterTimeMillis() - two.clusterTimeMillis()) < 50, "times within 50 ms");
        long offset = one.clusterTimeMillis() - System.currentTimeMillis();
        assertTrue(Math.abs(offset) < 1000, "cluster time " + offset + " ms from the clock");
    }
}
