package net.beaconcontroller.core.internal;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.util.Threads;
import net.beaconcontroller.connections.HeldConnection;
import net.beaconcontroller.connections.IConnectionHolder;
import net.beaconcontroller.core.IoLoopStats;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.util.Prefetch;

/**
 * One I/O thread with its own selector. Run-to-completion: the thread that reads a switch's bytes parses them and
 * runs every message through the listener pipeline, so a switch is only ever handled by its loop's thread.
 *
 * <p>Writes are batched (the paper's Algorithms 2 and 3): messages written while handling a read land in the
 * switch's output buffer; the first switch with output in an iteration is flushed at once, the others together at
 * the top of the next iteration, so a burst of messages to one switch costs one system call.
 */
final class IOLoop implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(IOLoop.class);
    /** Keepalive and request timeouts are checked this often; they are measured in seconds. */
    private static final long TIMER_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final Controller controller;
    private final Selector selector;
    private final Thread thread;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    private final ArrayList<SwitchConnection> dirty = new ArrayList<>();
    private final ArrayList<SwitchConnection> connections = new ArrayList<>();
    private final DispatchContext context;
    private final Frame prefetchFrame = new Frame();
    private final Prefetch prefetch = new Prefetch();
    /** Read by the acceptor to pick the least-loaded loop. */
    final AtomicInteger switchCount = new AtomicInteger();
    private volatile boolean running = true;
    /** Where {@link #stop} hands the connections, or null to close them. */
    private volatile IConnectionHolder handTo;
    /** Set once the loop has ended: tasks then run on the caller's thread instead of waiting forever. */
    private volatile boolean terminated;
    /** The loop's clock, read once per iteration: per-message timestamps need no system call. */
    long now = System.nanoTime();
    private long nextTimerCheck;
    /** How long after the last ready socket the loop polls instead of blocking (controller.idleSpinMicros). */
    private final long spinNanos;
    private long lastReady;
    /**
     * Time spent waiting in select since the loop started. Only this loop's thread writes it, with a release store
     * (a plain move on x86): a volatile write per iteration would fence.
     */
    private final AtomicLong idleNanos = new AtomicLong();
    private long windowStart = now;
    private long windowIdleStart;
    private volatile double busyRatio;
    private final long startNanos = now;

    IOLoop(Controller controller, int index) throws IOException {
        this.controller = controller;
        this.selector = Selector.open();
        this.thread = Threads.named(this, "beacon-io-" + index);
        this.context = new DispatchContext(index);
        this.spinNanos = TimeUnit.MICROSECONDS.toNanos(controller.config().idleSpinMicros());
    }

    void start() {
        thread.start();
    }

    String threadName() {
        return thread.getName();
    }

    IoLoopStats stats() {
        return new IoLoopStats(thread.getName(), switchCount.get(), busyRatio,
                Math.max(0, System.nanoTime() - startNanos - idleNanos.get()));
    }

    /** The view {@link SwitchConnection} aims at PACKET_INs to prefetch; only this loop's thread uses it. */
    Frame prefetchFrame() {
        return prefetchFrame;
    }

    /** Where the PACKET_IN prefetchers add what to load; only this loop's thread uses it. */
    Prefetch prefetch() {
        return prefetch;
    }

    /** The context this loop's dispatches share; only its own thread uses it. */
    DispatchContext context() {
        return context;
    }

    boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** Runs the task on this loop's thread: at once if already there, else queued and the selector woken. */
    void execute(Runnable task) {
        if (inLoop() || terminated) {
            task.run();
            return;
        }
        tasks.add(task);
        if (terminated && tasks.remove(task)) {
            // The loop ended between the check and the add and will never run it.
            task.run();
        } else if (wakeupPending.compareAndSet(false, true)) {
            selector.wakeup();
        }
    }

    /**
     * Waits until the loop has finished whatever it was doing (at most {@code timeoutMillis}): afterwards no dispatch
     * that began before this call is still running.
     */
    void quiesce(long timeoutMillis) {
        if (inLoop() || !thread.isAlive()) {
            return;
        }
        var done = new CountDownLatch(1);
        execute(done::countDown);
        try {
            if (!done.await(timeoutMillis, TimeUnit.MILLISECONDS)) {
                log.warn("{} did not reach a quiet point within {} ms", thread.getName(), timeoutMillis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Queues a task for the top of the next iteration, even when called on the loop itself. */
    void post(Runnable task) {
        tasks.add(task);
        if (!inLoop() && wakeupPending.compareAndSet(false, true)) {
            selector.wakeup();
        }
    }

    boolean isRunning() {
        return running && !terminated;
    }

    /**
     * Takes over an accepted connection, over TLS when {@code tls} is given; called on the acceptor thread. The TLS
     * engine is made here, on the loop: its handshake runs on this thread too.
     */
    void adopt(SocketChannel channel, TlsContext tls) {
        register(channel, () -> tls == null ? new PlainTransport(channel)
                : new TlsTransport(channel, tls.newEngine(), channel.getRemoteAddress().toString(), tls.identities()),
                SwitchConnection::start);
    }

    /**
     * Takes over a connection a previous core handed to the holder; called on the controller's thread. A TLS session
     * is checked against this core's certificate bindings ({@code tls}'s) when the switch claims its DPID again.
     */
    void adoptHeld(HeldConnection held, TlsContext tls) {
        var channel = held.channel();
        register(channel, () -> held.tls() == null ? new PlainTransport(channel)
                : TlsTransport.resumed(channel, held.tls(), channel.getRemoteAddress().toString(),
                        tls == null ? null : tls.identities()),
                conn -> HandOver.resume(conn, held));
    }

    /** Makes a connection's transport on the loop (a TLS engine's handshake runs there too). */
    @FunctionalInterface
    private interface TransportOpener {
        Transport open() throws IOException;
    }

    private void register(SocketChannel channel, TransportOpener opener, Consumer<SwitchConnection> begin) {
        switchCount.incrementAndGet();
        execute(() -> {
            try {
                channel.configureBlocking(false);
                var key = channel.register(selector, SelectionKey.OP_READ);
                var transport = opener.open();
                var conn = new SwitchConnection(controller, this, channel, transport, key);
                key.attach(conn);
                connections.add(conn);
                begin.accept(conn);
            } catch (IOException | RuntimeException e) {
                switchCount.decrementAndGet();
                log.warn("could not register connection {}: {}", channel, e.toString());
                closeQuietly(channel);
            }
        });
    }

    /** Called by a connection once it closed. */
    void forget(SwitchConnection conn) {
        // Not removed from the dirty list: flushDirty may be walking it, and flushing a closed connection is a no-op.
        connections.remove(conn);
        switchCount.decrementAndGet();
    }

    /** Queues a connection's output for the batched flush. */
    void markDirty(SwitchConnection conn) {
        dirty.add(conn);
    }

    /** Releases the selector of a loop whose thread never started (the controller failed to start). */
    void closeUnstarted() {
        try {
            selector.close();
        } catch (IOException e) {
            log.debug("closing selector", e);
        }
    }

    /** Stops; with a {@code holder}, the active connections go to it instead of being closed. */
    void stop(IConnectionHolder holder) {
        handTo = holder;
        running = false;
        selector.wakeup();
    }

    void join(long millis) throws InterruptedException {
        thread.join(millis);
    }

    @Override
    public void run() {
        try {
            while (running) {
                // Tasks first: a write handed over by another thread must go out in this iteration, not after select.
                runTasks();
                flushDirty();
                int ready;
                long selectStart = System.nanoTime();
                if (spinNanos > 0 && now - lastReady < spinNanos) {
                    // Right after traffic the next message is likely microseconds away: waking from a blocked
                    // select costs more than the round trip itself (the latency mode's idle strategy).
                    ready = selector.selectNow();
                    if (ready == 0) {
                        Thread.onSpinWait();
                    }
                } else {
                    ready = selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nextTimerCheck - now)));
                }
                wakeupPending.set(false);
                now = System.nanoTime();
                idleNanos.lazySet(idleNanos.get() + now - selectStart);
                if (ready > 0) {
                    lastReady = now;
                }
                handleSelected();
                if (now - nextTimerCheck >= 0) {
                    nextTimerCheck = now + TIMER_PERIOD_NANOS;
                    long idle = idleNanos.get();
                    busyRatio = Math.max(0, 1 - (double) (idle - windowIdleStart) / Math.max(1, now - windowStart));
                    windowStart = now;
                    windowIdleStart = idle;
                    for (var conn : new ArrayList<>(connections)) {
                        guarded(conn, () -> conn.checkTimers(now));
                    }
                }
            }
        } catch (Throwable t) {
            // Only a bug in the loop itself gets here: per-switch and per-listener errors are handled below.
            log.error("{} stopped on an unexpected error; its switches are disconnected", thread.getName(), t);
        } finally {
            running = false; // the acceptor must not hand this loop new switches any more
            runTasks();
            var holder = handTo;
            for (var conn : new ArrayList<>(connections)) {
                if (!handedOver(conn, holder)) {
                    conn.close("controller stopping");
                }
            }
            // Only now may other threads run their tasks themselves: no connection of this loop is left to race with.
            terminated = true;
            runTasks();
            // A switch adopted in the meantime has nobody to serve it.
            for (var conn : new ArrayList<>(connections)) {
                conn.close("controller stopping");
            }
            try {
                selector.close();
            } catch (IOException e) {
                log.debug("closing selector", e);
            }
        }
    }

    /** A connection that cannot be handed over is closed as before; one failure must not keep the others open. */
    private static boolean handedOver(SwitchConnection conn, IConnectionHolder holder) {
        try {
            return holder != null && HandOver.deposit(conn, holder);
        } catch (RuntimeException e) {
            log.error("could not hand {} to the next core", conn, e);
            return false;
        }
    }

    private void handleSelected() {
        boolean firstFlushDone = false;
        var keys = selector.selectedKeys();
        for (var key : keys) {
            var conn = (SwitchConnection) key.attachment();
            if (!key.isValid()) {
                continue;
            }
            int ready = key.readyOps();
            guarded(conn, () -> {
                if ((ready & SelectionKey.OP_WRITE) != 0) {
                    conn.flushNow();
                }
                if ((ready & SelectionKey.OP_READ) != 0 && key.isValid()) {
                    conn.handleRead();
                }
            });
            if (!firstFlushDone && conn.output().hasQueued()) {
                guarded(conn, conn::flushNow);
                firstFlushDone = true;
            }
        }
        keys.clear();
    }

    /**
     * Runs one connection's work; an unexpected failure (a bug, not a listener's: those are caught in dispatch)
     * costs that connection only, never the loop and the other switches on it.
     */
    private void guarded(SwitchConnection conn, Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            log.error("internal error on {}", conn, e);
            conn.close("internal error: " + e);
        }
    }

    private void flushDirty() {
        if (dirty.isEmpty()) {
            return;
        }
        for (int i = 0; i < dirty.size(); i++) {
            var conn = dirty.get(i);
            guarded(conn, conn::flushNow);
        }
        dirty.clear();
    }

    private void runTasks() {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.error("task on {} failed", thread.getName(), e);
            }
        }
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing left to do with a channel we could not even register
        }
    }
}
