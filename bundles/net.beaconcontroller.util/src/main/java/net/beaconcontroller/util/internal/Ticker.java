package net.beaconcontroller.util.internal;

import java.util.concurrent.TimeUnit;

import net.beaconcontroller.util.Threads;

/**
 * The thread behind {@link net.beaconcontroller.util.CoarseClock}. It belongs to the util bundle: the bundle's
 * {@link Activator} starts and stops it, so that after an update or uninstall no thread of the old bundle keeps
 * running and holding its class loader. Outside OSGi (plain unit tests) the first reading starts it, as a daemon.
 *
 * <p>This package is not exported, so no other bundle can stop the clock.
 */
public final class Ticker {
    static final String THREAD_NAME = "beacon-coarse-clock";
    private static final long PERIOD_MILLIS = 100;
    private static final long ORIGIN = System.nanoTime();
    /** Marks "no thread keeps {@link #seconds} current", so that the hot path is a single volatile load. */
    private static final int NOT_RUNNING = -1;

    private static volatile int seconds = NOT_RUNNING;
    /** Set by {@link #stop()}: a reading after it must not start a thread that would outlive the bundle. */
    private static volatile boolean stopped;
    /** Guarded by {@code Ticker.class}. */
    private static Thread thread;

    private Ticker() {
    }

    /** Whole seconds since the origin; from the system clock while no thread ticks. */
    public static int seconds() {
        int s = seconds;
        if (s != NOT_RUNNING) {
            return s;
        }
        if (!stopped) {
            startIfIdle();
        }
        return now();
    }

    /** Starts the thread unless it runs; readings after a {@link #stop()} may start it again. */
    public static synchronized void start() {
        stopped = false;
        startIfIdle();
    }

    /** Ends the thread and waits until it has ended; until the next {@link #start()} none is started. */
    public static synchronized void stop() throws InterruptedException {
        stopped = true;
        Thread t = thread;
        thread = null;
        if (t != null) {
            t.interrupt();
            t.join();
        }
    }

    private static synchronized void startIfIdle() {
        if (stopped || thread != null) {
            return;
        }
        seconds = now();
        thread = Threads.daemon(Ticker::run, THREAD_NAME);
        thread.start();
    }

    private static void run() {
        try {
            while (true) {
                seconds = now();
                Thread.sleep(PERIOD_MILLIS);
            }
        } catch (InterruptedException e) {
            // stop(): end the thread
        } finally {
            // Written by this thread last, so no later tick of it can leave a stale value behind.
            seconds = NOT_RUNNING;
        }
    }

    private static int now() {
        return (int) TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - ORIGIN);
    }
}
