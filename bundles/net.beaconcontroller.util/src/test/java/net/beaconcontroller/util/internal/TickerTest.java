package net.beaconcontroller.util.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.beaconcontroller.util.CoarseClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The clock's thread lives exactly as long as the bundle; readings are right with or without it. */
class TickerTest {
    private final Activator activator = new Activator();

    /** Leaves no thread behind for the other tests in this JVM. */
    @AfterEach
    void stopTheClock() throws InterruptedException {
        activator.stop(null);
        assertTrue(tickers().isEmpty());
    }

    @Test
    void outsideOsgiTheFirstReadingStartsADaemonThreadThatStopEnds() throws Exception {
        Ticker.stop();
        // A class loader of its own shows Ticker as a plain JVM, or a freshly updated bundle, first sees it.
        URL classes = Ticker.class.getProtectionDomain().getCodeSource().getLocation();
        try (var loader = new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader())) {
            Class<?> fresh = loader.loadClass(Ticker.class.getName());
            assertNotSame(Ticker.class, fresh);
            assertTrue(tickers().isEmpty());

            fresh.getMethod("seconds").invoke(null);
            List<Thread> threads = tickers();
            assertEquals(1, threads.size());
            assertTrue(threads.get(0).isDaemon(), "a lazily started clock does not keep the JVM alive");

            fresh.getMethod("stop").invoke(null);
            assertFalse(threads.get(0).isAlive());
        }
    }

    @Test
    void bundleStopEndsTheThreadAndReadingsDoNotRestartIt() throws InterruptedException {
        activator.start(null);
        List<Thread> running = tickers();
        assertEquals(1, running.size());

        activator.stop(null);
        assertFalse(running.get(0).isAlive(), "stop() returns after the thread has ended");
        int s = CoarseClock.seconds();
        assertTrue(tickers().isEmpty(), "a reading after the bundle stopped starts no thread");
        assertTrue(Math.abs(s - Ticker.seconds()) <= 1);
    }

    @Test
    void startAfterStopRunsOneThreadAgain() throws InterruptedException {
        activator.start(null);
        activator.stop(null);
        activator.start(null);
        activator.start(null);
        assertEquals(1, tickers().size());
    }

    @Test
    void theValueIsTheSameWithAndWithoutTheThread() throws InterruptedException {
        activator.start(null);
        int ticked = CoarseClock.seconds();
        activator.stop(null);
        int computed = CoarseClock.seconds();
        assertTrue(computed >= ticked && computed - ticked <= 1, ticked + " then " + computed);
        assertTrue(ticked >= 0);
        long uptime = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime());
        assertTrue(computed <= uptime);
    }

    private static List<Thread> tickers() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(Ticker.THREAD_NAME) && t.isAlive()).toList();
    }
}
