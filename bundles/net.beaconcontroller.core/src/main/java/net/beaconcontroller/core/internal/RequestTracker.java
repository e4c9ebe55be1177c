package net.beaconcontroller.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import net.beaconcontroller.core.SwitchDisconnectedException;
import net.beaconcontroller.openflow.OFError;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.OFVendor;
import net.beaconcontroller.openflow.statistics.OFFlowStatsReply;

/**
 * One switch connection's requests and the replies they wait for, by xid, each future typed by its reply: a caller
 * gets a {@code CompletableFuture<OFBarrierReply>} or the parts of a statistics reply, never an object to cast. The
 * requests are sent, answered and timed out on the connection's I/O thread; {@link #fromAnyThread} brings a request
 * made elsewhere there.
 */
final class RequestTracker {
    /** A flow table larger than its reader accepts: the rest of the reply is dropped unread. */
    static final class TableTooLargeException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        TableTooLargeException(int limit) {
            super("more than " + limit + " flows");
        }
    }

    /** A request waiting for its reply until its deadline. */
    private abstract static sealed class Pending permits One, Parts {
        long deadline;

        Pending(long deadline) {
            this.deadline = deadline;
        }

        /** Whether {@code msg}, carrying this request's xid, is its reply (or a part of it). */
        abstract boolean answeredBy(OFMessage msg);

        /**
         * Takes the reply, or a part of it: the completion of the request when it is over, {@code null} while parts
         * are still due. The completion runs only once the request has left the tracker, so that its callbacks, which
         * may make requests and read the tracker, never see a request that is over.
         */
        abstract Runnable take(OFMessage msg, long now);

        abstract void fail(Throwable cause);
    }

    /**
     * A request answered by one message: the one of its reply's OpenFlow type with its xid, as a switch numbers them,
     * whatever it holds (a VENDOR reply may be of another extension than the request's). One that is not a
     * {@code T} fails the request rather than reach the listeners as if nobody had asked.
     */
    private static final class One<T extends OFMessage> extends Pending {
        final Class<T> type;
        final OFType replyType;
        final CompletableFuture<T> future = new CompletableFuture<>();

        One(Class<T> type, OFType replyType, long deadline) {
            super(deadline);
            this.type = type;
            this.replyType = replyType;
        }

        @Override
        boolean answeredBy(OFMessage msg) {
            return msg.type() == replyType;
        }

        @Override
        Runnable take(OFMessage msg, long now) {
            if (type.isInstance(msg)) {
                var reply = type.cast(msg);
                return () -> future.complete(reply);
            }
            var unexpected = new IllegalStateException("the switch answered with a " + describe(msg) + " where a "
                    + type.getSimpleName() + " was expected");
            return () -> future.completeExceptionally(unexpected);
        }

        @Override
        void fail(Throwable cause) {
            future.completeExceptionally(cause);
        }
    }

    /** A statistics request: every reply part until one without the "more" flag. */
    private static final class Parts extends Pending {
        final CompletableFuture<List<OFStatsReply>> future = new CompletableFuture<>();
        /** 0: the deadline is fixed; otherwise every reply part moves it this far past its arrival. */
        final long silenceNanos;
        /** Flow statistics entries accepted before the reply is given up as too large. */
        final int maxFlows;
        final List<OFStatsReply> parts = new ArrayList<>(1);
        int flows;
        /** Given up as too large: the parts still coming are swallowed until the last one. */
        boolean discarding;

        Parts(long deadline, long silenceNanos, int maxFlows) {
            super(deadline);
            this.silenceNanos = silenceNanos;
            this.maxFlows = maxFlows;
        }

        @Override
        boolean answeredBy(OFMessage msg) {
            return msg instanceof OFStatsReply;
        }

        @Override
        Runnable take(OFMessage msg, long now) {
            var reply = (OFStatsReply) msg;
            if (reply.more() && silenceNanos > 0) {
                deadline = now + silenceNanos;
            }
            if (discarding) {
                return reply.more() ? null : NOTHING;
            }
            if (reply.body() instanceof OFFlowStatsReply table) {
                flows += table.entries().size();
                if (flows > maxFlows) {
                    discarding = true;
                    parts.clear();
                    // Failed at once, so the reader stops waiting for a table it will not get; the request stays
                    // in the tracker to swallow the parts still coming.
                    future.completeExceptionally(new TableTooLargeException(maxFlows));
                    return reply.more() ? null : NOTHING;
                }
            }
            parts.add(reply);
            if (reply.more()) {
                return null;
            }
            var all = List.copyOf(parts);
            return () -> future.complete(all);
        }

        @Override
        void fail(Throwable cause) {
            future.completeExceptionally(cause);
        }
    }

    private static final Runnable NOTHING = () -> { };

    private final SwitchConnection sw;
    private final Map<Integer, Pending> pending = new HashMap<>();

    RequestTracker(SwitchConnection sw) {
        this.sw = sw;
    }

    /** Sends {@code msg} and waits for its reply of type {@code type} until {@code deadline}. Loop thread. */
    <T extends OFMessage> CompletableFuture<T> send(OFMessage msg, Class<T> type, long deadline) {
        var p = new One<>(type, replyType(msg.type()), deadline);
        pending.put(msg.xid(), p);
        sw.write(msg);
        return p.future;
    }

    /** Sends a statistics request and waits for every part of its reply until {@code deadline}. Loop thread. */
    CompletableFuture<List<OFStatsReply>> statistics(OFStatsRequest msg, long deadline) {
        var p = new Parts(deadline, 0, Integer.MAX_VALUE);
        pending.put(msg.xid(), p);
        sw.write(msg);
        return p.future;
    }

    /**
     * Sends a flow statistics request whose reply parts may each take up to {@code silence} after the previous one
     * (a big table takes long as a whole, a dead switch stays silent); fails with {@link TableTooLargeException} as
     * soon as it holds more than {@code maxFlows} entries, keeping none of them. Loop thread.
     */
    CompletableFuture<List<OFStatsReply>> flowTable(OFStatsRequest msg, long now, Duration silence, int maxFlows) {
        long silenceNanos = nanos(silence);
        var p = new Parts(now + silenceNanos, silenceNanos, maxFlows);
        pending.put(msg.xid(), p);
        sw.write(msg);
        return p.future;
    }

    /**
     * Makes a request on the connection's I/O thread and flushes it; fails at once with
     * {@link SwitchDisconnectedException} when the switch has left. Any thread.
     */
    <T> CompletableFuture<T> fromAnyThread(Supplier<CompletableFuture<T>> request) {
        var result = new CompletableFuture<T>();
        sw.execute(() -> {
            if (!sw.isConnected()) {
                result.completeExceptionally(sw.disconnected());
                return;
            }
            relay(request.get(), result);
            sw.flushNow();
        });
        return result;
    }

    /** Completes {@code to} as {@code from} completes. */
    static <T> void relay(CompletableFuture<T> from, CompletableFuture<T> to) {
        from.whenComplete((v, e) -> {
            if (e != null) {
                to.completeExceptionally(e);
            } else {
                to.complete(v);
            }
        });
    }

    /** Timeouts beyond what nanoTime arithmetic can hold (e.g. "forever") are capped at 100 years. */
    static long nanos(Duration timeout) {
        return Math.min(timeout.toSeconds(), TimeUnit.DAYS.toSeconds(36_500)) * 1_000_000_000L + timeout.toNanosPart();
    }

    /** Whether {@code msg} answered a request (and was consumed by it). */
    boolean complete(OFMessage msg, long now) {
        if (pending.isEmpty()) {
            return false;
        }
        // Asynchronous messages carry xids from the switch's own numbering: only a reply of the expected type (or an
        // error) answers a request.
        var p = pending.get(msg.xid());
        if (p == null || !(msg instanceof OFError || p.answeredBy(msg))) {
            return false;
        }
        Runnable outcome;
        if (msg instanceof OFError error) {
            var cause = new ErrorReply(error);
            outcome = () -> p.fail(cause);
        } else {
            outcome = p.take(msg, now);
        }
        if (outcome != null) {
            pending.remove(msg.xid());
            outcome.run();
        }
        return true;
    }

    /** How many requests wait for their reply. Loop thread. */
    int waiting() {
        return pending.size();
    }

    /** The type of the reply to a request of type {@code request}. */
    static OFType replyType(OFType request) {
        return switch (request) {
            case ECHO_REQUEST -> OFType.ECHO_REPLY;
            case FEATURES_REQUEST -> OFType.FEATURES_REPLY;
            case GET_CONFIG_REQUEST -> OFType.GET_CONFIG_REPLY;
            case STATS_REQUEST -> OFType.STATS_REPLY;
            case BARRIER_REQUEST -> OFType.BARRIER_REPLY;
            case QUEUE_GET_CONFIG_REQUEST -> OFType.QUEUE_GET_CONFIG_REPLY;
            case VENDOR -> OFType.VENDOR;
            default -> throw new IllegalArgumentException(request + " is not a request OpenFlow 1.0 answers");
        };
    }

    private static String describe(OFMessage msg) {
        return msg instanceof OFVendor vendor ? String.format("VENDOR message of vendor 0x%x", vendor.vendor())
                : msg.type() + " (" + msg.getClass().getSimpleName() + ")";
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
            expired.forEach(p -> p.fail(late));
        }
    }

    /** The connection closed: every request fails with {@code cause}. */
    void failAll(Throwable cause) {
        var waiting = new ArrayList<>(pending.values());
        pending.clear();
        waiting.forEach(p -> p.fail(cause));
    }
}
