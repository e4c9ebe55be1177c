package net.beaconcontroller.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class MasterViewTest {
    private final Set<String> members = new HashSet<>(Set.of("a", "b", "c"));
    private long now;
    private final MasterView view = new MasterView(members::contains, () -> now);

    @Test
    void aReadOlderThanAnEventDoesNotUndoIt() {
        view.learned(1, "a");
        long readAt = now++;
        view.changed(1, "b"); // a migration's hand-over, seen after the store started its read
        assertEquals("b", view.reconcile(1, "a", readAt));
        assertEquals("b", view.get(1));
        assertEquals("b", view.reconcile(1, "b", now), "a read after the event stands");
    }

    @Test
    void aReadOfTheMapBeforeAMergeDoesNotUndoTheMergedMap() {
        view.learned(1, "a"); // this member's side of the split
        long readAt = now++;
        view.replaceAll(Map.of(1L, "b"), now); // the larger part's map, which won
        assertEquals("b", view.reconcile(1, "a", readAt), "a read started before the merge is of the old map");
        assertEquals("c", view.reconcile(1, "c", ++now), "a read after it stands");
    }

    @Test
    void aReadNewerThanTheLastEventStands() {
        view.changed(1, "a");
        long readAt = ++now;
        assertEquals("c", view.reconcile(1, "c", readAt), "an event the listener missed, found by the read");
        assertEquals("c", view.get(1));
    }

    @Test
    void aTakeOverStandsOverAnEntryNamingTheDead() {
        view.learned(1, "a");
        members.remove("a");
        view.takenOver(1, "b", "a");
        assertEquals("b", view.live(1));
        now++;
        // The map still names the dead member until the oldest writes: that read does not move the switch back.
        assertEquals("b", view.reconcile(1, "a", now));
        // The oldest's decision, once written, does.
        assertEquals("c", view.reconcile(1, "c", ++now));
    }

    @Test
    void aTakeOverDoesNotOverrideANewerDecision() {
        view.learned(1, "c");
        view.takenOver(1, "b", "a");
        assertEquals("c", view.get(1));
    }

    @Test
    void aMasterThatLeftIsNoneForWrites() {
        view.learned(1, "a");
        members.remove("a");
        assertEquals("a", view.get(1));
        assertNull(view.live(1));
    }

    @Test
    void aRemovedEntryIsGoneAndAMergeReplacesEverything() {
        view.learned(1, "a");
        view.learned(2, "b");
        view.changed(1, null);
        assertNull(view.get(1));
        view.replaceAll(Map.of(3L, "c"), now);
        assertEquals(Map.of(3L, "c"), view.snapshot());
    }

    @Test
    void theMapsEventsAfterTheMergedReadStandOverIt() {
        view.learned(1, "a");
        view.learned(2, "a");
        long mergedReadAt = now++;
        view.changed(1, "c"); // a hand-over the listener told after the merged map was read
        view.changed(4, "b"); // a new switch's master
        view.changed(2, null); // an entry removed
        view.replaceAll(Map.of(1L, "b", 2L, "b", 3L, "b"), mergedReadAt);
        assertEquals(Map.of(1L, "c", 3L, "b", 4L, "b"), view.snapshot());
    }
}
