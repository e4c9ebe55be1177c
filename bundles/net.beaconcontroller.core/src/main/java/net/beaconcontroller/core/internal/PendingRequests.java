package net.beaconcontroller.core.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

import net.beaconcontroller.openflow.OFError;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.statistics.OFFlowStatsReply;

/**
 * One switch connection's requests waiting for their replies, by xid. Confined to the connection's I/O thread: the
 * requests are sent, answered and timed out there.
 */
final class PendingRequests {
    /** A flow table larger than its reader accepts: the rest of the reply is dropped unread. */
    static final class TableTooLargeException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        TableTooLargeException(int limit) {
            super("more than " + limit + " flows");
        }
    }

    /** A request waiting for its reply: the reply parts collected so far and when to give up. */
    private static final class Pending {
        final CompletableFuture<Object> future;
        final OFType expected;
        /** 0: {@link #deadline} is fixed; otherwise every reply part moves it this far past its arrival. */
        final long silenceNanos;
        /** Flow statistics entries accepted before the reply is given up as too large. */
        final int maxFlows;
        final List<OFStatsReply> parts = new ArrayList<>(1);
        long deadline;
        int flows;
        /** Given up as too large: the parts still coming are swallowed until the last one. */
        boolean discarding;

        Pending(CompletableFuture<Object> future, OFType expected, long deadline, long silenceNanos, int maxFlows) {
            this.future = future;
            this.expected = expected;
            this.deadline = deadline;
            this.silenceNanos = silenceNanos;
            this.maxFlows = maxFlows;
        }
    }

    private final Map<Integer, Pending> pending = new HashMap<>();

    /** Waits for the reply of type {@code expected} (all parts of a statistics reply) until {@code deadline}. */
    CompletableFuture<Object> add(int xid, OFType expected, long deadline) {
        var future = new CompletableFuture<Object>();
        pending.put(xid, new Pending(future, expected, deadline, 0, Integer.MAX_VALUE));
        return future;
    }

    /**
     * Waits for a multi-part flow statistics reply whose parts may each take up to {@code silenceNanos} after the
     * previous one (a big table takes long as a whole, a dead switch stays silent); fails with
     * {@link TableTooLargeException} as soon as it holds more than {@code maxFlows} entries, keeping none of them.
     */
    CompletableFuture<Object> addFlowTable(int xid, long now, long silenceNanos, int maxFlows) {
        var future = new CompletableFuture<Object>();
        pending.put(xid, new Pending(future, OFType.STATS_REPLY, now + silenceNanos, silenceNanos, maxFlows));
        return future;
    }

    /** Whether {@code msg} answered a request (and was consumed by it). */
    boolean complete(OFMessage msg, long now) {
        if (pending.isEmpty()) {
            return false;
        }
        // Asynchronous messages carry xids from the switch's own numbering: only a reply of the expected type (or an
        // error) answers a request.
        var p = pending.get(msg.xid());
        if (p == null || (msg.type() != p.expected && !(msg instanceof OFError))) {
            return false;
        }
        if (msg instanceof OFError error) {
            pending.remove(msg.xid());
            p.future.completeExceptionally(new ErrorReply(error));
        } else if (msg instanceof OFStatsReply reply) {
            part(p, reply, now);
        } else {
            pending.remove(msg.xid());
            p.future.complete(msg);
        }
        return true;
    }

    private void part(Pending p, OFStatsReply reply, long now) {
        if (!reply.more()) {
            pending.remove(reply.xid());
        } else if (p.silenceNanos > 0) {
            p.deadline = now + p.silenceNanos;
        }
        if (p.discarding) {
            return;
        }
        if (reply.body() instanceof OFFlowStatsReply table) {
            p.flows += table.entries().size();
            if (p.flows > p.maxFlows) {
                p.discarding = true;
                p.parts.clear();
                p.future.completeExceptionally(new TableTooLargeException(p.maxFlows));
                return;
            }
        }
        p.parts.add(reply);
        if (!reply.more()) {
            p.future.complete(List.copyOf(p.parts));
        }
    }

    /** Fails the requests past their deadline, after the walk: their callbacks may send new requests. */
    void expire(long now, String switchId) {
        List<Pending> expired = null;
        for (Iterator<Pending> it = pending.values().iterator(); it.hasNext();) {
            var p = it.next();
            if (now - p.deadline > 0) {
                it.remove();
                (expired == null ? expired = new ArrayList<>() : expired).add(p);
            }
        }
        if (expired != null) {
            var late = new TimeoutException("switch " + switchId + " did not answer in time");
            expired.forEach(p -> p.future.completeExceptionally(late));
        }
    }

    /** The connection closed: every request fails with {@code cause}. */
    void failAll(Throwable cause) {
        var waiting = new ArrayList<>(pending.values());
        pending.clear();
        waiting.forEach(p -> p.future.completeExceptionally(cause));
    }
}
