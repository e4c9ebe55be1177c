package net.beaconcontroller.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class ThreadsTest {
    /** As the Gogo shell keeps a console command's output while the command runs (see Threads#named). */
    private static final InheritableThreadLocal<String> COMMAND_OUTPUT = new InheritableThreadLocal<>();

    @Test
    void aThreadMadeInAConsoleCommandDoesNotTakeTheCommandsOutput() throws InterruptedException {
        COMMAND_OUTPUT.set("the command's channel");
        try {
            var seen = new AtomicReference<String>("not run");
            var plain = new Thread(() -> seen.set(COMMAND_OUTPUT.get()));
            plain.start();
            plain.join();
            assertEquals("the command's channel", seen.get(), "what a plain thread does, which this guards against");

            var named = Threads.named(() -> seen.set(COMMAND_OUTPUT.get()), "beacon-test");
            named.start();
            named.join();
            assertEquals(null, seen.get());
            assertEquals("beacon-test", named.getName());
            assertTrue(Threads.daemon(() -> { }, "d").isDaemon());
        } finally {
            COMMAND_OUTPUT.remove();
        }
    }
}
