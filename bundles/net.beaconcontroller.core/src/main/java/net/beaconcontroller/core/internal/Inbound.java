package net.beaconcontroller.core.internal;

import java.io.IOException;
import java.nio.ByteBuffer;

import javax.net.ssl.SSLException;

import net.beaconcontroller.openflow.OFEchoReply;
import net.beaconcontroller.openflow.OFEchoRequest;
import net.beaconcontroller.openflow.OFHello;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFMessageReader;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.OFPortStatus;
import net.beaconcontroller.openflow.OFType;

/**
 * What a switch sends: one large direct buffer that a read fills with hundreds of messages under load, parsed in place
 * (a PACKET_IN's frame is a view of it, valid while its message is handled), the PACKET_INs of the next batch shown
 * to the prefetching listeners before they are handled, and each message taken to the handshake, the request waiting
 * for it or the listeners. Confined to the connection's I/O thread.
 */
final class Inbound {
    /** Big enough for the largest OpenFlow message (64 KiB) plus a batch of small ones. */
    private static final int READ_BUFFER_SIZE = 128 * 1024;
    /**
     * How many messages ahead of the one being handled the PACKET_IN prefetchers see: enough for the loads of one
     * batch to overlap (measured with the MAC table: 8 ahead saves a quarter of the stall, 32 and 128 about 40 %).
     */
    static final int PREFETCH_AHEAD = 32;
    private static final byte PACKET_IN_TYPE = (byte) OFType.PACKET_IN.value();

    private final SwitchConnection sw;
    private final Controller controller;
    private final IOLoop loop;
    private final RequestTracker requests;
    private final ByteBuffer readBuf = ByteBuffer.allocateDirect(READ_BUFFER_SIZE);
    // Written only by the loop thread; others read it for the console, where a slightly stale count is fine.
    private long messages;

    Inbound(SwitchConnection sw, Controller controller, IOLoop loop, RequestTracker requests) {
        this.sw = sw;
        this.controller = controller;
        this.loop = loop;
        this.requests = requests;
    }

    /**
     * Reads what arrived and hands every complete message to the connection, in order, while it stays open; a
     * partial message waits for the next read. A failed read, the switch's close or a malformed message closes the
     * connection.
     */
    void read(Transport transport, Keepalive keepalive) {
        int n;
        do {
            try {
                n = transport.read(readBuf);
            } catch (SSLException e) {
                sw.close(e.getMessage()); // it names the peer and the TLS problem
                return;
            } catch (IOException e) {
                sw.close("read failed: " + e.getMessage());
                return;
            }
            if (n < 0) {
                sw.close("connection closed by the switch");
                return;
            }
            if (n > 0) {
                keepalive.received(loop.now); // a read of nothing is no sign of life
            }
            if (transport.wantsFlush()) {
                sw.flushNow(); // a TLS handshake message, or the output held until the handshake finished
            }
            try {
                handleAll();
            } catch (OFParseException e) {
                sw.close("malformed message: " + e.getMessage());
                return;
            }
            // A TLS transport may hold records it read but had no room to unwrap: the selector won't report them.
        } while (n > 0 && sw.isConnected() && transport.hasBufferedInput());
    }

    private void handleAll() throws OFParseException {
        readBuf.flip();
        int prefetchedTo = 0;
        OFMessage msg;
        while (sw.isConnected()) {
            if (readBuf.position() >= prefetchedTo) {
                prefetchedTo = prefetchAhead();
            }
            if ((msg = OFMessageReader.read(readBuf)) == null) {
                break;
            }
            messages++;
            handle(msg);
        }
        if (sw.isConnected()) {
            readBuf.compact();
        }
    }

    /** One message from the switch: to the handshake, a request waiting for it, or the listeners. */
    private void handle(OFMessage msg) {
        if (msg instanceof OFEchoRequest echo) {
            sw.write(new OFEchoReply(echo.xid(), echo.data()));
        } else if (msg instanceof OFPortStatus status) {
            sw.info().portChanged(status);
        } else if (msg instanceof OFHello hello) {
            sw.handshake().hello(hello);
            return;
        }
        if (requests.complete(msg, loop.now)) {
            return;
        }
        if (sw.isActive()) {
            dispatch(msg);
        } else if (sw.isHandshaking() && !(msg instanceof OFEchoRequest) && !(msg instanceof OFEchoReply)) {
            sw.handshake().keepForLater(msg);
        }
    }

    /** To the listeners, unless another controller handles it (see {@link RoleChannel#handles}). */
    void dispatch(OFMessage msg) {
        if (sw.roles().handles(msg)) {
            controller.dispatch(sw, msg);
        }
    }

    long messages() {
        return messages;
    }

    /** A copy of what was read and not handled: at most the start of a message still arriving. */
    ByteBuffer unread() {
        var pending = readBuf.duplicate().flip();
        return ByteBuffer.allocate(pending.remaining()).put(pending).flip();
    }

    /** Bytes another core read from this switch and did not handle: they come before anything read from now on. */
    void prefill(ByteBuffer bytes) {
        readBuf.put(bytes.duplicate());
    }

    /**
     * Shows the PACKET_INs among the next {@value #PREFETCH_AHEAD} complete messages from the read position to the
     * pipeline's prefetching listeners (see {@link net.beaconcontroller.core.IOFMessageListener#prefetch}).
     *
     * @return the index after the last message looked at; the buffer's limit when there is nothing to do
     */
    private int prefetchAhead() {
        int limit = readBuf.limit();
        var prefetchers = controller.packetInPrefetchers();
        if (prefetchers.length == 0 || !sw.isActive()) {
            return limit;
        }
        int p = readBuf.position();
        // A read of one message (a switch with one packet in flight) has no misses to overlap.
        if (limit - p < OFMessage.HEADER_LENGTH || (readBuf.getShort(p + 2) & 0xffff) >= limit - p) {
            return limit;
        }
        var frame = loop.prefetchFrame();
        var prefetch = loop.prefetch();
        // Only the header is trusted here, and only as far as the reader will check it: a malformed message stops
        // the look-ahead, and the reader then closes the connection.
        for (int n = 0; n < PREFETCH_AHEAD && limit - p >= OFMessage.HEADER_LENGTH; n++) {
            int length = readBuf.getShort(p + 2) & 0xffff;
            if (length < OFMessage.HEADER_LENGTH || length > limit - p) {
                break;
            }
            if (readBuf.get(p + 1) == PACKET_IN_TYPE && length >= OFPacketIn.MIN_LENGTH) {
                Dispatch.prefetch(prefetchers, sw, readBuf.getShort(p + 14) & 0xffff,
                        frame.wrap(readBuf, p + OFPacketIn.MIN_LENGTH, p + length), prefetch);
            }
            p += length;
        }
        prefetch.run();
        return p;
    }
}
