package net.beaconcontroller.core.internal;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * How a switch connection's bytes cross the network, non-blocking, on the connection's I/O thread. The connection
 * reads OpenFlow messages from and writes them to plain buffers; whatever the transport does to the bytes on the way
 * (nothing for TCP; records and a handshake of its own for TLS) stays behind these calls.
 */
sealed interface Transport permits PlainTransport {
    /**
     * Reads what has arrived into {@code dst}.
     *
     * @return the bytes added to {@code dst} (possibly 0), or -1 once the peer has closed
     */
    int read(ByteBuffer dst) throws IOException;

    /**
     * Sends from {@code src} what the network takes now; the rest stays in {@code src}.
     *
     * @return whether nothing is left to send, {@code src} and the transport's own bytes alike
     */
    boolean write(ByteBuffer src) throws IOException;

    void close() throws IOException;
}
