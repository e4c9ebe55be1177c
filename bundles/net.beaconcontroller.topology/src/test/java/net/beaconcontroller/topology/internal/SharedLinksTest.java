package net.beaconcontroller.topology.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static net.beaconcontroller.core.test.ControllerFixture.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.shared.SharedTable;
import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.ManualScheduler;
import net.beaconcontroller.core.test.MemorySharedState;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.topology.Link;

/**
 * Two members of a cluster, each a controller with discovery, both connected to switches A and B: a probe one member
 * sends comes back at the switch the other masters, and both see the link.
 */
class SharedLinksTest {
    private static final long A = 0xa;
    private static final long B = 0xb;

    private final MemorySharedState cluster = new MemorySharedState();
    private final Member one = new Member(cluster);
    private final Member two = new Member(cluster);

    /** A controller with discovery and switches A and B connected to it. */
    private static final class Member implements AutoCloseable {
        final ControllerFixture fx = ControllerFixture.start("controller.threadCount=1");
        final ManualScheduler scheduler = new ManualScheduler();
        final LinkDiscovery topology;
        final ControllerFixture.Connected a;
        final ControllerFixture.Connected b;

        Member(ISharedState shared) {
            topology = new LinkDiscovery(fx.controller, scheduler, Configs.of(LinkDiscovery.Config.class),
                    System::nanoTime, Clock.systemUTC(), shared);
            fx.controller.addOFMessageListener(OFType.PACKET_IN, topology);
            fx.controller.addOFMessageListener(OFType.PORT_STATUS, topology);
            fx.controller.addOFSwitchListener(topology);
            a = fx.connectActive(A);
            b = fx.connectActive(B);
        }

        byte[] probe(ControllerFixture.Connected sw, int port) {
            var r = sw.fake().expectReceived(OFType.PACKET_OUT, m -> m instanceof OFPacketOut po
                    && po.actions().equals(List.of(new OFActionOutput(port, 0))), WAIT);
            var data = ((OFPacketOut) r.msg).data();
            var bytes = new byte[data.remaining()];
            data.get(bytes);
            return bytes;
        }

        @Override
        public void close() {
            topology.deactivate();
            scheduler.close();
            fx.close();
        }
    }

    @AfterEach
    void close() {
        one.close();
        two.close();
        cluster.close();
    }

    @Test
    void aProbeOneMemberSentThatComesBackAtTheOthersSwitchIsALinkOnBoth() {
        // One masters A and sends its probe; the switch hands it to two, B's master.
        two.b.fake().send(two.b.fake().packetIn(2, one.probe(one.a, 1)));
        awaitTrue("A/1 -> B/2 on both", WAIT, () -> one.topology.getLinks().containsKey(Link.of(A, 1, B, 2))
                && two.topology.getLinks().containsKey(Link.of(A, 1, B, 2)));
        assertEquals(1, two.topology.getDiscoveryCounters().probesAccepted());
        assertEquals(0, one.topology.getDiscoveryCounters().probesAccepted(), "one took it from the shared map");
        // And the other way round: two's probe of B/2 arrives at A/1, which one masters.
        one.a.fake().send(one.a.fake().packetIn(1, two.probe(two.b, 2)));
        var both = Set.of(Link.of(A, 1, B, 2), Link.of(B, 2, A, 1));
        awaitTrue("both directions on both", WAIT, () -> one.topology.getLinks().keySet().equals(both)
                && two.topology.getLinks().keySet().equals(both));
        assertEquals(one.topology.getLinks(), two.topology.getLinks(), "the same first-seen times");
        assertEquals(Set.of(Set.of(A, B)), two.topology.getIslands());
    }

    @Test
    void aMemberThatStartsLateHasTheClustersLinksAtOnce() {
        two.b.fake().send(two.b.fake().packetIn(2, one.probe(one.a, 1)));
        one.a.fake().send(one.a.fake().packetIn(1, two.probe(two.b, 2)));
        var both = Set.of(Link.of(A, 1, B, 2), Link.of(B, 2, A, 1));
        awaitTrue("both directions on one", WAIT, () -> one.topology.getLinks().keySet().equals(both));
        cluster.settle();
        var late = new Member(cluster);
        try {
            awaitTrue("late has both links and is settled", WAIT,
                    () -> late.topology.getLinks().keySet().equals(both) && late.topology.isSettled());
            assertEquals(0, late.topology.getDiscoveryCounters().probesAccepted(), "none of its own probes came back");
            assertTrue(late.topology.getBroadcastPorts(A).contains(1), "the link's port is on the spanning tree");
        } finally {
            late.close();
        }
    }

    @Test
    void aProbeFromAControllerOutsideTheClusterIsForged() {
        var outsider = new Member(null);
        try {
            two.b.fake().send(two.b.fake().packetIn(2, outsider.probe(outsider.a, 1)));
            awaitTrue("forged", WAIT, () -> two.topology.getDiscoveryCounters().forged() == 1);
            cluster.settle();
            assertTrue(one.topology.getLinks().isEmpty() && two.topology.getLinks().isEmpty());
        } finally {
            outsider.close();
        }
    }

    @Test
    void aMalformedSharedEntryIsIgnored() {
        cluster.map(SharedLinks.LINKS).set("a/1>b", new byte[8], Duration.ofSeconds(16));
        cluster.map(SharedLinks.LINKS).set("a/1>b/0", new byte[8], Duration.ofSeconds(16));
        cluster.map(SharedLinks.LINKS).set(SharedLinks.LINK_KEYS.format(Link.of(A, 1, B, 3)), new byte[8],
                Duration.ofSeconds(16));
        SharedTable.open(cluster, SharedLinks.LINKS, SharedLinks.LINK_KEYS, SharedLinks.FIRST_SEEN)
                .set(Link.of(A, 1, B, 2), Instant.now(), Duration.ofSeconds(16));
        awaitTrue("the good one", WAIT, () -> one.topology.getLinks().keySet().equals(Set.of(Link.of(A, 1, B, 2))));
    }

    @Test
    void aProbeFromAMemberWhoseClockIsAheadIsAcceptedWithinTheSkew() {
        var codec = new ProbeCodec();
        long sent = 1_000_000_000_000L;
        var probe = codec.probe(A, 1, sent);
        long interval = Duration.ofSeconds(5).toNanos();
        long skew = SharedLinks.SKEW.toNanos();
        assertEquals(ProbeCodec.Verdict.STALE, codec.verify(probe, sent - 100_000_000, interval, 0).verdict());
        assertEquals(ProbeCodec.Verdict.VALID, codec.verify(probe, sent - 100_000_000, interval, skew).verdict());
        assertEquals(ProbeCodec.Verdict.STALE, codec.verify(probe, sent - skew - 1, interval, skew).verdict());
        assertEquals(ProbeCodec.Verdict.STALE, codec.verify(probe, sent + interval + skew + 1, interval, skew)
                .verdict());
    }

    @Test
    void keysRoundTrip() {
        var l = Link.of(0xffff_0000_0000_0001L, 65280, 2, 1);
        var keys = SharedLinks.LINK_KEYS;
        assertEquals(l, keys.parse(keys.format(l)));
        assertThrows(IllegalArgumentException.class, () -> keys.parse("1/2>3"));
        assertThrows(IllegalArgumentException.class, () -> keys.parse("1/x>3/4"));
    }
}
