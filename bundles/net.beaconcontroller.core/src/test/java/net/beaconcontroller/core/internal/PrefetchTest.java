package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.openflow.OFEchoRequest;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.util.Prefetch;

/** PACKET_IN listeners that override {@link IOFMessageListener#prefetch} see the PACKET_INs of a read ahead. */
class PrefetchTest {

    /** Records "prefetch port src" and "receive port src" in order; counts receives down. */
    private static final class Tracing implements IOFMessageListener {
        final List<String> trace = new ArrayList<>();
        final CountDownLatch received;
        final boolean failPrefetch;

        Tracing(int expected, boolean failPrefetch) {
            this.received = new CountDownLatch(expected);
            this.failPrefetch = failPrefetch;
        }

        @Override
        public void prefetch(IOFSwitch sw, int inPort, Frame frame, Prefetch prefetch) {
            synchronized (trace) {
                trace.add("prefetch " + inPort + " " + Long.toHexString(frame.dlSrc()) + " " + frame.length());
            }
            if (failPrefetch) {
                throw new IllegalStateException("a broken prefetch");
            }
        }

        @Override
        public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
            var pi = (OFPacketIn) msg;
            synchronized (trace) {
                trace.add("receive " + pi.inPort() + " " + Long.toHexString(ctx.frame().dlSrc()) + " "
                        + ctx.frame().length());
            }
            received.countDown();
            return Command.CONTINUE;
        }

        List<String> trace() {
            synchronized (trace) {
                return List.copyOf(trace);
            }
        }
    }

    private static final IOFMessageListener PLAIN = (sw, msg, ctx) -> Command.CONTINUE;

    @Test
    void onlyListenersThatOverridePrefetchAreAsked() {
        var tracing = new Tracing(0, false);
        var pipeline = Pipeline.of(1, PLAIN, tracing, PLAIN);
        assertArrayEquals(new IOFMessageListener[] {tracing}, pipeline.prefetchers());
        assertEquals(0, Pipeline.EMPTY.prefetchers().length);
    }

    @Test
    void everyPacketInIsPrefetchedOnceBeforeItIsReceivedWithTheSameFrame() throws InterruptedException {
        checkPrefetchOrder(false);
    }

    @Test
    void aFailingPrefetchIsLoggedAndEveryMessageIsStillHandled() throws InterruptedException {
        checkPrefetchOrder(true);
    }

    private static void checkPrefetchOrder(boolean failPrefetch) throws InterruptedException {
        int count = 3 * Inbound.PREFETCH_AHEAD + 5;
        var listener = new Tracing(count, failPrefetch);
        try (var fx = ControllerFixture.start()) {
            fx.controller.addOFMessageListener(OFType.PACKET_IN, listener);
            var c = fx.connectActive(1);
            var messages = new ArrayList<OFMessage>();
            for (int port = 1; port <= count; port++) {
                messages.add(c.fake().packetIn(port, FakeSwitch.frame(60 + port % 7, port)));
                if (port % 10 == 0) {
                    // Other messages between them are skipped by the look-ahead.
                    messages.add(new OFEchoRequest(c.fake().nextXid()));
                }
            }
            c.fake().send(messages.toArray(OFMessage[]::new));
            assertTrue(listener.received.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "every PACKET_IN handled");
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (c.fake().count(OFType.ECHO_REPLY) < count / 10 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(count / 10, c.fake().count(OFType.ECHO_REPLY), "the messages between them handled too");
        }
        var trace = listener.trace();
        var prefetched = trace.stream().filter(t -> t.startsWith("prefetch ")).map(t -> t.substring(9)).toList();
        var received = trace.stream().filter(t -> t.startsWith("receive ")).map(t -> t.substring(8)).toList();
        assertEquals(count, received.size());
        // A PACKET_IN is shown at most once, with the frame receive() sees, and before receive() gets it. A read that
        // ends inside a message shows the rest of the batch in the next read; only a read that holds a single message
        // is not shown (nothing to overlap), which one write of all of them makes rare.
        assertTrue(prefetched.size() >= count / 2, prefetched.size() + " of " + count + " prefetched");
        int next = 0;
        for (var p : prefetched) {
            int r = received.subList(next, count).indexOf(p);
            assertTrue(r >= 0, p + ": prefetched PACKET_INs are received, in the same order, with the same frames");
            next += r + 1;
            assertTrue(trace.indexOf("prefetch " + p) < trace.indexOf("receive " + p), p + " prefetched first");
        }
    }
}
