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
        view.replaceAll(Map.of(3L, "c"));
        assertEquals(Map.of(3L, "c"), view.snapshot());
    }
}
