package net.beaconcontroller.guard.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.guard.GuardBudgets;
import net.beaconcontroller.guard.internal.SwitchGuard.Admit;
import net.beaconcontroller.guard.internal.SwitchGuard.Block;
import net.beaconcontroller.guard.internal.SwitchGuard.Cause;
import net.beaconcontroller.guard.internal.SwitchGuard.Verdict;

/** One switch's budgets on a clock the test moves: what passes, what is dropped, which port is blocked when. */
class SwitchGuardTest {
    private static final long MS = 1_000_000;
    private static final long DPID = 7;

    private final Counters counters = new Counters();
    private long now = 123_456 * MS;

    /** Port budget 100/s (burst 10), switch 1,000/s (burst 50), blocks of 2 s; port 9 ends a link. */
    private SwitchGuard guard(long switchRate, long switchBurst) {
        var budgets = new Budgets(new GuardBudgets(100, 10, switchRate, switchBurst, 2, 2));
        return new SwitchGuard(budgets, Set.of(9)::contains, port -> counters.of(DPID, port), now);
    }

    private static int passes(SwitchGuard g, int port, int n, long at) {
        int passed = 0;
        for (int i = 0; i < n; i++) {
            if (g.admit(port, at) == Admit.PASS) {
                passed++;
            }
        }
        return passed;
    }

    @Test
    void aPortOverItsBudgetIsBlockedOnceThenDroppedUntilTheBlockEnds() {
        var g = guard(1000, 50);
        assertEquals(10, passes(g, 1, 10, now), "the burst");
        Verdict v = g.admit(1, now);
        var block = assertInstanceOf(Block.class, v);
        assertEquals(1, block.port());
        assertEquals(Cause.PORT, block.cause());
        assertTrue(block.episodeStart());
        assertEquals(0, passes(g, 1, 100, now + 1000 * MS), "blocked: dropped, and no second drop flow");
        assertEquals(10, passes(g, 2, 10, now + 1000 * MS), "another port is served");
        // After the block the bucket is full again: the burst passes, then the next block renews the episode.
        long later = now + 2000 * MS;
        assertEquals(10, passes(g, 1, 10, later));
        var again = assertInstanceOf(Block.class, g.admit(1, later));
        assertFalse(again.episodeStart(), "blocked again right after the drop flow expired: the same episode");
        // Blocked again 20 s after that block ended (a port a little over its budget): still the same episode.
        long slow = later + 2000 * MS + 20_000 * MS;
        assertEquals(10, passes(g, 1, 10, slow));
        assertFalse(assertInstanceOf(Block.class, g.admit(1, slow)).episodeStart());
        // Not blocked for longer than the episode gap after that block: a new episode.
        long quiet = slow + 2000 * MS + SwitchGuard.EPISODE_GAP_NANOS + MS;
        assertEquals(10, passes(g, 1, 10, quiet));
        assertTrue(assertInstanceOf(Block.class, g.admit(1, quiet)).episodeStart());

        var c = counters.snapshot().ports();
        assertEquals(1, c.size(), "only the port that went over is listed");
        assertEquals(4, c.get(0).dropFlows());
        assertEquals(2, c.get(0).episodes());
        assertEquals(4 + 100, c.get(0).droppedByPort());
    }

    @Test
    void theBlockedPortsRateIsMeasuredOverTheWindow() {
        var g = guard(1_000_000, 1_000_000);
        // The burst at once, the 11th 5 ms later (half a token refilled): 11 in 5 ms is 2,200/s.
        assertEquals(10, passes(g, 1, 10, now));
        var b = assertInstanceOf(Block.class, g.admit(1, now + 5 * MS));
        assertEquals(2200, b.rate());
    }

    @Test
    void aLinkPortIsNeverBlockedByItsOwnBudget() {
        var g = guard(1000, 50);
        assertEquals(50, passes(g, 9, 50, now), "only the switch budget applies");
        assertEquals(Admit.DROP, g.admit(9, now), "over the switch budget; the link port is the busiest, not blocked");
        assertEquals(Admit.DROP, g.admit(9, now));
        assertEquals(0, counters.snapshot().ports().get(0).dropFlows());
    }

    @Test
    void anEmptySwitchBucketBlocksTheBusiestPortNotTheSender() {
        var g = guard(1, 30); // no switch token comes back within the test
        assertEquals(10, passes(g, 1, 10, now));
        assertEquals(9, passes(g, 2, 9, now));
        assertEquals(9, passes(g, 3, 9, now));
        // Port 1 is over its own budget: blocked by it.
        assertEquals(Cause.PORT, assertInstanceOf(Block.class, g.admit(1, now)).cause());
        // Ports 2 (9 sent, 1 more now) and 3 (9 sent) share what is left of the switch's 30.
        assertEquals(Admit.PASS, g.admit(2, now));
        assertEquals(Admit.PASS, g.admit(3, now));
        var v = assertInstanceOf(Block.class, g.admit(3, now), "the switch budget is spent");
        assertEquals(Cause.SWITCH, v.cause());
        assertEquals(3, v.port(), "port 3 sent 11 (this one included), port 2 10, port 1 is blocked already");
        assertEquals(Admit.DROP, g.admit(2, now), "the next choice waits for the drop flow to work");
        var b = assertInstanceOf(Block.class, g.admit(2, now + SwitchGuard.CHOICE_NANOS));
        assertEquals(2, b.port());
        assertEquals(Cause.SWITCH, b.cause());
        var c = counters.snapshot().ports();
        assertEquals(java.util.List.of(1, 2, 3), c.stream().map(p -> p.port()).toList());
        assertEquals(2, c.get(1).droppedBySwitch());
        assertEquals(1, c.get(2).droppedBySwitch());
        assertEquals(0, c.get(0).droppedBySwitch());
    }

    @Test
    void aDroppedPacketGivesItsSwitchTokenBack() {
        var g = guard(1000, 20);
        assertEquals(10, passes(g, 1, 10, now));
        assertInstanceOf(Block.class, g.admit(1, now));
        assertEquals(10, g.switchTokens(now), "the blocked port's excess took no switch token");
        assertEquals(10, passes(g, 2, 10, now));
        assertEquals(0, g.portTokens(2, now));
        assertEquals(10, g.portTokens(5, now), "a port that sent nothing has a full bucket");
    }
}
