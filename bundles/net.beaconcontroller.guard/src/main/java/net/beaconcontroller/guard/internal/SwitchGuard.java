package net.beaconcontroller.guard.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * One switch's budgets: a token bucket for the switch and one per in_port, and what each port sent in the current
 * and the previous one-second window (to name the port that sends the most, and its rate in the log line).
 *
 * <p>A PACKET_IN costs a token of the switch and one of its port. With the switch's bucket empty it is dropped here,
 * and the port that sent the most of the window (if it is not an inter-switch link) is blocked; with only its port's
 * bucket empty it is dropped and its port blocked, unless the port ends an inter-switch link: there only the switch
 * budget applies (that traffic is other switches' hosts' flooding, already guarded at their own edge). A blocked
 * port's PACKET_INs that still arrive (sent before the drop flow took effect) are dropped without taking tokens.
 *
 * <p>Confined to the switch's I/O thread (a {@code SwitchLocal}): no locks. Times are {@link System#nanoTime} values.
 */
final class SwitchGuard {
    static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(1);
    /**
     * How often an empty switch bucket may block another port. The drop flow needs a round trip to take effect and
     * the PACKET_INs already on their way keep coming meanwhile: without this, each of them would block the next
     * port in line.
     */
    static final long CHOICE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** How long a port is taken to stay a link port (or not): a lookup in the topology per PACKET_IN would cost. */
    static final long LINK_CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);
    /**
     * A port not blocked for this long after its last block ended is out of its episode: its next block is logged.
     * Not just the drop time: a port sending a little over its budget empties its refilled bucket only after
     * {@code burst / (its rate - budget)} seconds, and each of its blocks would be a line of its own.
     */
    static final long EPISODE_GAP_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final long MIN_RATE_SPAN_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** What to do with one PACKET_IN. */
    sealed interface Verdict permits Admit, Block { }

    /** Let it on through the pipeline, or drop it with nothing more to do. */
    enum Admit implements Verdict { PASS, DROP }

    /**
     * Drop it and block {@code port} (which may be another port than the PACKET_IN's) for the drop time.
     *
     * @param rate         the blocked port's PACKET_INs per second over the last one to two seconds
     * @param episodeStart whether this starts a guard episode (logged) rather than renewing one
     */
    record Block(int port, Cause cause, long rate, boolean episodeStart) implements Verdict { }

    /** Which budget ran out. */
    enum Cause { PORT, SWITCH }

    private static final class Port {
        final int number;
        final TokenBucket bucket;
        /** Made when the port first goes over a budget, so that /metrics lists only such ports. */
        PortCounters counters;
        long count;
        long last;
        boolean dropping;
        long dropUntil;
        boolean inEpisode;
        long episodeUntil;
        boolean linkChecked;
        boolean link;
        long linkCheckedAt;

        Port(int number, TokenBucket bucket) {
            this.number = number;
            this.bucket = bucket;
        }

        boolean droppingAt(long now) {
            if (dropping && now - dropUntil >= 0) {
                dropping = false;
            }
            return dropping;
        }
    }

    private final Budgets budgets;
    private final IntPredicate isLinkPort;
    private final IntFunction<PortCounters> counters;
    private final TokenBucket switchBucket;
    private final Map<Integer, Port> ports = new HashMap<>();
    private long windowStart;
    private long previousStart;
    private long nextChoice;

    /**
     * @param isLinkPort whether a port ends an inter-switch link now (asked at most once a second per port)
     * @param counters   a port's counters, shared with /metrics
     */
    SwitchGuard(Budgets budgets, IntPredicate isLinkPort, IntFunction<PortCounters> counters, long now) {
        this.budgets = budgets;
        this.isLinkPort = isLinkPort;
        this.counters = counters;
        switchBucket = budgets.switchBucket(now);
        windowStart = now;
        previousStart = now;
        nextChoice = now;
    }

    /** Judges one PACKET_IN that came in on {@code inPort} at {@code now}. */
    Verdict admit(int inPort, long now) {
        roll(now);
        var p = ports.get(inPort);
        if (p == null) {
            p = new Port(inPort, budgets.portBucket(now));
            ports.put(inPort, p);
        }
        p.count++;
        if (p.droppingAt(now)) {
            counters(p).droppedByPort.increment();
            return Admit.DROP;
        }
        if (!switchBucket.tryTake(now)) {
            counters(p).droppedBySwitch.increment();
            return blockTop(now);
        }
        if (p.bucket.tryTake(now) || isLink(p, now)) {
            return Admit.PASS;
        }
        switchBucket.giveBack();
        counters(p).droppedByPort.increment();
        return block(p, Cause.PORT, now);
    }

    /** Tokens left in the switch's bucket and in a port's (the port's full bucket if it sent nothing yet). */
    long switchTokens(long now) {
        return switchBucket.tokens(now);
    }

    long portTokens(int port, long now) {
        var p = ports.get(port);
        return p == null ? budgets.settings().portBurst() : p.bucket.tokens(now);
    }

    /** The switch is over its budget: the port that sent the most this window and is not blocked yet goes. */
    private Verdict blockTop(long now) {
        if (now - nextChoice < 0) {
            return Admit.DROP;
        }
        nextChoice = now + CHOICE_NANOS;
        Port top = null;
        for (var p : ports.values()) {
            if (!p.droppingAt(now) && (top == null || p.last + p.count > top.last + top.count)) {
                top = p;
            }
        }
        return top == null || isLink(top, now) ? Admit.DROP : block(top, Cause.SWITCH, now);
    }

    private Block block(Port p, Cause cause, long now) {
        p.dropping = true;
        p.dropUntil = now + budgets.dropNanos();
        boolean start = !p.inEpisode || now - p.episodeUntil > 0;
        if (start) {
            counters(p).episodes.increment();
        }
        p.inEpisode = true;
        p.episodeUntil = p.dropUntil + EPISODE_GAP_NANOS;
        counters(p).dropFlows.increment();
        long span = Math.max(MIN_RATE_SPAN_NANOS, now - previousStart);
        return new Block(p.number, cause, (p.last + p.count) * 1_000_000_000L / span, start);
    }

    private PortCounters counters(Port p) {
        if (p.counters == null) {
            p.counters = counters.apply(p.number);
        }
        return p.counters;
    }

    private boolean isLink(Port p, long now) {
        if (!p.linkChecked || now - p.linkCheckedAt >= LINK_CHECK_NANOS) {
            p.link = isLinkPort.test(p.number);
            p.linkChecked = true;
            p.linkCheckedAt = now;
        }
        return p.link;
    }

    /** Starts a new window once the current one is a second old; the previous one's counts count if it was adjacent. */
    private void roll(long now) {
        long age = now - windowStart;
        if (age < WINDOW_NANOS) {
            return;
        }
        boolean adjacent = age < 2 * WINDOW_NANOS;
        for (var p : ports.values()) {
            p.last = adjacent ? p.count : 0;
            p.count = 0;
        }
        previousStart = adjacent ? windowStart : now;
        windowStart = now;
    }
}
