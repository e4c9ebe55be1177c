package net.beaconcontroller.core.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Optional;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.security.auth.x500.X500Principal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.connections.HeldConnection;

/**
 * OpenFlow over TLS, as Open vSwitch's {@code ssl:} controller targets speak it: an {@link SSLEngine} between the
 * connection's plain buffers and the socket, driven only by the connection's reads and flushes on its I/O thread. The
 * handshake advances with each read (its delegated tasks run inline: no thread of its own); what the connection
 * writes meanwhile is held and leaves once the handshake is done. A TLS failure (an untrusted certificate, plaintext
 * on the port) throws an {@link SSLException} naming the peer and the problem, and the connection closes; the other
 * connections on the loop never notice.
 */
final class TlsTransport implements Transport {
    private static final Logger log = LoggerFactory.getLogger(TlsTransport.class);
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
    /** Records per socket read or write: a batch of OpenFlow messages still costs one system call, as over TCP. */
    private static final int RECORDS_PER_BUFFER = 4;

    private final SocketChannel channel;
    private final SSLEngine engine;
    private final String peer;
    /** Which DPIDs each switch certificate may claim; null: any. */
    private final SwitchCertificates identities;
    /** The switch certificate's subject, once the handshake has verified it. */
    private X500Principal subject;
    /** Bytes read from the socket and not unwrapped yet (a partial record waits here); fill mode. */
    private ByteBuffer netIn;
    /** Records wrapped and not sent yet; fill mode. */
    private ByteBuffer netOut;
    private boolean handshakeDone;
    /** The handshake finished and the output held back during it has not been flushed since. */
    private boolean released;
    /** The switch sent close_notify: nothing more comes. */
    private boolean inboundDone;
    /** The last read stopped because the reader's buffer was full, with whole records still in {@link #netIn}. */
    private boolean unwrapPending;

    TlsTransport(SocketChannel channel, SSLEngine engine, String peer, SwitchCertificates identities)
            throws SSLException {
        this.channel = channel;
        this.engine = engine;
        this.peer = peer;
        this.identities = identities;
        int packet = engine.getSession().getPacketBufferSize();
        netIn = ByteBuffer.allocateDirect(packet * RECORDS_PER_BUFFER);
        netOut = ByteBuffer.allocateDirect(packet * RECORDS_PER_BUFFER);
        engine.beginHandshake();
    }

    /** Goes on with a session another core began ({@link HandOver}): no handshake, the same keys and sequence. */
    static TlsTransport resumed(SocketChannel channel, HeldConnection.Tls held, String peer,
            SwitchCertificates identities) throws SSLException {
        var t = new TlsTransport(channel, held.engine(), peer, identities, held);
        t.handshakeDone = true;
        try {
            t.subject = (X500Principal) held.engine().getSession().getPeerPrincipal();
        } catch (SSLPeerUnverifiedException e) {
            throw new SSLException("the TLS session handed over has no verified switch certificate", e);
        }
        return t;
    }

    private TlsTransport(SocketChannel channel, SSLEngine engine, String peer, SwitchCertificates identities,
            HeldConnection.Tls held) {
        this.channel = channel;
        this.engine = engine;
        this.peer = peer;
        this.identities = identities;
        int packet = engine.getSession().getPacketBufferSize();
        netIn = filled(packet * RECORDS_PER_BUFFER, held.unreadRecords());
        netOut = filled(packet * RECORDS_PER_BUFFER, held.unsentRecords());
    }

    private static ByteBuffer filled(int capacity, ByteBuffer bytes) {
        return ByteBuffer.allocateDirect(Math.max(capacity, bytes.remaining() * 2)).put(bytes.duplicate());
    }

    /**
     * The session for the next core, or empty when it cannot go on elsewhere (its handshake not finished, or closing).
     * The connection must not use this transport afterwards.
     */
    Optional<HeldConnection.Tls> handOver() {
        if (!handshakeDone || inboundDone || engine.isOutboundDone()) {
            return Optional.empty();
        }
        return Optional.of(new HeldConnection.Tls(engine, copy(netIn), copy(netOut)));
    }

    private static ByteBuffer copy(ByteBuffer fillMode) {
        var content = fillMode.duplicate().flip();
        return ByteBuffer.allocate(content.remaining()).put(content).flip();
    }

    @Override
    public SocketChannel channel() {
        return channel;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (inboundDone) {
            return -1;
        }
        int before = dst.position();
        int n = netIn.hasRemaining() ? channel.read(netIn) : 0;
        try {
            unwrapAll(dst);
        } catch (SSLException e) {
            throw failed(e);
        }
        int produced = dst.position() - before;
        // A peer that closes without close_notify has closed all the same: its last records were handed on above.
        return produced == 0 && (inboundDone || n < 0) ? -1 : produced;
    }

    /**
     * Unwraps the complete records read so far into {@code dst} and advances the handshake; stops at a partial record
     * or when {@code dst} has no room for another record (the rest is {@link #hasBufferedInput buffered}). The
     * connection's read buffer always has room for a record after it was compacted (see {@link Inbound}).
     */
    private void unwrapAll(ByteBuffer dst) throws IOException {
        unwrapPending = false;
        while (true) {
            netIn.flip();
            SSLEngineResult r;
            try {
                r = engine.unwrap(netIn, dst);
            } finally {
                netIn.compact();
            }
            switch (r.getStatus()) {
                case BUFFER_UNDERFLOW -> {
                    if (!netIn.hasRemaining()) {
                        // A record larger than the buffer (a peer that negotiated bigger records): make room for it.
                        netIn = grown(netIn, engine.getSession().getPacketBufferSize());
                    }
                    return;
                }
                case BUFFER_OVERFLOW -> {
                    unwrapPending = true;
                    return;
                }
                case CLOSED -> {
                    inboundDone = true;
                    advance(r.getHandshakeStatus()); // the engine answers close_notify with its own
                    return;
                }
                case OK -> { }
            }
            if (!advance(r.getHandshakeStatus()) && r.bytesConsumed() == 0) {
                return;
            }
        }
    }

    /**
     * Does what the handshake asks for: runs its tasks here, on the I/O thread (key exchange and certificate checks
     * take a millisecond or two, once per connection), and sends its messages.
     *
     * @return whether the handshake wants another unwrap
     */
    private boolean advance(HandshakeStatus status) throws IOException {
        var hs = status;
        while (true) {
            switch (hs) {
                case NEED_TASK -> {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                    hs = engine.getHandshakeStatus();
                }
                case NEED_WRAP -> hs = wrapHandshake();
                case FINISHED -> {
                    finished();
                    return true;
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    return !inboundDone;
                }
                default -> {
                    return false;
                }
            }
        }
    }

    /** Wraps the handshake's next message and sends it; what the socket does not take waits for the next flush. */
    private HandshakeStatus wrapHandshake() throws IOException {
        while (true) {
            var r = engine.wrap(EMPTY, netOut);
            if (r.getStatus() != SSLEngineResult.Status.BUFFER_OVERFLOW) {
                send();
                return r.getHandshakeStatus();
            }
            if (!send()) {
                netOut = grown(netOut, engine.getSession().getPacketBufferSize());
            }
        }
    }

    private void finished() {
        handshakeDone = true;
        released = true;
        var session = engine.getSession();
        String named;
        try {
            // X.509 certificates, the only kind the trust manager accepts, name an X500Principal.
            subject = (X500Principal) session.getPeerPrincipal();
            named = subject.getName();
        } catch (SSLPeerUnverifiedException e) {
            // Cannot happen with client authentication required; say so rather than hide it.
            named = "no verified certificate (" + e.getMessage() + ")";
        }
        log.info("TLS from {}: {} {}, switch certificate '{}'", peer, session.getProtocol(), session.getCipherSuite(),
                named);
    }

    @Override
    public Optional<String> claimRefusal(long dpid) {
        if (identities == null) {
            return Optional.empty();
        }
        return subject == null ? Optional.of("its TLS handshake named no verified certificate")
                : identities.refusal(subject, dpid);
    }

    @Override
    public Sent write(ByteBuffer src) throws IOException {
        if (!send()) {
            return Sent.SOCKET_FULL;
        }
        if (!handshakeDone) {
            return src.hasRemaining() ? Sent.HELD : Sent.ALL;
        }
        released = false;
        try {
            while (src.hasRemaining()) {
                var r = engine.wrap(src, netOut);
                if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                    throw new SSLException("the TLS session is closed");
                }
                if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                    if (netOut.position() == 0) {
                        netOut = grown(netOut, engine.getSession().getPacketBufferSize());
                    } else if (!send()) {
                        return Sent.SOCKET_FULL;
                    }
                }
            }
        } catch (SSLException e) {
            throw failed(e);
        }
        return send() ? Sent.ALL : Sent.SOCKET_FULL;
    }

    /** Sends the wrapped records the socket takes now; returns whether none is left. */
    private boolean send() throws IOException {
        if (netOut.position() == 0) {
            return true;
        }
        netOut.flip();
        try {
            channel.write(netOut);
        } finally {
            netOut.compact();
        }
        return netOut.position() == 0;
    }

    @Override
    public boolean wantsFlush() {
        return released || netOut.position() > 0;
    }

    @Override
    public boolean hasBufferedInput() {
        return unwrapPending && !inboundDone;
    }

    /**
     * Sends close_notify when it can (the switch then knows the close was meant, not a cut connection), then closes
     * the socket.
     */
    @Override
    public void close() throws IOException {
        try {
            if (channel.isOpen() && !engine.isOutboundDone()) {
                engine.closeOutbound();
                engine.wrap(EMPTY, netOut);
                send();
            }
        } finally {
            channel.close();
        }
    }

    /**
     * The failure, named for the log: the peer and the engine's reason (for a certificate, {@link TlsContext}'s trust
     * check names it), logged here. The engine's alert then goes to the peer when the socket takes it, so that the
     * switch's log says why too.
     */
    private SSLException failed(SSLException e) {
        String what = handshakeDone ? "TLS with " : "TLS handshake with ";
        log.warn("{}{} failed: {}", what, peer, e.getMessage());
        try {
            engine.wrap(EMPTY, netOut);
            send();
        } catch (IOException alertFailure) {
            e.addSuppressed(alertFailure);
        }
        return new SSLException(what + peer + " failed: " + e.getMessage(), e);
    }

    private static ByteBuffer grown(ByteBuffer buf, int atLeast) {
        var bigger = ByteBuffer.allocateDirect(Math.max(buf.capacity() * 2, buf.capacity() + atLeast));
        buf.flip();
        bigger.put(buf);
        return bigger;
    }
}
