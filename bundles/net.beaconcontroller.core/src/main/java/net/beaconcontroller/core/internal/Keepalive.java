package net.beaconcontroller.core.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A switch connection's liveness: idle for the echo interval, the switch is sent an ECHO_REQUEST; silent for the echo
 * timeout (or still in its handshake that long after connecting), it is disconnected. Any message counts as a sign of
 * life, for the keepalive as for a liveness probe ({@link #probe}). Confined to the connection's I/O thread, on the
 * loop's clock.
 */
final class Keepalive {
    /** What the connection has to do after a check. */
    enum Due { NOTHING, ECHO, HANDSHAKE_TOO_LONG, SILENT_TOO_LONG }

    private final long connectedNanos;
    private final int timeoutSeconds;
    private final long intervalNanos;
    private final long timeoutNanos;
    private long lastReceived;
    private boolean echoOutstanding;
    /** A liveness probe in progress (see {@link #probe}), or null. */
    private CompletableFuture<Boolean> probe;
    private long probeDeadline;

    Keepalive(long now, int intervalSeconds, int timeoutSeconds) {
        this.connectedNanos = now;
        this.lastReceived = now;
        this.timeoutSeconds = timeoutSeconds;
        this.intervalNanos = TimeUnit.SECONDS.toNanos(intervalSeconds);
        this.timeoutNanos = TimeUnit.SECONDS.toNanos(timeoutSeconds);
    }

    /** Bytes arrived from the switch. */
    void received(long now) {
        lastReceived = now;
        echoOutstanding = false;
        endProbe(true);
    }

    /** The liveness probe in progress, or null. */
    CompletableFuture<Boolean> probe() {
        return probe;
    }

    /**
     * Starts a liveness probe: it completes with true as soon as anything arrives from the switch, with false when
     * nothing did by {@code now + windowNanos} (at the first {@link #check} after it) or when the connection closes
     * ({@link #stop}). Whatever arrives counts, an error as much as an echo reply: a switch busy with a burst answers
     * the burst first, and an error is as much a sign of life as any reply.
     */
    CompletableFuture<Boolean> startProbe(long now, long windowNanos) {
        endProbe(false);
        probe = new CompletableFuture<>();
        probeDeadline = now + windowNanos;
        return probe;
    }

    /** The connection closed: a probe in progress ends without a sign of life. */
    void stop() {
        endProbe(false);
    }

    private void endProbe(boolean alive) {
        if (probe != null) {
            var p = probe;
            probe = null;
            p.complete(alive);
        }
    }

    /** Whether the switch is to get an echo request or be closed now; an echo is asked for once per silence. */
    Due check(long now, boolean handshaking) {
        if (probe != null && now - probeDeadline > 0) {
            endProbe(false);
        }
        if (handshaking && now - connectedNanos > timeoutNanos) {
            return Due.HANDSHAKE_TOO_LONG;
        }
        long idle = now - lastReceived;
        if (idle > timeoutNanos) {
            return Due.SILENT_TOO_LONG;
        }
        if (idle > intervalNanos && !echoOutstanding) {
            echoOutstanding = true;
            return Due.ECHO;
        }
        return Due.NOTHING;
    }

    /** When the handshake must be over, on the loop's clock: it bounds the handshake's requests too. */
    long handshakeDeadline() {
        return connectedNanos + timeoutNanos;
    }

    int timeoutSeconds() {
        return timeoutSeconds;
    }

    long timeoutNanos() {
        return timeoutNanos;
    }

    long idleSeconds(long now) {
        return TimeUnit.NANOSECONDS.toSeconds(now - lastReceived);
    }
}
