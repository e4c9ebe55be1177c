package net.beaconcontroller.maple.internal;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.util.Threads;

/**
 * The runtime's thread: it owns the trace tree, the compiler and everything they know, and runs what the I/O
 * threads, the device manager, the topology and reconciliation hand it, one task at a time, in the order they came.
 * Packets wait in a bounded number (a flood of them is dropped, counted); environment changes are never dropped,
 * or the tree would keep decisions that are no longer true.
 */
final class Loop {
    /** Packets waiting at most; beyond, new ones are dropped. */
    static final int MAX_PACKETS = 10_000;
    private static final Logger log = LoggerFactory.getLogger(Loop.class);

    private final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final AtomicInteger packets = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private final Runnable tick;
    private final Thread thread;
    private volatile boolean open = true;

    /** @param tick run after every task and at least once a second */
    Loop(String name, Runnable tick) {
        this.tick = tick;
        thread = Threads.daemon(this::run, name);
        thread.start();
    }

    /** Queues a packet's handling; false (and counted) when too many wait. */
    boolean offerPacket(Runnable task) {
        if (packets.incrementAndGet() > MAX_PACKETS) {
            packets.decrementAndGet();
            dropped.incrementAndGet();
            return false;
        }
        tasks.add(() -> {
            packets.decrementAndGet();
            task.run();
        });
        return true;
    }

    /** Packets dropped because too many waited. */
    long dropped() {
        return dropped.get();
    }

    /** Queues a task that must run (an environment change). */
    void post(Runnable task) {
        tasks.add(task);
    }

    /** Runs {@code task} on the loop and waits for its answer, from another thread. */
    <T> T call(Callable<T> task, Duration timeout) throws TimeoutException, ExecutionException, InterruptedException {
        var answer = new CompletableFuture<T>();
        post(() -> {
            try {
                answer.complete(task.call());
            } catch (Exception e) {
                answer.completeExceptionally(e);
            }
        });
        return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs {@code last}, then ends the thread; waits up to 10 s for it. */
    void close(Runnable last) {
        post(() -> {
            try {
                last.run();
            } finally {
                open = false;
            }
        });
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            log.warn("Maple's runtime thread did not end within 10 s; interrupting it");
            thread.interrupt();
        }
    }

    private void run() {
        while (open) {
            try {
                Runnable task = tasks.poll(1, TimeUnit.SECONDS);
                if (task != null) {
                    task.run();
                }
                tick.run();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // A bug in one task must not stop the runtime: the next packet or change still gets handled.
                log.error("Maple's runtime failed on a task", e);
            }
        }
    }
}
