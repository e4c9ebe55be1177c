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
    private final TopologyStore store = new TopologyStore(QUARANTINE);

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
        store.expire(16 * SECOND, 16 * SECOND, l -> true);
        assertEquals(Set.of(AB, BA), store.view().links().keySet());
        store.expire(16 * SECOND + 1, 16 * SECOND, l -> true);
        assertEquals(Set.of(AB), store.view().links().keySet());
        assertEquals(List.of(new LinkChange(BA, false)), changes());
        store.expire(27 * SECOND, 16 * SECOND, l -> true);
        assertTrue(store.view().links().isEmpty());
        assertEquals(List.of(new LinkChange(AB, false)), changes());
        assertEquals(Set.of(Set.of(1L), Set.of(2L)), store.view().islands());
    }

    @Test
    void aLinkWhoseProbesAreNotKnownLostStaysPastTheTimeout() {
        twoSwitchesWithACable();
        store.expire(30 * SECOND, 16 * SECOND, l -> !l.equals(AB));
        assertEquals(Set.of(AB), store.view().links().keySet());
    }

    /** Probes lost or late: the cable may be there, so its ports do not turn into edge ports at once. */
    @Test
    void theEndsOfALinkThatTimedOutAreQuarantinedAndToBeProbed() {
        twoSwitchesWithACable();
        var ends = store.expire(20 * SECOND, 16 * SECOND, l -> true);
        assertEquals(Set.of(new SwitchPort(1, 1), new SwitchPort(2, 1)), ends);
        assertTrue(store.view().links().isEmpty());
        assertEquals(Set.of(2), store.view().broadcastPorts(1, 20 * SECOND), "port 1 waits for its probe");
        assertEquals(Set.of(1, 2), store.view().broadcastPorts(1, 20 * SECOND + QUARANTINE), "no link came back");
        assertEquals(Set.of(), store.expire(21 * SECOND, 16 * SECOND, l -> true));
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
}
