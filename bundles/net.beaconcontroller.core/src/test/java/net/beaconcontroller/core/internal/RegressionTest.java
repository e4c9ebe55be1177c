package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static net.beaconcontroller.core.test.ControllerFixture.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IOFInitializerListener;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.SwitchDisconnectedException;
import net.beaconcontroller.core.test.ControllerFixture.Connected;
import net.beaconcontroller.core.test.ControllerFixture.Kind;
import net.beaconcontroller.openflow.OFBarrierReply;
import net.beaconcontroller.openflow.OFEchoReply;
import net.beaconcontroller.openflow.OFEchoRequest;
import net.beaconcontroller.openflow.OFFlowRemoved;
import net.beaconcontroller.openflow.OFHello;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.openflow.statistics.OFDescStatsRequest;

/**
 * Regression tests for the concurrency review of the core: each test reproduces, through the public API and a scripted
 * switch, a failure the review found (a request timeout killing the I/O thread, the acceptor dying with a dead loop,
 * stranded batched output, activation on a foreign thread, a ghost switch, a corrupted cross-thread PACKET_OUT), and
 * two behaviours introduced with the fixes (the output-limit close after the listener returns, FLOW_REMOVED bursts
 * during the handshake).
 */
class RegressionTest {
    private static final OFStatsRequest DESC = new OFStatsRequest(0, 0, new OFDescStatsRequest());
    /** What the controller keeps for later while a handshake is open: 1 MiB. */
    private static final int EARLY_BOUND = 1 << 20;

    // ------------------------------------------------------------------------------------------------------ helpers

    /** The switch answers an echo of the fake's own and is still connected: its I/O thread serves it. */
    private static void assertServed(Connected c) {
        int xid = c.fake().nextXid();
        c.fake().send(new OFEchoRequest(xid));
        OFEchoReply reply = c.fake().expect(OFType.ECHO_REPLY, m -> m.xid() == xid, WAIT);
        assertEquals(xid, reply.xid());
        assertTrue(c.sw().isConnected(), c.sw() + " is connected");
    }

    private static Throwable failureOf(CompletableFuture<?> future) {
        var e = assertThrows(ExecutionException.class, () -> future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        return e.getCause();
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError(e);
        }
    }

    private static void await(CountDownLatch latch, String what) {
        try {
            if (!latch.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("timed out waiting for: " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * Occupies the switch's I/O thread until {@code release} opens (at most {@link ControllerFixture#WAIT}), and
     * returns once it is occupied: whatever other threads hand to that loop meanwhile waits in its task queue.
     */
    private static void occupy(IOFSwitch sw, CountDownLatch release) {
        var occupied = new CountDownLatch(1);
        sw.execute(() -> {
            occupied.countDown();
            try {
                release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        await(occupied, "the I/O thread of " + sw + " to run the blocking task");
    }

    private static IOFInitializerListener initializer(String name, Function<IOFSwitch, CompletionStage<?>> body) {
        return new IOFInitializerListener() {
            @Override
            public String getName() {
                return name;
            }

            @Override
            public CompletionStage<?> initializeSwitch(IOFSwitch sw) {
                return body.apply(sw);
            }
        };
    }

    private static byte[] data(OFPacketOut po) {
        var b = new byte[po.dataLength()];
        po.data().get(b);
        return b;
    }

    // ------------------------------------------------------------------- 1. request timeouts whose callbacks act

    /**
     * Two requests to a silent switch expire in the same timer walk (issued in one task: same loop clock, same
     * deadline). Their callbacks send new requests, as a retrying application does. Once the pending-request map was
     * changed during its own walk: the ConcurrentModificationException ended the I/O thread and every switch on it.
     */
    @Test
    void aTimeoutCallbackThatSendsANewRequestLeavesTheIoThreadRunning() {
        try (var fx = ControllerFixture.start("controller.threadCount=1")) {
            var a = fx.connectActive(0xA);
            var b = fx.connectActive(0xB);
            a.fake().answer(OFType.STATS_REQUEST, null);
            var retries = Collections.synchronizedList(new ArrayList<CompletableFuture<List<OFStatsReply>>>());
            var firstTries = requestsExpiringTogether(a.sw(),
                    () -> retries.add(a.sw().getStatistics(DESC, Duration.ofSeconds(30))));

            for (var f : firstTries) {
                assertInstanceOf(TimeoutException.class, failureOf(f), "failed by its timeout, not by a dying I/O thread");
            }
            // The handshake's description request, the two that timed out, the two retries. A retry's request is on
            // the wire before getStatistics returns the future the callback adds to the list: wait for both.
            awaitTrue("both retries reach the switch and are recorded", WAIT,
                    () -> a.fake().count(OFType.STATS_REQUEST) == 5 && retries.size() == 2);
            retries.forEach(f -> assertFalse(f.isDone(), "a retry is still waiting for its answer: " + f));
            assertServed(a);
            assertServed(b);
            assertEquals(0, fx.count(Kind.REMOVED, 0xA));
            assertEquals(0, fx.count(Kind.REMOVED, 0xB));
        }
    }

    /** As above, but the callback gives up on the switch: that switch goes, the other one on the thread stays. */
    @Test
    void aTimeoutCallbackThatDisconnectsClosesOnlyThatSwitch() {
        try (var fx = ControllerFixture.start("controller.threadCount=1")) {
            var a = fx.connectActive(0xA);
            var b = fx.connectActive(0xB);
            a.fake().answer(OFType.STATS_REQUEST, null);
            var firstTries = requestsExpiringTogether(a.sw(), () -> a.sw().disconnect("gave up waiting"));

            for (var f : firstTries) {
                assertInstanceOf(TimeoutException.class, failureOf(f), "failed by its timeout, not by a dying I/O thread");
            }
            assertSame(a.sw(), fx.awaitEvent(Kind.REMOVED, 0xA).sw());
            a.fake().awaitClosed(WAIT);
            assertFalse(a.sw().isConnected());
            assertServed(b);
            fx.expectNoMoreEvents(Kind.REMOVED, 0xA, 1, Duration.ofMillis(100));
            assertEquals(0, fx.count(Kind.REMOVED, 0xB));
            assertEquals(List.of(0xBL), List.copyOf(fx.controller.getSwitches().keySet()));
        }
    }

    /** Two 300 ms description requests issued in one task on the switch's thread; {@code onTimeout} runs on failure. */
    private static List<CompletableFuture<List<OFStatsReply>>> requestsExpiringTogether(IOFSwitch sw, Runnable onTimeout) {
        var issued = new CompletableFuture<List<CompletableFuture<List<OFStatsReply>>>>();
        sw.execute(() -> {
            var requests = new ArrayList<CompletableFuture<List<OFStatsReply>>>();
            for (int i = 0; i < 2; i++) {
                var f = sw.getStatistics(DESC, Duration.ofMillis(300));
                f.whenComplete((replies, error) -> {
                    if (error != null) {
                        onTimeout.run();
                    }
                });
                requests.add(f);
            }
            issued.complete(requests);
        });
        return await(issued);
    }

    // --------------------------------------------------------------------------------- 2. the acceptor and dead loops

    /**
     * A listener that throws a {@link VirtualMachineError} for {@code victim}'s PACKET_INs: the controller rethrows
     * those (a JVM in trouble) and the I/O thread ends. Returns that thread once it has ended.
     */
    private static Thread killIoThreadOf(ControllerFixture fx, Connected victim) {
        var doomed = new CompletableFuture<Thread>();
        fx.controller.addOFMessageListener(OFType.PACKET_IN, new IOFMessageListener() {
            @Override
            public String getName() {
                return "jvm-in-trouble";
            }

            @Override
            public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
                if (sw != victim.sw()) {
                    return Command.CONTINUE;
                }
                doomed.complete(Thread.currentThread());
                throw new InternalError("simulated JVM failure");
            }
        });
        victim.fake().send(victim.fake().packetIn(1, FakeSwitch.frame(64, 1)));
        var thread = await(doomed);
        try {
            thread.join(WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        assertFalse(thread.isAlive(), thread.getName() + " ended");
        assertSame(victim.sw(), fx.awaitEvent(Kind.REMOVED, victim.fake().dpid()).sw());
        return thread;
    }

    /**
     * After an I/O thread died, new switches go to the threads still running. The acceptor once picked the dead loop
     * (it had the fewest switches), failed to register there and ended: no switch could connect any more.
     */
    @Test
    void newSwitchesSkipAnIoThreadThatDied() {
        try (var fx = ControllerFixture.start("controller.threadCount=2")) {
            var a = fx.connectActive(0xA);
            var b = fx.connectActive(0xB);
            assertNotEquals(a.sw().getThreadName(), b.sw().getThreadName());
            var dead = killIoThreadOf(fx, a);
            assertEquals(a.sw().getThreadName(), dead.getName());

            for (long dpid = 0xC; dpid <= 0xD; dpid++) {
                var fake = fx.connect(dpid, FakeSwitch.port(1, "eth1"));
                var sw = fx.handshake(fake);
                assertEquals(b.sw().getThreadName(), sw.getThreadName(), "switch " + dpid + " runs on the living thread");
                assertTrue(sw.isConnected());
            }
            assertServed(b);
            assertEquals(0, fx.count(Kind.REMOVED, 0xB));
        }
    }

    /** With no I/O thread left, a connection is closed at once rather than accepted into nowhere; again and again. */
    @Test
    void withEveryIoThreadDeadNewConnectionsAreClosedNotLeftHanging() {
        try (var fx = ControllerFixture.start("controller.threadCount=1")) {
            var a = fx.connectActive(0xA);
            killIoThreadOf(fx, a);
            for (long dpid = 0xC; dpid <= 0xD; dpid++) {
                var fake = fx.connect(dpid, FakeSwitch.port(1, "eth1"));
                fake.hello();
                fake.awaitClosed(WAIT);
                assertEquals(0, fx.count(Kind.ADDED, dpid));
            }
            assertTrue(fx.controller.getSwitches().isEmpty());
        }
    }

    // ---------------------------------------------------------------------------------- 3. the batched flush walk

    /**
     * Two switches on one thread have batched output; the first one's peer has reset the connection, so its flush
     * fails and closes it in the middle of the flush walk. Closing once took it out of the list being walked, which
     * skipped the next switch; that one still counted as queued and never flushed again: its output stuck for good.
     */
    @Test
    void aSwitchFailingDuringTheBatchedFlushDoesNotStrandTheNextOnesOutput() {
        try (var fx = ControllerFixture.start("controller.threadCount=1")) {
            var a = fx.connectActive(0xA);
            var b = fx.connectActive(0xB);
            var release = new CountDownLatch(1);
            occupy(a.sw(), release);
            try {
                // The loop does not see the reset until it selects again: by then both writes wait in the batch, A first.
                a.fake().reset();
                a.sw().write(new OFEchoRequest(777));
                b.sw().write(new OFEchoRequest(778));
            } finally {
                release.countDown();
            }
            assertEquals(778, b.fake().<OFEchoRequest>expect(OFType.ECHO_REQUEST, m -> m.xid() == 778, WAIT).xid());
            assertSame(a.sw(), fx.awaitEvent(Kind.REMOVED, 0xA).sw());
            // And B's later output is not stuck behind a stale "already queued" mark.
            b.sw().write(new OFEchoRequest(779));
            assertEquals(779, b.fake().<OFEchoRequest>expect(OFType.ECHO_REQUEST, m -> m.xid() == 779, WAIT).xid());
            assertServed(b);
            assertEquals(0, fx.count(Kind.REMOVED, 0xB));
        }
    }

    // --------------------------------------------------------------------------- 4, 5. initializers and activation

    /**
     * The first initializer's stage is completed by another thread (here the test's, as an external service's
     * callback thread would). The next initializer, {@code addedSwitch} and the dispatch of a PACKET_IN kept during
     * the handshake must still run on the switch's I/O thread; they once ran on whichever thread completed the stage.
     */
    @Test
    void anInitializerCompletedOnAnotherThreadStillActivatesOnTheIoThread() {
        try (var fx = ControllerFixture.start()) {
            var gate = new CompletableFuture<Void>();
            var initializing = new CompletableFuture<IOFSwitch>();
            var secondRanOn = new CompletableFuture<String>();
            fx.controller.addOFInitializerListener(initializer("external", sw -> {
                initializing.complete(sw);
                return gate;
            }));
            fx.controller.addOFInitializerListener(initializer("second", sw -> {
                secondRanOn.complete(Thread.currentThread().getName());
                return CompletableFuture.completedFuture(null);
            }));
            var packetIns = new RecordingListener("pi");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, packetIns);
            var fake = fx.connect(0xF, FakeSwitch.port(1, "eth1"));
            // The PACKET_IN arrives with HELLO, so it waits for the handshake and is dispatched on activation.
            byte[] frame = FakeSwitch.frame(100, 4);
            fake.send(new OFHello(fake.nextXid()), fake.packetIn(1, frame));

            var sw = await(initializing);
            String ioThread = sw.getThreadName();
            assertNotEquals(Thread.currentThread().getName(), ioThread);
            gate.complete(null);

            var added = fx.awaitEvent(Kind.ADDED, 0xF);
            assertSame(sw, added.sw());
            assertEquals(ioThread, await(secondRanOn), "thread of the second initializer");
            assertEquals(ioThread, added.thread(), "thread of addedSwitch");
            var call = packetIns.await(WAIT);
            assertEquals(ioThread, call.thread(), "thread of the early PACKET_IN's dispatch");
            assertArrayEquals(frame, ((OFPacketIn) call.msg()).frameBytes());
            assertTrue(sw.isConnected());
        }
    }

    /**
     * An initializer that tolerates a failed barrier: the switch leaves while the barrier is outstanding, the stage
     * completes normally, and the switch must stay gone. It once became an active "ghost": {@code addedSwitch}, in
     * the switch map, connected by its own account, with no socket behind it and no {@code removedSwitch} ever.
     */
    @Test
    void aSwitchThatLeavesDuringATolerantInitializerNeverBecomesActive() {
        try (var fx = ControllerFixture.start("controller.preExistingFlows=KEEP")) {
            var initializing = new CompletableFuture<IOFSwitch>();
            var barrierFailure = new CompletableFuture<Throwable>();
            fx.controller.addOFInitializerListener(initializer("tolerant", sw -> {
                initializing.complete(sw);
                return sw.barrier(WAIT).exceptionally(e -> {
                    barrierFailure.complete(e instanceof CompletionException ce ? ce.getCause() : e);
                    return null;
                });
            }));
            var fake = fx.connect(0xC, FakeSwitch.port(1, "eth1")).answer(OFType.BARRIER_REQUEST, null);
            fake.hello();
            fake.expect(OFType.BARRIER_REQUEST, WAIT);
            var sw = await(initializing);
            fake.close();

            assertInstanceOf(SwitchDisconnectedException.class, await(barrierFailure));
            fx.expectNoMoreEvents(Kind.ADDED, 0xC, 0, Duration.ofMillis(300));
            assertFalse(sw.isConnected());
            assertFalse(fx.controller.getSwitches().containsKey(0xCL));
            assertEquals(0, fx.count(Kind.REMOVED, 0xC));
        }
    }

    // ------------------------------------------------------------------------- 6. writes to another I/O thread

    /**
     * A listener on A's thread forwards each PACKET_IN's frame view (no copy) to B on the other thread, whose loop is
     * busy meanwhile. A's next read reuses the buffer the first frame was a view of. The first PACKET_OUT once went out
     * with the second frame's bytes: the message was serialized on B's thread, after A's buffer had changed.
     */
    @Test
    void aFrameViewWrittenToASwitchOnAnotherIoThreadArrivesIntact() {
        try (var fx = ControllerFixture.start("controller.threadCount=2")) {
            var a = fx.connectActive(0xA);
            var b = fx.connectActive(0xB);
            assertNotEquals(a.sw().getThreadName(), b.sw().getThreadName());
            fx.controller.addOFMessageListener(OFType.PACKET_IN, new IOFMessageListener() {
                @Override
                public String getName() {
                    return "forward-to-b";
                }

                @Override
                public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
                    var pi = (OFPacketIn) msg;
                    if (sw == a.sw()) {
                        b.sw().write(OFPacketOut.unbuffered(pi.xid(), pi.inPort(),
                                List.<OFAction>of(OFActionOutput.to(2)), pi.frame()));
                    }
                    return Command.CONTINUE;
                }
            });
            var handled = new RecordingListener("handled");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, handled);

            // Same length: the second frame lands exactly where the first one was in A's read buffer.
            byte[] f1 = FakeSwitch.frame(200, 1);
            byte[] f2 = FakeSwitch.frame(200, 2);
            var pi1 = a.fake().packetIn(1, f1);
            var pi2 = a.fake().packetIn(1, f2);
            var release = new CountDownLatch(1);
            occupy(b.sw(), release);
            try {
                a.fake().send(pi1);
                assertEquals(pi1.xid(), handled.await(WAIT).msg().xid());
                a.fake().send(pi2);
                assertEquals(pi2.xid(), handled.await(WAIT).msg().xid());
            } finally {
                release.countDown();
            }
            OFPacketOut out1 = b.fake().expect(OFType.PACKET_OUT, WAIT);
            OFPacketOut out2 = b.fake().expect(OFType.PACKET_OUT, WAIT);
            assertEquals(pi1.xid(), out1.xid());
            assertArrayEquals(f1, data(out1), "the first PACKET_OUT carries the first frame");
            assertEquals(pi2.xid(), out2.xid());
            assertArrayEquals(f2, data(out2));
        }
    }

    // ------------------------------------------------------------------ 7. output limit reached inside a listener

    /**
     * A listener floods a switch that stopped reading until a write is refused (the 64 KiB output limit and the
     * socket buffers are full). The switch is disconnected, but {@code removedSwitch} comes after the listener
     * returned, not from inside its {@code write} call.
     */
    @Test
    void theOutputLimitReachedInsideAListenerRemovesTheSwitchAfterTheListenerReturns() {
        try (var fx = ControllerFixture.start("controller.outputBufferLimit=65536")) {
            var order = Collections.synchronizedList(new ArrayList<String>());
            var removed = new CompletableFuture<IOFSwitch>();
            fx.controller.addOFSwitchListener(new IOFSwitchListener() {
                @Override
                public String getName() {
                    return "order";
                }

                @Override
                public void addedSwitch(IOFSwitch sw) {
                    // only removals matter here
                }

                @Override
                public void removedSwitch(IOFSwitch sw) {
                    order.add("removedSwitch");
                    removed.complete(sw);
                }
            });
            byte[] frame = FakeSwitch.frame(16 * 1024, 7);
            fx.controller.addOFMessageListener(OFType.PACKET_IN, new IOFMessageListener() {
                @Override
                public String getName() {
                    return "flooder";
                }

                @Override
                public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
                    order.add("receive starts");
                    // 64 MiB at most: far beyond the limit plus what the kernel buffers on loopback.
                    for (int i = 0; i < 4096; i++) {
                        long before = sw.getMessagesOut();
                        sw.write(OFPacketOut.unbuffered(i, 1, List.<OFAction>of(OFActionOutput.to(2)),
                                ByteBuffer.wrap(frame)));
                        if (sw.getMessagesOut() == before) {
                            order.add("write refused");
                            break;
                        }
                    }
                    order.add("receive returns");
                    return Command.CONTINUE;
                }
            });
            var slowFake = fx.track(FakeSwitch.connect(fx.port(), 0x5, List.of(FakeSwitch.port(1, "eth1")), 4096));
            var slow = fx.handshake(slowFake);
            slowFake.stopReading();
            slowFake.send(slowFake.packetIn(1, FakeSwitch.frame(64, 1)));

            assertSame(slow, await(removed));
            assertEquals(List.of("receive starts", "write refused", "receive returns", "removedSwitch"), List.copyOf(order));
            assertFalse(slow.isConnected());
            slowFake.awaitClosed(WAIT);
        }
    }

    // ----------------------------------------------------------------- 8. FLOW_REMOVED bursts during the handshake

    private static OFFlowRemoved flowRemoved(int xid, long cookie) {
        return new OFFlowRemoved(xid, OFMatch.ALL, cookie, 0x8000, OFFlowRemoved.Reason.DELETE, 1, 0, 0, 3, 180);
    }

    /**
     * The delete-all of the handshake empties a big flow table: one FLOW_REMOVED per flow, twice the bound of what is
     * kept before the switch is active, all before the barrier reply. Like a PACKET_IN flood, what fits is delivered
     * after {@code addedSwitch} in order, the rest is dropped, and the switch is not disconnected (it once was).
     */
    @Test
    void flowRemovedBeyondTheEarlyBoundAreDroppedAndTheHandshakeCompletes() {
        try (var fx = ControllerFixture.start("controller.preExistingFlows=DELETE")) {
            var flows = new RecordingListener("flows");
            fx.controller.addOFMessageListener(OFType.FLOW_REMOVED, flows);
            var fake = fx.connect(0xE, FakeSwitch.port(1, "eth1"));
            var barrierXid = new CompletableFuture<Integer>();
            fake.answer(OFType.BARRIER_REQUEST, m -> {
                barrierXid.complete(m.xid());
                return null;
            });
            fake.hello();
            fake.expect(OFType.FLOW_MOD, WAIT);
            fake.expect(OFType.BARRIER_REQUEST, WAIT);

            int sent = 0;
            var batch = new OFMessage[512];
            while ((long) sent * OFFlowRemoved.LENGTH < 2L * EARLY_BOUND) {
                for (int i = 0; i < batch.length; i++) {
                    batch[i] = flowRemoved(fake.nextXid(), ++sent);
                }
                fake.send(batch);
            }
            long marker = 0xfeed_0000_0000L;
            fake.send(new OFBarrierReply(await(barrierXid)), flowRemoved(fake.nextXid(), marker));
            var sw = fx.awaitEvent(Kind.ADDED, 0xE).sw();

            int delivered = 0;
            while (true) {
                var call = flows.await(WAIT);
                assertSame(sw, call.sw());
                long cookie = ((OFFlowRemoved) call.msg()).cookie();
                if (cookie == marker) {
                    break;
                }
                assertEquals(++delivered, cookie, "the kept FLOW_REMOVEDs are the first ones, in order");
            }
            assertTrue(delivered > 0 && delivered < sent, delivered + " of " + sent + " delivered");
            assertTrue((long) delivered * OFFlowRemoved.LENGTH <= EARLY_BOUND, delivered * OFFlowRemoved.LENGTH + " bytes kept");
            assertFalse(fake.isClosed());
            assertTrue(sw.isConnected());
        }
    }
}
