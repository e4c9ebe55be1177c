package net.beaconcontroller.core.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.util.concurrent.TimeUnit;

import net.beaconcontroller.openflow.OFMessage;

/**
 * A switch connection's bounded output: messages are serialized straight into it, and it leaves in one write per
 * flush. Batched (the paper's Algorithms 2 and 3): the first write of a loop iteration marks the connection dirty for
 * the loop's flush; with {@code controller.immediate} every message is flushed at once. It grows for a burst up to its
 * limit and gives the memory back after it; a switch that fills it is not reading and is closed. What the transport
 * does not take now waits for OP_WRITE. Confined to the connection's I/O thread.
 */
final class OutputBuffer {
    static final int INITIAL_SIZE = 64 * 1024;
    /** A grown buffer goes back to the initial size once a flush has not needed more for this long. */
    private static final long SHRINK_AFTER_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final SwitchConnection sw;
    private final Transport transport;
    private final SelectionKey key;
    private final IOLoop loop;
    private final int limit;
    private final boolean immediate;
    private ByteBuffer buf = ByteBuffer.allocateDirect(INITIAL_SIZE);
    /** When a flush last held more than the initial size (loop clock). */
    private long lastLargeOutput;
    /** Queued for the loop's flush. */
    private boolean dirty;
    /** The output failed (limit reached, write error): writes are dropped until the queued close runs. */
    private boolean failed;
    private boolean closed;
    // Written only by the loop thread; others read it for the console, where a slightly stale count is fine.
    private long messages;

    OutputBuffer(SwitchConnection sw, Transport transport, SelectionKey key, IOLoop loop, int limit, boolean immediate) {
        this.sw = sw;
        this.transport = transport;
        this.key = key;
        this.loop = loop;
        this.limit = limit;
        this.immediate = immediate;
    }

    /** Queues {@code msg}, serialized straight into the buffer. */
    void put(OFMessage msg) {
        if (reserve(msg.length())) {
            msg.writeTo(buf);
            written();
        }
    }

    /** Queues a message serialized before. */
    void put(byte[] msg) {
        if (reserve(msg.length)) {
            buf.put(msg);
            written();
        }
    }

    /**
     * Makes room for a message of {@code length} bytes.
     *
     * @return false when the connection is closed or failing, or the message would take the buffer past its limit
     */
    private boolean reserve(int length) {
        if (closed || failed) {
            return false;
        }
        if (buf.remaining() >= length) {
            return true;
        }
        // Before growing towards the limit, give the socket what it takes now: a big burst to a switch that reads
        // is fine, only a switch that stops reading fills the buffer.
        flush();
        if (!failed && (buf.remaining() >= length || grow(length))) {
            return true;
        }
        fail("output buffer limit of " + limit + " bytes reached: the switch is not reading");
        return false;
    }

    /** A message went into the buffer: it leaves now, or with the loop's next flush. */
    private void written() {
        messages++;
        if (immediate) {
            flush();
        } else if (!dirty) {
            dirty = true;
            loop.markDirty(sw);
        }
    }

    /** Writes as much as the transport takes; what is left waits for OP_WRITE. */
    void flush() {
        dirty = false;
        // The transport's own bytes (a TLS handshake message, output held until the handshake finished) go too.
        if (closed || failed || buf.position() == 0 && !transport.wantsFlush()) {
            return;
        }
        int queued = buf.position();
        buf.flip();
        Transport.Sent sent;
        try {
            sent = transport.write(buf);
        } catch (IOException e) {
            buf.clear();
            fail("write failed: " + e.getMessage());
            return;
        }
        buf.compact();
        if (buf.capacity() > INITIAL_SIZE) {
            shrinkAfterBurst(queued);
        }
        // Not for HELD output: the socket is writable, and OP_WRITE would wake the loop for nothing until the TLS
        // handshake finishes.
        int ops = sent == Transport.Sent.SOCKET_FULL ? SelectionKey.OP_READ | SelectionKey.OP_WRITE
                : SelectionKey.OP_READ;
        if (key.interestOps() != ops) {
            key.interestOps(ops);
        }
    }

    /**
     * Sends what the socket takes now and closes this buffer.
     *
     * @return a copy of what the socket did not take, or null when the output had failed
     */
    ByteBuffer takeUnsent() {
        flush();
        if (failed) {
            return null;
        }
        closed = true;
        var unsent = buf.duplicate().flip();
        return ByteBuffer.allocate(unsent.remaining()).put(unsent).flip();
    }

    /** The connection closed: nothing more is queued or sent. */
    void close() {
        closed = true;
    }

    /** Whether output waits for the socket, for the loop's first flush of an iteration. */
    boolean hasQueued() {
        return buf.position() > 0;
    }

    /** The buffer's current size, for tests. */
    int capacity() {
        return buf.capacity();
    }

    long messages() {
        return messages;
    }

    /**
     * Closes the connection at the top of the next loop iteration rather than now: the failure was found inside
     * somebody's {@code write}, and telling listeners {@code removedSwitch} in the middle of their own call would
     * surprise them. Until then writes are dropped.
     */
    private void fail(String reason) {
        if (!failed) {
            failed = true;
            loop.post(() -> sw.close(reason));
        }
    }

    private boolean grow(int needed) {
        int used = buf.position();
        if ((long) used + needed > limit) {
            return false;
        }
        int size = buf.capacity();
        while (size < used + needed) {
            size = (int) Math.min((long) size * 2, limit);
        }
        var bigger = ByteBuffer.allocateDirect(size);
        buf.flip();
        bigger.put(buf);
        buf = bigger;
        lastLargeOutput = loop.now;
        return true;
    }

    /**
     * A burst (a switch that read slowly for a while, a big table dump) grows the buffer; after it, the next flush
     * that finds the buffer drained and no big output for a second gives the memory back.
     */
    private void shrinkAfterBurst(int queued) {
        if (queued > INITIAL_SIZE) {
            lastLargeOutput = loop.now;
        } else if (buf.position() == 0 && loop.now - lastLargeOutput > SHRINK_AFTER_NANOS) {
            buf = ByteBuffer.allocateDirect(INITIAL_SIZE);
        }
    }
}
