package net.beaconcontroller.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class DeathWatchTest {
    private static final long SECOND = 1_000_000_000L;
    private final DeathWatch.Refusals refusals = new DeathWatch.Refusals();
    private final UUID member = UUID.randomUUID();

    @Test
    void twoRefusalsInARowAreADeath() {
        assertTrue(refusals.due(member, 0));
        assertFalse(refusals.dead(member, "Connection refused"));
        assertTrue(refusals.due(member, 200_000_000L), "probed again at once after a refusal");
        assertTrue(refusals.dead(member, "Connection refused"));
    }

    @Test
    void aRefusalThenAnAnswerIsNoDeath() {
        refusals.due(member, 0);
        assertFalse(refusals.dead(member, "Connection refused"));
        refusals.due(member, 200_000_000L);
        assertFalse(refusals.dead(member, null));
        refusals.due(member, 2 * SECOND);
        assertFalse(refusals.dead(member, "Connection refused"), "a refusal after an answer counts as the first");
    }

    @Test
    void aConnectionBackForgetsARefusal() {
        refusals.due(member, 0);
        refusals.dead(member, "Connection refused");
        refusals.connected(member);
        refusals.due(member, 200_000_000L);
        assertFalse(refusals.dead(member, "Connection refused"));
    }

    @Test
    void aMemberThatDoesNotRefuseIsProbedOnceASecond() {
        assertTrue(refusals.due(member, 0));
        refusals.dead(member, null);
        assertFalse(refusals.due(member, SECOND / 2));
        assertTrue(refusals.due(member, SECOND));
    }

    @Test
    void aMemberThatLeftIsForgotten() {
        refusals.due(member, 0);
        refusals.dead(member, "Connection refused");
        refusals.retain(List.of());
        refusals.due(member, 200_000_000L);
        assertFalse(refusals.dead(member, "Connection refused"));
    }
}
