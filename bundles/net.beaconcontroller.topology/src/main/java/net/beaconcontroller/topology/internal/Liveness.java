package net.beaconcontroller.topology.internal;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAccumulator;

import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * Whether a link's probes stopped coming back, judged on the probes rather than on the clock alone. The link timeout
 * says how long a link may go unseen; but a probe that was never sent (the controller was busy) or is still queued
 * behind other PACKET_INs proves nothing about the cable. At 500 emulated switches on two cores, a liveness round's
 * probes came back later than the 2.5 s timeout, and whole batches of links that were there expired and came back
 * (docs/topology.md, "At scale"). So a link the controller probes times out only once two probes sent across it after
 * the last one that came back have each had the round trip to come back: the slowest round trip of the last seconds,
 * twice, and never less than a floor. Times are the probes' own clock (the cluster's time in a cluster).
 *
 * <p>A link whose source port this member has not probed lately (another member masters the switch, or the rounds
 * stopped) has no evidence here: the clock decides, as before.
 */
final class Liveness {
    /** How many expiry ticks the slowest round trip is remembered for. */
    private static final int WINDOWS = 32;

    /** How many of a port's last probes are remembered. */
    private static final int SENDS = 8;

    /** The send times of a port's last probes, oldest first (at most {@link #SENDS}). */
    private record Sent(long[] times) {
        long latest() {
            return times[times.length - 1];
        }

        boolean after(long at) {
            return Arrays.stream(times).anyMatch(t -> t - at > 0);
        }

        Sent plus(long at) {
            var next = Arrays.copyOfRange(times, Math.max(0, times.length + 1 - SENDS), times.length + 1);
            next[next.length - 1] = at;
            return new Sent(next);
        }
    }

    private final long floorNanos;
    private final long capNanos;
    private final long staleNanos;
    /** Per port, written on its switch's I/O thread; dropped by the expiry task (see {@link #tick}, {@link #forget}). */
    private final Map<SwitchPort, Sent> sent = new ConcurrentHashMap<>();
    /** Per link, the send time of the newest probe that came back across it; written on the receiving switch's thread. */
    private final Map<Link, Long> acked = new ConcurrentHashMap<>();
    private final LongAccumulator slowest = new LongAccumulator(Math::max, 0);
    /** The expiry task's own: the slowest round trip of each recent tick, and where the next one goes. */
    private final long[] windows = new long[WINDOWS];
    private int next;

    /**
     * @param floorNanos the least a probe is given to come back
     * @param capNanos   the most: one late probe must not keep every link of the network for long
     * @param staleNanos a source port probed longer ago than this gives no evidence
     */
    Liveness(long floorNanos, long capNanos, long staleNanos) {
        this.floorNanos = floorNanos;
        this.capNanos = capNanos;
        this.staleNanos = staleNanos;
    }

    /** A probe left {@code port} at {@code at}. On the switch's I/O thread. */
    void sent(SwitchPort port, long at) {
        sent.compute(port, (p, s) -> s == null ? new Sent(new long[] {at}) : s.plus(at));
    }

    /** A probe sent at {@code sentAt} came back across {@code link} at {@code now}. On the receiving switch's thread. */
    void cameBack(Link link, long sentAt, long now) {
        acked.merge(link, sentAt, Math::max);
        slowest.accumulate(now - sentAt);
    }

    /**
     * The expiry task, once per run: the round trips seen since the last run join the window; ports no longer probed
     * and links no longer known are forgotten.
     */
    void tick(long now, Set<Link> links) {
        windows[next] = slowest.getThenReset();
        next = (next + 1) % WINDOWS;
        // A send or an answer ahead of the clock means the clock went back (a cluster's time after a merge): against
        // it, the next probes would seem neither late nor newer than the last answer, and a dead link would stay.
        sent.values().removeIf(s -> now - s.latest() > staleNanos || s.after(now + floorNanos));
        acked.values().removeIf(back -> back - now > floorNanos);
        acked.keySet().retainAll(links);
    }

    /**
     * This member stopped probing switch {@code dpid} (another masters it now): its probes here say nothing of the
     * switch's links any more. The expiry task's.
     */
    void forget(long dpid) {
        sent.keySet().removeIf(p -> p.dpid() == dpid);
    }

    /** How long a probe is given to come back now. The expiry task's. */
    long graceNanos() {
        long max = 0;
        for (long w : windows) {
            max = Math.max(max, w);
        }
        return Math.min(Math.max(floorNanos, 2 * max), capNanos);
    }

    /**
     * Whether {@code link}'s probes stopped coming back by {@code now}: the second probe sent after the last that came
     * back was sent longer ago than the grace (measured from it, not from the newest probe: ports are probed more
     * often than the grace may be long). True (the clock decides) when its source port gave no recent evidence.
     */
    boolean lost(Link link, long now, long grace) {
        var s = sent.get(link.src());
        if (s == null || now - s.latest() > staleNanos) {
            return true;
        }
        long back = acked.getOrDefault(link, Long.MIN_VALUE);
        int after = 0;
        for (long t : s.times()) {
            if (back == Long.MIN_VALUE || t - back > 0) {
                if (++after == 2) {
                    return now - t > grace;
                }
            }
        }
        return false;
    }
}
