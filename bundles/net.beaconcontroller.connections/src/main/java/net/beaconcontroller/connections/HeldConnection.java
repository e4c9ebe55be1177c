package net.beaconcontroller.connections;

import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Instant;
import java.util.Objects;

import javax.net.ssl.SSLEngine;

/**
 * An active switch connection between two cores: only what OpenFlow itself does not let the next core ask for again.
 * Its types are the JDK's, as the core that deposits it and the core that takes it load their classes separately.
 *
 * @param channel  the switch's socket, open, non-blocking
 * @param switchId the switch's DPID as the core writes it (for log lines; the next core asks the switch again)
 * @param tls      the TLS session the connection runs, or null over plain TCP
 * @param unread   bytes the core had read from the socket but not yet handled: the start of a message (read-only)
 * @param unsent   bytes the core had written but the socket had not taken yet (read-only)
 * @param nextXid  the transaction id the next request takes, so that a late reply to a request of the old core
 *                 cannot be taken for the answer to a request of the new one
 * @param heldSince when the core let go of it
 */
public record HeldConnection(SocketChannel channel, String switchId, Tls tls, ByteBuffer unread, ByteBuffer unsent,
        int nextXid, Instant heldSince) {
    /**
     * A TLS session past its handshake: the engine holds its keys and record sequence numbers, so the next core goes on
     * with the same session and the switch sees nothing.
     *
     * @param engine        the session's engine
     * @param unreadRecords bytes read from the socket and not yet unwrapped (read-only)
     * @param unsentRecords records wrapped and not yet taken by the socket: they go before anything else (read-only)
     */
    public record Tls(SSLEngine engine, ByteBuffer unreadRecords, ByteBuffer unsentRecords) {
        public Tls {
            Objects.requireNonNull(engine, "engine");
            unreadRecords = unreadRecords.asReadOnlyBuffer();
            unsentRecords = unsentRecords.asReadOnlyBuffer();
        }
    }

    public HeldConnection {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(switchId, "switchId");
        unread = unread.asReadOnlyBuffer();
        unsent = unsent.asReadOnlyBuffer();
        Objects.requireNonNull(heldSince, "heldSince");
    }
}
