package net.beaconcontroller.cluster.internal;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFMessageReader;
import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.vendor.NiciraRole;
import net.beaconcontroller.util.Dpids;

/**
 * Writes and barriers an application makes to a switch this member is SLAVE of, sent through the switch's master in
 * the order they were made; and, on the master, those that other members send it.
 *
 * <p>Confined to the member's thread (the coordinator): the applications' writes and barriers, the other members'
 * messages and the switches' answers are posted to it, in the order they come.
 */
final class Forwarding {
    private static final Logger log = LoggerFactory.getLogger(Forwarding.class);
    /** How long a forwarded write waits for its switch to have a master before it is dropped. */
    private static final int RETRIES = 40;
    private static final long RETRY_MILLIS = 50;

    private final Peers peers;
    /** Writes and barriers for switches without a master to send them to, in order. */
    private final Map<Long, ArrayDeque<Message>> waiting = new HashMap<>();
    /** Barriers asked through a master (see barrierThroughMaster), by id. */
    private final Map<Long, CompletableFuture<Void>> barriers = new HashMap<>();
    private long barrierIds;

    Forwarding(Peers peers) {
        this.peers = peers;
    }

    /** Any thread. */
    void write(IOFSwitch sw, OFMessage msg) {
        var m = new Message.Write(sw.getId(), peers.self(), msg.toByteArray());
        peers.after(0, () -> forward(m));
    }

    /** A barrier in the switch's queue of forwarded writes; the member that runs it answers this one. Any thread. */
    CompletionStage<Void> barrier(IOFSwitch sw, Duration timeout) {
        var me = peers.self();
        long dpid = sw.getId();
        var done = new CompletableFuture<Void>().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
        peers.after(0, () -> {
            if (done.isDone()) {
                return;
            }
            long id = ++barrierIds;
            barriers.put(id, done);
            done.whenComplete((v, e) -> peers.after(0, () -> barriers.remove(id)));
            forward(new Message.Barrier(dpid, me, id, me));
        });
        return done;
    }

    /**
     * Sends a write or barrier to the switch's master. While the switch has none (or the map already names this
     * member and its MASTER request is on its way), they wait in order, and later ones queue behind them: a switch
     * receives the writes of one member in the order they were made.
     */
    private void forward(Message m) {
        long dpid = m.dpid();
        var queue = waiting.get(dpid);
        if (queue != null) {
            queue.add(m);
            return;
        }
        var master = peers.master(dpid);
        if (master != null && !master.equals(peers.self())) {
            peers.send(master, sentByMe(m));
            return;
        }
        queue = new ArrayDeque<>();
        queue.add(m);
        waiting.put(dpid, queue);
        peers.after(RETRY_MILLIS, () -> retryWaiting(dpid, 1));
    }

    private void retryWaiting(long dpid, int attempt) {
        var queue = waiting.get(dpid);
        if (queue == null) {
            return; // cleared: the member stopped
        }
        var st = peers.local(dpid);
        var master = peers.master(dpid);
        if (st != null && st.sw.getRole() != NiciraRole.SLAVE) {
            queue.forEach(m -> deliverHere(st, m));
        } else if (master != null && !master.equals(peers.self())) {
            queue.forEach(m -> peers.send(master, sentByMe(m)));
        } else if (attempt < RETRIES) {
            peers.after(RETRY_MILLIS, () -> retryWaiting(dpid, attempt + 1));
            return;
        } else {
            log.warn("cluster: switch {} has had no other master for {} ms: dropped {} message(s) written to it",
                    Dpids.toString(dpid), RETRIES * RETRY_MILLIS, queue.size());
            queue.forEach(m -> failBarrier(m, "the switch has no master"));
        }
        waiting.remove(dpid);
    }

    /** A write or barrier another member sent this one, as the master of its switch. */
    void received(Message m) {
        var st = peers.local(m.dpid());
        if (st == null) {
            log.warn("cluster: a message for switch {} arrived from {}, which is not connected here",
                    Dpids.toString(m.dpid()), peers.describe(m.from()));
            failBarrier(m, "the switch is not connected to the member it was sent to");
        } else if (st.sw.getRole() != NiciraRole.SLAVE) {
            deliverHere(st, m);
        } else if (!m.from().equals(peers.master(m.dpid()))) {
            forward(m); // the switch moved on while the message was under way
        } else {
            // Each names the other as master: their views of the map disagree for a moment. Sending it back could
            // bounce it between the two, so it is dropped, and said.
            log.warn("cluster: dropped a message for switch {} from {}, which this member takes for its master",
                    Dpids.toString(m.dpid()), peers.describe(m.from()));
            failBarrier(m, "the members disagreed on the switch's master");
        }
    }

    /** On the switch's master: a write goes to the switch; a barrier too, and its answer to the member that asked. */
    private void deliverHere(SwitchState st, Message m) {
        if (m instanceof Message.Barrier b) {
            st.sw.barrier(peers.timeout()).whenComplete((reply, e) -> barrierAnswered(b, e));
        } else if (m instanceof Message.Write w) {
            try {
                st.sw.write(OFMessageReader.read(ByteBuffer.wrap(w.openflow())));
            } catch (OFParseException e) {
                throw new IllegalStateException("a message this cluster serialized does not parse", e);
            }
        }
    }

    private void failBarrier(Message m, String why) {
        if (m instanceof Message.Barrier b) {
            barrierAnswered(b, new IllegalStateException(why));
        }
    }

    private void barrierAnswered(Message.Barrier barrier, Throwable failure) {
        var answer = new Message.BarrierDone(barrier.dpid(), peers.self(), barrier.id(),
                failure == null ? null : String.valueOf(failure.getMessage()));
        if (barrier.asker().equals(peers.self())) {
            peers.after(0, () -> barrierDone(answer)); // a switch's answer comes on its I/O thread
        } else {
            peers.send(barrier.asker(), answer);
        }
    }

    void barrierDone(Message.BarrierDone d) {
        var done = barriers.remove(d.id());
        if (done == null) {
            return; // timed out already
        }
        Runnable answer = d.failure() == null ? () -> done.complete(null)
                : () -> done.completeExceptionally(new IllegalStateException("the barrier at switch "
                        + Dpids.toString(d.dpid()) + "'s master failed: " + d.failure()));
        // The application's callbacks run on the switch's I/O thread, as for a barrier answered by the switch itself,
        // not on this member's thread.
        var st = peers.local(d.dpid());
        if (st != null) {
            st.sw.execute(answer);
        } else {
            answer.run();
        }
    }

    /** Once the member's thread has stopped. */
    void clear() {
        waiting.clear();
        barriers.clear();
    }

    private Message sentByMe(Message m) {
        var me = peers.self();
        if (m instanceof Message.Write w) {
            return new Message.Write(w.dpid(), me, w.openflow());
        }
        var b = (Message.Barrier) m;
        return new Message.Barrier(b.dpid(), me, b.id(), b.asker());
    }
}
