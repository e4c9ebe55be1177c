package net.beaconcontroller.topology.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.topology.ITopologyListener;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;
import net.beaconcontroller.topology.internal.TopologyStore.LinkChange;
import net.beaconcontroller.topology.internal.TopologyStore.Seen;

/** The writer: links appear, refresh, time out, and go with their ports and switches; changes are told in order. */
class TopologyStoreTest {
    private static final long SECOND = 1_000_000_000L;
    private static final Link AB = Link.of(1, 1, 2, 1);
    private static final Link BA = AB.reverse();

    private static final long QUARANTINE = SECOND / 2;
    private final TopologyStore store = new TopologyStore(QUARANTINE, QUARANTINE);

    private List<LinkChange> changes() {
        var out = new ArrayList<LinkChange>();
        store.drain(out::add);
        return out;
    }

    private void twoSwitchesWithACable() {
        store.switchAdded(1, Set.of(1, 2), 0);
        store.switchAdded(2, Set.of(1, 2), 0);
        assertEquals(Seen.NEW, store.linkSeen(AB, 0, Instant.EPOCH));
        assertEquals(Seen.NEW, store.linkSeen(BA, 0, Instant.EPOCH));
        assertEquals(List.of(new LinkChange(AB, true), new LinkChange(BA, true)), changes());
    }

    /**
     * The routing engine reads the links as it starts and is registered as a listener a moment later: the links that
     * came in between reach it by the replay, for it alone, and a removal queued after the replay comes after it.
     */
    @Test
    void aListenerRegisteredLateHearsEveryCurrentLinkBeforeLaterChanges() {
        twoSwitchesWithACable();
        ITopologyListener late = new ITopologyListener() {
            @Override
            public void linkAdded(Link link) {
            }

            @Override
            public void linkRemoved(Link link) {
            }
        };
        store.replayTo(late);
        store.portDown(1, 1);
        var told = changes();
        assertEquals(Set.of(new LinkChange(AB, true, late), new LinkChange(BA, true, late)),
                Set.copyOf(told.subList(0, 2)));
        assertEquals(Set.of(new LinkChange(AB, false), new LinkChange(BA, false)), Set.copyOf(told.subList(2, 4)));
        assertEquals(4, told.size());
    }

    @Test
    void aLinkIsAddedOnceAndRefreshedAfterwards() {
        twoSwitchesWithACable();
        var before = store.view();
        assertEquals(Seen.REFRESHED, store.linkSeen(AB, SECOND, Instant.now()));
        assertTrue(before == store.view(), "a refresh rebuilds nothing");
        assertEquals(Instant.EPOCH, store.view().links().get(AB));
        assertEquals(List.of(), changes());
    }

    @Test
    void aLinkNotSeenForLongerThanTheTimeoutGoes() {
        twoSwitchesWithACable();
        store.linkSeen(AB, 10 * SECOND, Instant.EPOCH);
        store.expire(16 * SECOND, 16 * SECOND, l -> true, 16 * SECOND);
        assertEquals(Set.of(AB, BA), store.view().links().keySet());
        store.expire(16 * SECOND + 1, 16 * SECOND, l -> true, 16 * SECOND);
        assertEquals(Set.of(AB), store.view().links().keySet());
        assertEquals(List.of(new LinkChange(BA, false)), changes());
        store.expire(27 * SECOND, 16 * SECOND, l -> true, 16 * SECOND);
        assertTrue(store.view().links().isEmpty());
        assertEquals(List.of(new LinkChange(AB, false)), changes());
        assertEquals(Set.of(Set.of(1L), Set.of(2L)), store.view().islands());
    }

    @Test
    void aLinkWhoseProbesAreNotKnownLostStaysPastTheTimeout() {
        twoSwitchesWithACable();
        store.expire(30 * SECOND, 16 * SECOND, l -> !l.equals(AB), 16 * SECOND);
        assertEquals(Set.of(AB), store.view().links().keySet());
    }

    /** Probes lost or late: the cable may be there, so its ports do not turn into edge ports at once. */
    @Test
    void theEndsOfALinkThatTimedOutAreQuarantinedAndToBeProbed() {
        twoSwitchesWithACable();
        var ends = store.expire(20 * SECOND, 16 * SECOND, l -> true, 16 * SECOND).ends();
        assertEquals(Set.of(new SwitchPort(1, 1), new SwitchPort(2, 1)), ends);
        assertTrue(store.view().links().isEmpty());
        assertEquals(Set.of(2), store.view().broadcastPorts(1, 20 * SECOND), "port 1 waits for its probe");
        assertEquals(Set.of(1, 2), store.view().broadcastPorts(1, 20 * SECOND + QUARANTINE), "no link came back");
        assertEquals(Set.of(), store.expire(21 * SECOND, 16 * SECOND, l -> true, 16 * SECOND).ends());
        assertTrue(store.view().switches().get(1L).quarantine().isEmpty(), "ended quarantines are dropped");
    }

    @Test
    void theFarEndOfASwitchThatLeftIsQuarantined() {
        twoSwitchesWithACable();
        store.switchRemoved(2, 20 * SECOND);
        assertEquals(Set.of(2), store.view().broadcastPorts(1, 20 * SECOND));
        assertEquals(Set.of(1, 2), store.view().broadcastPorts(1, 20 * SECOND + QUARANTINE));
    }

    @Test
    void aPortThatGoesDownTakesBothDirectionsAtOnce() {
        twoSwitchesWithACable();
        store.portDown(2, 1);
        assertTrue(store.view().links().isEmpty());
        assertEquals(Set.of(new LinkChange(AB, false), new LinkChange(BA, false)), Set.copyOf(changes()));
        assertFalse(store.view().isEdgePort(2, 1));
        assertTrue(store.view().isEdgePort(1, 1));
        assertEquals(Seen.UNKNOWN_PORT, store.linkSeen(AB, SECOND, Instant.EPOCH));
        assertTrue(store.portUp(2, 1, SECOND));
        assertFalse(store.portUp(2, 1, SECOND), "already up");
        assertEquals(Seen.NEW, store.linkSeen(AB, SECOND, Instant.EPOCH));
    }

    @Test
    void aSwitchThatLeavesTakesItsLinks() {
        twoSwitchesWithACable();
        store.switchRemoved(1, SECOND);
        assertTrue(store.view().links().isEmpty());
        assertEquals(Set.of(Set.of(2L)), store.view().islands());
        assertEquals(2, changes().size());
        assertEquals(Seen.UNKNOWN_PORT, store.linkSeen(BA, SECOND, Instant.EPOCH));
        assertFalse(store.portUp(1, 3, SECOND), "unknown switch");
    }

    @Test
    void aSwitchThatReconnectsWithFewerPortsKeepsOnlyTheLinksOfPortsItStillHas() {
        twoSwitchesWithACable();
        store.switchAdded(2, Set.of(2), SECOND);
        assertTrue(store.view().links().isEmpty());
        assertEquals(2, changes().size());
    }

    @Test
    void aNewSwitchsPortsAreInQuarantineForTheQuarantineOnly() {
        twoSwitchesWithACable();
        assertFalse(store.view().isSettled(QUARANTINE - 1));
        assertTrue(store.view().isSettled(QUARANTINE));
        store.switchAdded(3, Set.of(1), 20 * SECOND);
        assertFalse(store.view().isSettled(20 * SECOND + QUARANTINE - 1));
        assertEquals(Set.of(), store.view().broadcastPorts(3, 20 * SECOND));
        assertEquals(Set.of(1, 2), store.view().broadcastPorts(1, 20 * SECOND), "the others flood meanwhile");
        assertTrue(store.view().isSettled(20 * SECOND + QUARANTINE));
        assertEquals(Set.of(1), store.view().broadcastPorts(3, 20 * SECOND + QUARANTINE));
    }

    @Test
    void changesQueuedWhileAnotherThreadDeliversAreDeliveredByItInOrder() {
        twoSwitchesWithACable();
        var told = new ArrayList<LinkChange>();
        store.portDown(1, 1);
        store.drain(c -> {
            told.add(c);
            if (told.size() == 1) {
                store.portUp(1, 1, 0);
                store.linkSeen(AB, 0, Instant.EPOCH);
                // A re-entrant drain returns at once: the outer one takes the new change.
                store.drain(c2 -> told.add(null));
            }
        });
        assertEquals(3, told.size());
        assertEquals(new LinkChange(AB, true), told.get(2));
    }
    /** Two switches with a host port each (2) facing one unmanaged bridge. */
    private static final Link DOMAIN = Link.of(1, 2, 2, 2);

    /** A BDDP probe that took a cable an LLDP link is known on is no broadcast domain, whichever came first. */
    @Test
    void aBddpProbeAlongsideAnLldpLinkMakesNoBroadcastDomainLink() {
        twoSwitchesWithACable();
        assertEquals(Seen.DIRECT, store.domainLinkSeen(AB, 0));
        assertEquals(Set.of(), store.view().domainLinks());
        // Its BDDP came back after its quarantine but before its LLDP (the LLDP lost): the LLDP link, once seen, wins.
        store.portDown(1, 1);
        store.portUp(1, 1, 0);
        changes();
        assertEquals(Seen.NEW, store.domainLinkSeen(BA, QUARANTINE));
        assertTrue(store.view().isDomainPort(new SwitchPort(1, 1)));
        assertEquals(Seen.NEW, store.linkSeen(BA, QUARANTINE, Instant.EPOCH));
        assertEquals(Set.of(), store.view().domainLinks());
        assertFalse(store.view().isDomainPort(new SwitchPort(1, 1)));
        assertEquals(List.of(new LinkChange(BA, true)), changes(), "listeners hear of LLDP links only");
    }

    /**
     * As Beacon restarts, Open vSwitch may hand over a new port's BDDP before the LLDP sent just ahead of it: held
     * until the quarantine ends, by when the LLDP link is known, it makes no broadcast domain, not even for a moment.
     */
    @Test
    void aBddpProbeThatOvertakesItsLldpInQuarantineMakesNoDomain() {
        store.switchAdded(1, Set.of(1, 2), 0);
        store.switchAdded(2, Set.of(1, 2), 0);
        assertEquals(Seen.EARLY, store.domainLinkSeen(AB, 1));
        assertEquals(Set.of(), store.view().domainLinks());
        assertEquals(Seen.NEW, store.linkSeen(AB, 2, Instant.EPOCH));
        assertEquals(Seen.NEW, store.linkSeen(BA, 2, Instant.EPOCH));
        var expired = store.expire(QUARANTINE, 16 * SECOND, l -> true, 16 * SECOND);
        assertEquals(List.of(), expired.domains());
        assertEquals(Set.of(), store.view().domainLinks());
        assertTrue(store.view().isSettled(QUARANTINE), "the held ports were let go");
        assertEquals(Set.of(1, 2), store.view().broadcastPorts(1, QUARANTINE));
    }

    /**
     * A bridge at two new ports: the BDDP held in quarantine makes the domain when the quarantine ends, and the ports
     * stay out of broadcasts until then, however late the expiry run: no moment in which both flood as edge ports.
     */
    @Test
    void aBddpProbeHeldInQuarantineMakesTheDomainWhenItEnds() {
        store.switchAdded(1, Set.of(1, 2), 0);
        store.switchAdded(2, Set.of(1, 2), 0);
        assertEquals(Seen.EARLY, store.domainLinkSeen(DOMAIN, 1));
        assertEquals(Seen.EARLY, store.domainLinkSeen(DOMAIN.reverse(), 2));
        long late = QUARANTINE + QUARANTINE / 2;
        assertEquals(Set.of(1), store.view().broadcastPorts(1, late), "held past its quarantine: waits for the judgement");
        assertEquals(Set.of(1), store.view().broadcastPorts(2, late));
        assertFalse(store.view().isSettled(late));
        assertEquals(List.of(), store.expire(QUARANTINE - 1, 16 * SECOND, l -> true, 16 * SECOND).domains(),
                "not judged before the quarantine ends");
        var found = store.expire(late, 16 * SECOND, l -> true, 16 * SECOND).domains();
        assertEquals(Set.of(DOMAIN, DOMAIN.reverse()), Set.copyOf(found));
        assertEquals(Set.of(DOMAIN, DOMAIN.reverse()), store.view().domainLinks());
        assertTrue(store.view().isSettled(late));
        assertEquals(Set.of(1, 2), store.view().broadcastPorts(1, late), "the domain joins the two islands");
        assertEquals(Set.of(1, 2), store.view().broadcastPorts(2, late));
        assertEquals(List.of(), changes(), "listeners hear of LLDP links only");
        // Probes of the next rounds refresh it.
        assertEquals(Seen.REFRESHED, store.domainLinkSeen(DOMAIN, 5 * SECOND));
    }

    @Test
    void aBroadcastDomainLinkWhoseProbesStopComingGoesAndItsEndsWaitInQuarantine() {
        store.switchAdded(1, Set.of(1, 2), 0);
        store.switchAdded(2, Set.of(1, 2), 0);
        assertEquals(Seen.NEW, store.domainLinkSeen(DOMAIN, QUARANTINE));
        assertEquals(Seen.REFRESHED, store.domainLinkSeen(DOMAIN, 10 * SECOND));
        assertEquals(List.of(), changes(), "not a link to route over: listeners hear nothing");
        // The LLDP timeout does not apply to it: its ports are probed every round only.
        assertEquals(Set.of(), store.expire(20 * SECOND, 2 * SECOND, l -> true, 16 * SECOND).ends());
        assertEquals(Set.of(DOMAIN), store.view().domainLinks());
        var ends = store.expire(26 * SECOND + 1, 2 * SECOND, l -> true, 16 * SECOND).ends();
        assertEquals(Set.of(), store.view().domainLinks());
        assertEquals(Set.of(DOMAIN.src(), DOMAIN.dst()), ends, "probed at once: the bridge may still be there");
        assertTrue(store.view().isQuarantined(DOMAIN.src(), 26 * SECOND + 2));
        assertEquals(Seen.UNKNOWN_PORT, store.domainLinkSeen(Link.of(1, 2, 3, 1), 27 * SECOND));
    }
}
