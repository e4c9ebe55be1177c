package net.beaconcontroller.core.internal;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.connections.HeldConnection;
import net.beaconcontroller.connections.IConnectionHolder;

/**
 * A switch connection carried from a core that stops to the next one through {@link IConnectionHolder}, so that an
 * update of the core is not seen by the switches. Only an active connection goes, or one taken over that is not
 * active again yet. What crosses is the socket, the bytes in flight and, over TLS, the session's engine (its keys and
 * record sequence numbers) with its records in flight; the next core asks the switch again for its features,
 * description and role ({@link Handshake#resume}), and messages that arrive meanwhile wait, to be handled in order
 * once it is active. On the connection's I/O thread.
 */
final class HandOver {
    private static final Logger log = LoggerFactory.getLogger(HandOver.class);

    private HandOver() {
    }

    /**
     * Hands {@code conn} to {@code holder}, ending it here without closing its socket.
     *
     * @return false when it cannot go (not active, failed output, a TLS session closing, holding off): the caller closes
     *         it as usual
     */
    static boolean deposit(SwitchConnection conn, IConnectionHolder holder) {
        // One taken over a moment ago and still asking the switch again (an update then at once a refresh) goes on as
        // well, with the messages it kept meanwhile ahead of its unread bytes: closing it would make the switch
        // reconnect.
        boolean resuming = conn.handshake().resuming();
        if (!conn.isActive() && !resuming) {
            return false;
        }
        // First the output: over TLS what the socket does not take is then in the session's unsent records.
        var unsent = conn.output().takeUnsent();
        if (unsent == null) {
            return false;
        }
        var transport = conn.transport();
        HeldConnection.Tls tls = null;
        if (transport instanceof TlsTransport t) {
            var session = t.handOver();
            if (session.isEmpty()) {
                return false;
            }
            tls = session.get();
        }
        var unread = resuming ? concat(conn.handshake().earlyBytes(), conn.input().unread()) : conn.input().unread();
        var switchId = resuming ? conn.handshake().adoptedAs() : conn.getStringId();
        var held = new HeldConnection(transport.channel(), switchId, tls, unread, unsent, conn.nextXid(), Instant.now());
        if (!holder.deposit(held)) {
            return false;
        }
        conn.close("handed to the next core", true);
        return true;
    }

    private static ByteBuffer concat(ByteBuffer first, ByteBuffer then) {
        return ByteBuffer.allocate(first.remaining() + then.remaining()).put(first).put(then).flip();
    }

    /** Takes up {@code held} on a new connection of this core; {@code conn} was made on its socket. */
    static void resume(SwitchConnection conn, HeldConnection held) {
        conn.continueXids(held.nextXid());
        conn.input().prefill(held.unread());
        var unsent = new byte[held.unsent().remaining()];
        held.unsent().duplicate().get(unsent);
        if (unsent.length > 0) {
            conn.output().put(unsent);
        }
        log.info("switch {}: connection taken over from the previous core after {} ms", held.switchId(),
                Duration.between(held.heldSince(), Instant.now()).toMillis());
        conn.handshake().resume(held.switchId());
        conn.flushNow();
    }
}
