package net.beaconcontroller.staticflowpusher.internal;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * How often a switch's static flows were written again after something deleted them: at most {@link #LIMIT} times a
 * flow within {@link #WINDOW_NANOS}, so that the pusher does not fight another controller or tool that keeps deleting
 * it. A flow deleted once more is left off the switch (said once) until reconciliation writes it again: the switch
 * reconnects, or this controller becomes its master again. Per switch connection, on its I/O thread (a
 * {@code SwitchLocal}).
 */
final class Restores {
    static final int LIMIT = 5;
    static final long WINDOW_NANOS = 10_000_000_000L;

    /** Per flow name, the times of its recent restores, oldest first. */
    private final Map<String, ArrayDeque<Long>> recent = new HashMap<>();
    /** Flows left off the switch since their last deletion; each is told once. */
    private final Set<String> givenUp = new HashSet<>();

    enum Verdict { RESTORE, GIVE_UP, GIVEN_UP }

    Verdict deleted(String name, long now) {
        var times = recent.computeIfAbsent(name, n -> new ArrayDeque<>());
        while (!times.isEmpty() && now - times.peekFirst() > WINDOW_NANOS) {
            times.pollFirst();
        }
        if (times.size() >= LIMIT) {
            return givenUp.add(name) ? Verdict.GIVE_UP : Verdict.GIVEN_UP;
        }
        times.addLast(now);
        givenUp.remove(name);
        return Verdict.RESTORE;
    }
}
