package net.beaconcontroller.topology.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static net.beaconcontroller.core.test.ControllerFixture.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.ManualScheduler;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPhysicalPort;
import net.beaconcontroller.openflow.OFPortStatus;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.openflow.vendor.NiciraRole;
import net.beaconcontroller.packet.Bytes;
import net.beaconcontroller.packet.Ethernet;
import net.beaconcontroller.packet.Lldp;
import net.beaconcontroller.packet.LldpTlv;
import net.beaconcontroller.packet.PacketParseException;
import net.beaconcontroller.topology.ITopologyListener;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;
import net.beaconcontroller.util.MacAddress;

/** Discovery against a real controller on loopback and scripted switches that hand probes to each other. */
class LinkDiscoveryTest {
    private static final long A = 0xa;
    private static final long B = 0xb;
    private static final long SECOND = 1_000_000_000L;

    private final ControllerFixture fx = ControllerFixture.start("controller.threadCount=2");
    private final AtomicLong now = new AtomicLong(1000 * SECOND);
    private final ManualScheduler scheduler = new ManualScheduler();
    private final LinkDiscovery topology = new LinkDiscovery(fx.controller, scheduler,
            Configs.of(LinkDiscovery.Config.class), now::get, Clock.systemUTC(), null);
    /** After topology in the PACKET_IN pipeline: must never see LLDP. */
    private final RecordingListener after = new RecordingListener("after");
    private final Map<String, AtomicInteger> told = new ConcurrentHashMap<>();
    private ControllerFixture.Connected a;
    private ControllerFixture.Connected b;

    LinkDiscoveryTest() {
        fx.controller.addOFMessageListener(OFType.PACKET_IN, topology);
        fx.controller.addOFMessageListener(OFType.PORT_STATUS, topology);
        fx.controller.addOFSwitchListener(topology);
        fx.controller.addOFMessageListener(OFType.PACKET_IN, after);
        // Told first: its failures must not keep the counting listener below from being told.
        topology.addListener(new ITopologyListener() {
            @Override
            public void linkAdded(Link link) {
                throw new IllegalStateException("a failing listener must not stop the others");
            }

            @Override
            public void linkRemoved(Link link) {
                throw new IllegalStateException("a failing listener must not stop the others");
            }
        });
        topology.addListener(new ITopologyListener() {
            @Override
            public void linkAdded(Link link) {
                count("added " + link);
            }

            @Override
            public void linkRemoved(Link link) {
                count("removed " + link);
            }
        });
    }

    private void count(String event) {
        told.computeIfAbsent(event, k -> new AtomicInteger()).incrementAndGet();
    }

    @AfterEach
    void close() {
        scheduler.close();
        fx.close();
    }

    /** An LLDP probe out of {@code port}. */
    private static Predicate<OFMessage> outOf(int port) {
        return sentTo(port, Lldp.NEAREST_BRIDGE);
    }

    /** A BDDP probe out of {@code port}. */
    private static Predicate<OFMessage> bddpOutOf(int port) {
        return sentTo(port, MacAddress.BROADCAST);
    }

    private static Predicate<OFMessage> sentTo(int port, long dst) {
        return m -> m instanceof OFPacketOut po && po.actions().equals(List.of(new OFActionOutput(port, 0)))
                && destination(po) == dst;
    }

    private static long destination(OFPacketOut po) {
        var d = po.data();
        long mac = 0;
        for (int i = 0; i < 6; i++) {
            mac = mac << 8 | d.get(d.position() + i) & 0xff;
        }
        return mac;
    }

    /** The next BDDP probe the controller sends out of {@code port} of {@code sw}. */
    private static byte[] bddp(ControllerFixture.Connected sw, int port) {
        return data(sw.fake().expectReceived(OFType.PACKET_OUT, bddpOutOf(port), WAIT));
    }

    /** Waits until every PACKET_IN sent to the controller before by {@code sw} was handled: one is passed on after. */
    private void drained(ControllerFixture.Connected sw) {
        arrive(sw, 2, FakeSwitch.frame(64, 1));
        assertEquals(OFType.PACKET_IN, after.await(WAIT).msg().type());
    }

    /** The next probe the controller sends out of {@code port} of {@code sw}: the frame's bytes. */
    private static byte[] probe(ControllerFixture.Connected sw, int port) {
        return data(sw.fake().expectReceived(OFType.PACKET_OUT, outOf(port), WAIT));
    }

    /** The first probe out of {@code port} that reached the switch after {@code nanos}: older ones are skipped. */
    private static byte[] probeAfter(ControllerFixture.Connected sw, int port, long nanos) {
        FakeSwitch.Received r;
        do {
            r = sw.fake().expectReceived(OFType.PACKET_OUT, outOf(port), WAIT);
        } while (r.nanos - nanos < 0);
        return data(r);
    }

    private static byte[] data(FakeSwitch.Received r) {
        var data = ((OFPacketOut) r.msg).data();
        var bytes = new byte[data.remaining()];
        data.get(bytes);
        return bytes;
    }

    private static void arrive(ControllerFixture.Connected sw, int inPort, byte[] frame) {
        sw.fake().send(sw.fake().packetIn(inPort, frame));
    }

    private void connectBoth() {
        a = fx.connectActive(A);
        b = fx.connectActive(B);
    }

    /** A/1 is cabled to B/2: each probe is handed over, both ways. */
    private void cable() {
        arrive(b, 2, probe(a, 1));
        awaitTrue("A/1 -> B/2", WAIT, () -> topology.getLinks().containsKey(Link.of(A, 1, B, 2)));
        // B probes its end at once when it learns of the new link: no wait for the next round.
        arrive(a, 1, probe(b, 2));
        awaitTrue("B/2 -> A/1", WAIT, () -> topology.getLinks().containsKey(Link.of(B, 2, A, 1)));
    }

    /**
     * One run of the scheduled tasks, then waits until the switches' I/O threads did what it queued: a probe's send
     * time is read there, and a test that moves the clock before the send would have the probe sent in the future.
     */
    private void tick() {
        scheduler.tick();
        idle();
    }

    /** Waits until the switches' I/O threads did what was queued on them so far (telling discovery of the switches). */
    private void idle() {
        for (var sw : List.of(a, b)) {
            var done = new CompletableFuture<Void>();
            sw.sw().execute(() -> done.complete(null));
            done.orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
        }
    }

    private int told(String event) {
        var n = told.get(event);
        return n == null ? 0 : n.get();
    }

    /** Listeners are told after the view changed, maybe by another thread: wait until {@code event} was told n times. */
    private void awaitTold(String event, int n) {
        awaitTrue(event + " told " + n + " time(s)", WAIT, () -> {
            assertTrue(told(event) <= n, () -> event + " told " + told(event) + " times");
            return told(event) == n;
        });
    }

    @Test
    void aProbeThatComesBackAtAnotherSwitchIsALinkAndListenersAreToldOnce() {
        connectBoth();
        cable();
        assertEquals(Set.of(Link.of(A, 1, B, 2), Link.of(B, 2, A, 1)), topology.getLinks().keySet());
        assertEquals(Set.of(Set.of(A, B)), topology.getIslands());
        assertFalse(topology.isEdgePort(A, 1));
        assertTrue(topology.isEdgePort(A, 2));
        assertTrue(topology.isEdgePort(B, 1));
        // A probe of the same cable in the next round only refreshes it.
        tick();
        arrive(b, 2, probe(a, 1));
        awaitTrue("accepted", WAIT, () -> topology.getDiscoveryCounters().probesAccepted() == 3);
        awaitTold("added " + Link.of(A, 1, B, 2), 1);
        awaitTold("added " + Link.of(B, 2, A, 1), 1);
        after.expectNone(Duration.ofMillis(100));
        assertEquals(Map.of("added " + Link.of(A, 1, B, 2), 1, "added " + Link.of(B, 2, A, 1), 1),
                Map.copyOf(told.entrySet().stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
                        e -> e.getValue().get()))), "told exactly once, the refresh told nothing");
        assertFalse(topology.isSettled(), "within the quarantine of the new switches' ports");
        assertEquals(Set.of(1), topology.getBroadcastPorts(A), "the link's port is on the spanning tree at once");
        now.addAndGet(SECOND / 2);
        assertTrue(topology.isSettled());
        assertEquals(Set.of(1, 2), topology.getBroadcastPorts(A));
        assertEquals(Set.of(), topology.getQuarantinedPorts());
    }

    @Test
    void forgedAndReplayedProbesCreateNothing() throws PacketParseException {
        connectBoth();
        var genuine = probe(a, 1);
        // A host flips a bit of the HMAC.
        var badMac = genuine.clone();
        int authAt = indexOf(genuine, new byte[] {0x0a, (byte) 0xbe, (byte) 0xac, 1});
        badMac[authAt + 4 + 18] ^= 1;
        arrive(b, 2, badMac);
        // A host turns A/1's probe into one of A/2: port id changed, authentication TLV copied.
        arrive(b, 2, withPortId(genuine, 2));
        awaitTrue("two forged", WAIT, () -> topology.getDiscoveryCounters().forged() == 2);
        // A host replays the genuine probe a round later.
        now.addAndGet(5 * SECOND + 1);
        arrive(b, 2, genuine);
        awaitTrue("stale", WAIT, () -> topology.getDiscoveryCounters().stale() == 1);
        assertTrue(topology.getLinks().isEmpty());
        assertEquals(0, topology.getDiscoveryCounters().probesAccepted());
        after.expectNone(Duration.ofMillis(100));
        assertTrue(told.isEmpty());
    }

    @Test
    void malformedAndForeignLldpIsCountedAndConsumed() {
        connectBoth();
        var garbage = Ethernet.of(Lldp.NEAREST_BRIDGE, 0x02_0000_0000_01L, Lldp.of(LldpTlv.ChassisId.ofMac(1),
                LldpTlv.PortId.ofPortNumber(1), 120)).padded().serialize();
        var foreign = garbage.clone();
        garbage[14] = (byte) 0x03; // the first TLV's length now runs past the frame
        garbage[15] = (byte) 0xff;
        arrive(b, 2, garbage);
        arrive(b, 2, foreign);
        arrive(b, 2, new byte[] {1, (byte) 0x80, (byte) 0xc2, 0, 0, 0xe, 2, 0, 0, 0, 0, 1, (byte) 0x88, (byte) 0xcc});
        awaitTrue("counted", WAIT, () -> topology.getDiscoveryCounters().malformed() == 2
                && topology.getDiscoveryCounters().foreign() == 1);
        // Other traffic goes on to the next listener.
        arrive(b, 2, FakeSwitch.frame(64, 1));
        assertEquals(OFType.PACKET_IN, after.await(WAIT).msg().type());
        after.expectNone(Duration.ofMillis(100));
        assertTrue(topology.getLinks().isEmpty());
    }

    @Test
    void aPortThatGoesDownTakesItsLinksAtOnce() {
        connectBoth();
        cable();
        var down = new OFPhysicalPort(2, 0x0200_0000_0002L, "eth2", 0, OFPhysicalPort.STATE_LINK_DOWN, 0, 0, 0, 0);
        b.fake().send(new OFPortStatus(b.fake().nextXid(), OFPortStatus.Reason.MODIFY, down));
        awaitTrue("no links", WAIT, () -> topology.getLinks().isEmpty());
        awaitTold("removed " + Link.of(A, 1, B, 2), 1);
        awaitTold("removed " + Link.of(B, 2, A, 1), 1);
        assertEquals(Set.of(Set.of(A), Set.of(B)), topology.getIslands());
        // Up again: probed at once, and the cable is found again. Only that probe proves the port-up was handled: one
        // from before the port went down may still be unread, and A's PACKET_IN could be handled before B's
        // PORT_STATUS (two connections, no order between them), so the probe would count for a port still down.
        long up = System.nanoTime();
        b.fake().send(new OFPortStatus(b.fake().nextXid(), OFPortStatus.Reason.MODIFY, FakeSwitch.port(2, "eth2")));
        arrive(a, 1, probeAfter(b, 2, up));
        awaitTrue("B/2 -> A/1 again", WAIT, () -> topology.getLinks().containsKey(Link.of(B, 2, A, 1)));
        awaitTold("added " + Link.of(B, 2, A, 1), 2);
    }

    @Test
    void aSwitchThatDisconnectsTakesItsLinks() {
        connectBoth();
        cable();
        b.fake().close();
        fx.awaitEvent(ControllerFixture.Kind.REMOVED, B);
        awaitTrue("no links", WAIT, () -> topology.getLinks().isEmpty());
        assertEquals(Set.of(Set.of(A)), topology.getIslands());
        awaitTold("removed " + Link.of(A, 1, B, 2), 1);
        awaitTold("removed " + Link.of(B, 2, A, 1), 1);
    }

    @Test
    void linksNotProbedWithinTheTimeoutGoAndEveryRoundProbesEveryPort() {
        connectBoth();
        cable();
        now.addAndGet(SECOND * 5 / 2);
        tick();
        assertEquals(2, topology.getLinks().size(), "2.5 s (2.5 liveness intervals) is the timeout, not past it");
        // This round's probe of A/1 crosses the cable; B's does not come back.
        arrive(b, 2, probe(a, 1));
        probe(b, 1);
        awaitTrue("refreshed", WAIT, () -> topology.getDiscoveryCounters().probesAccepted() == 3);
        now.addAndGet(SECOND);
        tick();
        assertEquals(Set.of(Link.of(A, 1, B, 2)), topology.getLinks().keySet());
        assertEquals(Set.of(Set.of(A), Set.of(B)), topology.getIslands(), "one direction joins no islands");
        awaitTold("removed " + Link.of(B, 2, A, 1), 1);
    }

    @Test
    void aSwitchBackFromAnotherMasterFloodsAtOnceButWhereItsLinkTimedOut() {
        connectBoth();
        cable();
        now.addAndGet(SECOND);
        tick();
        assertEquals(Set.of(), topology.getQuarantinedPorts(), "the new switches' quarantine is over");
        a.fake().answeringRoles();
        // A planned migration away and back: the other master probed A up to the hand-over.
        role(a, NiciraRole.SLAVE);
        long back = System.nanoTime();
        role(a, NiciraRole.MASTER);
        assertEquals(Set.of(), topology.getQuarantinedPorts(), "no port of A held back");
        assertEquals(Set.of(1, 2), topology.getBroadcastPorts(A), "A/2 (a host's) floods, A/1 is on the tree");
        probeAfter(a, 1, back);
        probeAfter(a, 2, back);

        // A master that froze: A's links time out while another member has A, then A comes back here.
        role(a, NiciraRole.SLAVE);
        for (int i = 0; i < 4 && !topology.getLinks().isEmpty(); i++) {
            now.addAndGet(SECOND);
            tick();
        }
        assertEquals(Map.of(), topology.getLinks(), "A's links timed out");
        now.addAndGet(SECOND);
        tick();
        assertEquals(Set.of(), topology.getQuarantinedPorts(), "the ends' own quarantine is over");
        role(a, NiciraRole.MASTER);
        assertEquals(Set.of(new SwitchPort(A, 1)), topology.getQuarantinedPorts(), "the end whose link timed out");
        assertEquals(Set.of(2), topology.getBroadcastPorts(A));
    }

    /** The switch grants {@code role}, then the expiry task sees it (which is when discovery takes it in). */
    private void role(ControllerFixture.Connected sw, NiciraRole role) {
        sw.sw().setRole(role, WAIT).toCompletableFuture().orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
        tick();
    }

    @Test
    void discoveryThatStartsWhileSwitchesAreConnectedTakesThemInAndHearsThemLeave() {
        connectBoth();
        var late = fx.addSwitchListener(new LinkDiscovery(fx.controller, scheduler,
                Configs.of(LinkDiscovery.Config.class), now::get, Clock.systemUTC(), null));
        assertTrue(late.isEdgePort(A, 2) && late.isEdgePort(B, 1), "A and B taken in");
        b.fake().close();
        fx.awaitEvent(ControllerFixture.Kind.REMOVED, B);
        awaitTrue("B dropped", WAIT, () -> !late.isEdgePort(B, 1));
        assertTrue(late.isEdgePort(A, 2));
        late.deactivate();
    }

    /** As when switches connect while the component restarts: it was never told, and takes them in on its next round. */
    @Test
    void switchesItWasNotToldOfAreTakenInOnTheNextRound() {
        connectBoth();
        var untold = new LinkDiscovery(fx.controller, scheduler, Configs.of(LinkDiscovery.Config.class), now::get,
                Clock.systemUTC(), null);
        assertFalse(untold.isEdgePort(A, 2));
        scheduler.tick();
        awaitTrue("A and B taken in", WAIT, () -> untold.isEdgePort(A, 2) && untold.isEdgePort(B, 1));
        untold.deactivate();
    }

    @Test
    void aLinkTimeoutNotAboveTheIntervalIsRefused() {
        var e = assertThrows(SettingException.class, () -> new LinkDiscovery(fx.controller, scheduler,
                Configs.of(LinkDiscovery.Config.class, "topology.probeInterval=5", "topology.livenessInterval=0",
                        "topology.linkTimeout=5"), now::get, Clock.systemUTC(), null));
        assertEquals("topology.linkTimeout", e.key());
        // The liveness probes refresh links every second by default: a timeout must exceed that.
        e = assertThrows(SettingException.class, () -> new LinkDiscovery(fx.controller, scheduler,
                Configs.of(LinkDiscovery.Config.class, "topology.linkTimeout=1"), now::get, Clock.systemUTC(), null));
        assertEquals("topology.linkTimeout", e.key());
    }

    /**
     * A2 and B/1 face a bridge Beacon does not manage: A's LLDP stops there, its BDDP is flooded to B/1. That is a
     * broadcast-domain link: not a link (listeners hear nothing), its ports stay edge ports, and once A and B are
     * cabled (one island) only A/2 floods into the domain.
     */
    @Test
    void aBddpProbeThatCrossesABridgeIsABroadcastDomainLink() {
        connectBoth();
        arrive(b, 1, bddp(a, 2));
        awaitTrue("held", WAIT, () -> topology.getDiscoveryCounters().probesAccepted() == 1);
        assertEquals(Set.of(), topology.getBroadcastDomainLinks(), "its ends are in quarantine: judged when it ends");
        now.addAndGet(SECOND / 2);
        assertEquals(Set.of(1), topology.getBroadcastPorts(A), "A/2 held out of broadcasts until it is judged");
        assertEquals(Set.of(2), topology.getBroadcastPorts(B));
        tick();
        assertEquals(Set.of(Link.of(A, 2, B, 1)), topology.getBroadcastDomainLinks());
        assertTrue(topology.getLinks().isEmpty());
        assertTrue(topology.isBroadcastDomainPort(A, 2) && topology.isBroadcastDomainPort(B, 1));
        assertFalse(topology.isBroadcastDomainPort(A, 1));
        assertTrue(topology.isEdgePort(A, 2) && topology.isEdgePort(B, 1), "hosts behind the bridge attach there");
        after.expectNone(Duration.ofMillis(100));
        assertEquals(Set.of(1, 2), topology.getBroadcastPorts(A));
        assertEquals(Set.of(1, 2), topology.getBroadcastPorts(B), "two islands: each floods into the domain");
        cable();
        assertEquals(Set.of(1, 2), topology.getBroadcastPorts(A));
        assertEquals(Set.of(2), topology.getBroadcastPorts(B), "one island: B/1 would send A's broadcasts round");
        assertTrue(told.keySet().stream().noneMatch(e -> e.contains(Link.of(A, 2, B, 1).toString())));
    }

    /** The way it fails: a BDDP probe that took a cable with an LLDP link must not make the cable a bridge. */
    @Test
    void aBddpProbeAlongsideAnLldpLinkIsNoBroadcastDomain() {
        connectBoth();
        var twin = bddp(a, 1);
        cable();
        arrive(b, 2, twin);
        drained(b);
        assertEquals(Set.of(), topology.getBroadcastDomainLinks());
        assertFalse(topology.isBroadcastDomainPort(B, 2));
        twinBeforeItsLldp();
    }

    /** B/2 goes down and up; its BDDP twin comes back first (its LLDP late): the LLDP link, when it comes, wins. */
    private void twinBeforeItsLldp() {
        var down = new OFPhysicalPort(2, 0x0200_0000_0002L, "eth2", 0, OFPhysicalPort.STATE_LINK_DOWN, 0, 0, 0, 0);
        b.fake().send(new OFPortStatus(b.fake().nextXid(), OFPortStatus.Reason.MODIFY, down));
        awaitTrue("no links", WAIT, () -> topology.getLinks().isEmpty());
        long up = System.nanoTime();
        b.fake().send(new OFPortStatus(b.fake().nextXid(), OFPortStatus.Reason.MODIFY, FakeSwitch.port(2, "eth2")));
        var lldp = probeAfter(b, 2, up);
        long accepted = topology.getDiscoveryCounters().probesAccepted();
        arrive(a, 1, bddp(b, 2));
        awaitTrue("the twin first: held", WAIT, () -> topology.getDiscoveryCounters().probesAccepted() == accepted + 1);
        assertFalse(topology.isBroadcastDomainPort(A, 1), "B/2 is in quarantine: no domain, not even for now");
        arrive(a, 1, lldp);
        awaitTrue("B/2 -> A/1 a link", WAIT, () -> topology.getLinks().containsKey(Link.of(B, 2, A, 1)));
        now.addAndGet(SECOND / 2);
        tick();
        assertEquals(Set.of(), topology.getBroadcastDomainLinks());
        assertFalse(topology.isBroadcastDomainPort(A, 1));
        assertEquals(Set.of(), topology.getQuarantinedPorts(), "the held port let go");
    }

    /** Broadcast-domain ports are probed every round, not every second: three rounds lost, and the link goes. */
    @Test
    void aBroadcastDomainLinkWhoseProbesStopComingExpires() {
        connectBoth();
        var probe = bddp(a, 2);
        idle();
        now.addAndGet(SECOND / 2);
        arrive(b, 1, probe);
        awaitTrue("a broadcast domain", WAIT, () -> topology.isBroadcastDomainPort(B, 1));
        now.addAndGet(15 * SECOND);
        tick();
        assertTrue(topology.isBroadcastDomainPort(B, 1), "16 s is the timeout: three rounds lost and a second");
        now.addAndGet(SECOND + 1);
        tick();
        assertEquals(Set.of(), topology.getBroadcastDomainLinks());
        assertTrue(topology.isQuarantined(new SwitchPort(B, 1)),
                "its ends wait for their probes: the bridge may still be there");
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }

    /** The probe with its port id TLV (and the ONF DPID TLV kept) claiming {@code port}. */
    private static byte[] withPortId(byte[] probe, int port) throws PacketParseException {
        var eth = Ethernet.parse(probe);
        var lldp = (Lldp) eth.payload();
        var tlvs = new java.util.ArrayList<LldpTlv>(lldp.tlvs());
        tlvs.replaceAll(t -> t instanceof LldpTlv.PortId ? LldpTlv.PortId.ofPortNumber(port) : t);
        return eth.toBuilder().payload(new Lldp(tlvs)).trailer(Bytes.EMPTY).build().padded().serialize();
    }
}
