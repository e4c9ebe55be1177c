package net.beaconcontroller.core.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Optional;

/**
 * How a switch connection's bytes cross the network, non-blocking, on the connection's I/O thread. The connection
 * reads OpenFlow messages from and writes them to plain buffers; whatever the transport does to the bytes on the way
 * (nothing for TCP; records and a handshake of its own for TLS) stays behind these calls.
 */
sealed interface Transport permits PlainTransport, TlsTransport {
    /** What a {@link #write} left behind. */
    enum Sent {
        /** Nothing: {@code src} and the transport's own bytes are all on the network. */
        ALL,
        /** The socket takes no more now: write again once it is writable (OP_WRITE). */
        SOCKET_FULL,
        /**
         * The transport holds {@code src} back until its own handshake is done; no OP_WRITE, or the loop would spin on
         * a writable socket. {@link #wantsFlush} says when it can go.
         */
        HELD
    }

    /**
     * Reads what has arrived into {@code dst}.
     *
     * @return the bytes added to {@code dst} (possibly 0), or -1 once the peer has closed
     */
    int read(ByteBuffer dst) throws IOException;

    /** Sends from {@code src} what the network takes now; the rest stays in {@code src}. */
    Sent write(ByteBuffer src) throws IOException;

    /**
     * Whether the connection should flush even with nothing of its own queued, or flush what the transport held
     * back: the transport has bytes of its own to send (a handshake message the socket did not take) or its
     * handshake just finished.
     */
    boolean wantsFlush();

    /**
     * Whether bytes already taken from the socket wait to be read: the selector will not report them, so the reader
     * reads again before it returns to the loop.
     */
    boolean hasBufferedInput();

    /**
     * Why the peer may not claim {@code dpid} (a TLS switch certificate bound to other DPIDs, see
     * {@link SwitchCertificates}); empty when it may, as over plain TCP, where nothing proves who the peer is.
     */
    default Optional<String> claimRefusal(long dpid) {
        return Optional.empty();
    }

    /** The socket, for a hand-over to the next core ({@link HandOver}). */
    SocketChannel channel();

    void close() throws IOException;
}
