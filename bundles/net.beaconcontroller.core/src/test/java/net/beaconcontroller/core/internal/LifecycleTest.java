package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.IOFInitializerListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.SwitchDisconnectedException;
import net.beaconcontroller.core.test.ControllerFixture.Kind;
import net.beaconcontroller.openflow.OFEchoReply;
import net.beaconcontroller.openflow.OFEchoRequest;
import net.beaconcontroller.openflow.OFType;

/** Switches coming and going: replacement by DPID, peer close, controller stop, initializers, listener failures. */
class LifecycleTest {

    /**
     * The first connection no longer answers echo (see {@link SwitchIdentityTest} for one that does). An echo timeout
     * of 4 s gives it 2 s to show a sign of life.
     */
    @ParameterizedTest(name = "threadCount={0}")
    @ValueSource(ints = {1, 2})
    void aSecondConnectionWithTheSameDpidReplacesADeadFirst(int threads) {
        try (var fx = ControllerFixture.start("controller.threadCount=" + threads, "controller.echoInterval=3",
                "controller.echoTimeout=4")) {
            var firstFake = fx.connect(0x42, FakeSwitch.port(1, "eth1")).answer(OFType.ECHO_REQUEST, null);
            var first = new ControllerFixture.Connected(firstFake, fx.handshake(firstFake));
            var secondFake = fx.connect(0x42, FakeSwitch.port(9, "new9"));
            var second = fx.handshake(secondFake);

            first.fake().awaitClosed(WAIT);
            assertFalse(first.sw().isConnected());
            assertTrue(second.isConnected());
            assertNotEquals(first.sw(), second);
            assertSame(second, fx.controller.getSwitches().get(0x42L));
            assertEquals(1, fx.controller.getSwitches().size());
            assertEquals(List.of(9), second.getPorts().stream().map(p -> p.portNo()).toList());

            var events = fx.events();
            assertEquals(3, events.size(), events.toString());
            assertEquals(Kind.ADDED, events.get(0).kind());
            assertSame(first.sw(), events.get(0).sw());
            assertEquals(Kind.REMOVED, events.get(1).kind());
            assertSame(first.sw(), events.get(1).sw());
            assertEquals(Kind.ADDED, events.get(2).kind());
            assertSame(second, events.get(2).sw());
            if (threads == 2) {
                assertNotEquals(first.sw().getThreadName(), second.getThreadName());
            }

            // The newcomer works.
            secondFake.send(new OFEchoRequest(77));
            assertEquals(77, secondFake.<OFEchoReply>expect(OFType.ECHO_REPLY, WAIT).xid());
            fx.expectNoMoreEvents(Kind.REMOVED, 0x42, 1, Duration.ofMillis(200));
        }
    }

    @Test
    void aSwitchThatClosesItsConnectionIsRemovedOnce() {
        try (var fx = ControllerFixture.start()) {
            var c = fx.connectActive(3);
            c.fake().close();
            var removed = fx.awaitEvent(Kind.REMOVED, 3);
            assertSame(c.sw(), removed.sw());
            assertFalse(c.sw().isConnected());
            assertTrue(fx.controller.getSwitches().isEmpty());
            fx.expectNoMoreEvents(Kind.REMOVED, 3, 1, Duration.ofMillis(200));
        }
    }

    @Test
    void aSwitchThatResetsItsConnectionIsRemovedOnce() {
        try (var fx = ControllerFixture.start()) {
            var c = fx.connectActive(4);
            c.fake().reset();
            assertSame(c.sw(), fx.awaitEvent(Kind.REMOVED, 4).sw());
            assertTrue(fx.controller.getSwitches().isEmpty());
            fx.expectNoMoreEvents(Kind.REMOVED, 4, 1, Duration.ofMillis(200));
        }
    }

    @Test
    void disconnectFromAnotherThreadClosesTheConnectionAndTellsListenersOnce() {
        try (var fx = ControllerFixture.start()) {
            var c = fx.connectActive(5);
            c.sw().disconnect("test says so");
            c.fake().awaitClosed(WAIT);
            fx.awaitEvent(Kind.REMOVED, 5);
            c.sw().disconnect("again");
            fx.expectNoMoreEvents(Kind.REMOVED, 5, 1, Duration.ofMillis(200));
        }
    }

    @Test
    void stoppingTheControllerDisconnectsEverySwitchAndTellsListeners() {
        var fx = ControllerFixture.start("controller.threadCount=2");
        try {
            var a = fx.connectActive(1);
            var b = fx.connectActive(2);
            fx.controller.stop();
            assertSame(a.sw(), fx.awaitEvent(Kind.REMOVED, 1).sw());
            assertSame(b.sw(), fx.awaitEvent(Kind.REMOVED, 2).sw());
            a.fake().awaitClosed(WAIT);
            b.fake().awaitClosed(WAIT);
            assertTrue(fx.controller.getSwitches().isEmpty());
        } finally {
            fx.close();
        }
    }

    /**
     * {@link IOFSwitch} promises that futures fail with {@link SwitchDisconnectedException} when the switch has left.
     * After {@code stop()} the I/O threads are gone; a request made then must still fail, not hang.
     */
    @Test
    void requestsToASwitchOfAStoppedControllerFailInsteadOfHanging() {
        var fx = ControllerFixture.start();
        try {
            var c = fx.connectActive(1);
            fx.controller.stop();
            fx.awaitEvent(Kind.REMOVED, 1);
            var barrier = c.sw().barrier(Duration.ofMillis(200));
            var e = assertThrows(ExecutionException.class, () -> barrier.get(2, TimeUnit.SECONDS),
                    "barrier() on a switch of a stopped controller never completes");
            assertTrue(e.getCause() instanceof SwitchDisconnectedException, e.getCause().toString());
        } finally {
            fx.close();
        }
    }

    /** After {@code stop()}, an application still holding the switch may write to it: nothing happens, no error. */
    @Test
    void writesToASwitchOfAStoppedControllerAreDroppedQuietly() {
        var fx = ControllerFixture.start();
        try {
            var c = fx.connectActive(1);
            fx.controller.stop();
            fx.awaitEvent(Kind.REMOVED, 1);
            var msg = new OFEchoRequest(1);
            assertDoesNotThrow(() -> c.sw().write(msg), "write(OFMessage)");
            assertDoesNotThrow(() -> c.sw().write(List.of(msg, msg)), "write(List)");
            assertDoesNotThrow(() -> c.sw().flush(), "flush()");
            assertDoesNotThrow(() -> c.sw().disconnect("late"), "disconnect()");
            assertFalse(c.sw().isConnected());
            fx.expectNoMoreEvents(Kind.REMOVED, 1, 1, Duration.ofMillis(100));
        } finally {
            fx.close();
        }
    }

    /** A start that cannot bind reports the bind error and leaves a controller that stops cleanly. */
    @Test
    void aStartThatCannotBindFailsWithTheBindErrorAndStopsCleanly() throws Exception {
        try (var busy = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            var controller = new Controller(Configs.of(ControllerConfig.class, "listenAddress=127.0.0.1",
                    "listenPort=" + busy.getLocalPort(), "legacyListenPort=-1"));
            assertThrows(BindException.class, controller::start);
            assertDoesNotThrow(controller::stop);
            assertTrue(controller.getSwitches().isEmpty());
        }
    }

    @Test
    void initializersRunInOrderAndTheSwitchBecomesActiveWhenTheyComplete() {
        try (var fx = ControllerFixture.start()) {
            var log = new ArrayList<String>();
            var release = new CompletableFuture<Void>();
            fx.controller.addOFInitializerListener(initializer("first", sw -> {
                synchronized (log) {
                    log.add("first " + Thread.currentThread().getName());
                }
                // Typical use: wait for a barrier, asynchronously.
                return sw.barrier(WAIT);
            }));
            fx.controller.addOFInitializerListener(initializer("second", sw -> {
                synchronized (log) {
                    log.add("second");
                }
                return release;
            }));
            var fake = fx.connect(8, FakeSwitch.port(1, "eth1"));
            fake.hello();
            ControllerFixture.awaitTrue("second initializer ran", WAIT, () -> {
                synchronized (log) {
                    return log.size() == 2;
                }
            });
            synchronized (log) {
                assertEquals(List.of("first beacon-io-0", "second"), log);
            }
            // Two barriers: the handshake's and the first initializer's.
            assertEquals(2, fake.count(OFType.BARRIER_REQUEST));
            assertEquals(0, fx.count(Kind.ADDED, 8));
            assertTrue(fx.controller.getSwitches().isEmpty());
            release.complete(null);
            fx.awaitEvent(Kind.ADDED, 8);
        }
    }

    @Test
    void aFailingInitializerDisconnectsTheSwitch() {
        try (var fx = ControllerFixture.start()) {
            var broken = initializer("broken", sw -> {
                throw new IllegalStateException("cannot initialize");
            });
            fx.controller.addOFInitializerListener(broken);
            var fake = fx.connect(9, FakeSwitch.port(1, "eth1"));
            fake.hello();
            fake.awaitClosed(WAIT);
            assertEquals(0, fx.count(Kind.ADDED, 9));

            fx.controller.removeOFInitializerListener(broken);
            fx.controller.addOFInitializerListener(initializer("failing-stage",
                    sw -> CompletableFuture.failedFuture(new IllegalStateException("stage failed"))));
            var failed = fx.connect(10, FakeSwitch.port(1, "eth1"));
            failed.hello();
            failed.awaitClosed(WAIT);
            assertEquals(0, fx.count(Kind.ADDED, 10));
        }
    }

    private static IOFInitializerListener initializer(String name,
            Function<IOFSwitch, CompletionStage<?>> body) {
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

    /**
     * A switch listener that throws an {@link Error} (an {@code assert} in application code, say) is an application
     * bug like any other: message listeners are protected against it, switch listeners must be too. The other
     * listeners still hear about the switch and the I/O thread keeps serving the other switches.
     */
    @Test
    void aSwitchListenerThatThrowsAnErrorHarmsNeitherOtherListenersNorTheIoThread() {
        try (var fx = ControllerFixture.start("controller.threadCount=1")) {
            var healthy = fx.connectActive(1);
            fx.controller.addOFSwitchListener(new IOFSwitchListener() {
                @Override
                public String getName() {
                    return "asserting";
                }

                @Override
                public void addedSwitch(IOFSwitch sw) {
                    throw new AssertionError("bug in addedSwitch");
                }

                @Override
                public void removedSwitch(IOFSwitch sw) {
                    throw new AssertionError("bug in removedSwitch");
                }
            });
            var after = new ArrayList<String>();
            fx.controller.addOFSwitchListener(new IOFSwitchListener() {
                @Override
                public String getName() {
                    return "after";
                }

                @Override
                public void addedSwitch(IOFSwitch sw) {
                    synchronized (after) {
                        after.add("added " + sw.getId());
                    }
                }

                @Override
                public void removedSwitch(IOFSwitch sw) {
                    synchronized (after) {
                        after.add("removed " + sw.getId());
                    }
                }
            });

            var victim = fx.connectActive(2);
            victim.fake().close();
            fx.awaitEvent(Kind.REMOVED, 2);

            // The I/O thread still serves the first switch.
            healthy.fake().send(new OFEchoRequest(99));
            assertEquals(99, healthy.fake().<OFEchoReply>expect(OFType.ECHO_REPLY, WAIT).xid());
            assertTrue(healthy.sw().isConnected());
            assertFalse(healthy.fake().isClosed());
            ControllerFixture.awaitTrue("the listener after the failing one heard both events", WAIT, () -> {
                synchronized (after) {
                    return after.size() == 3;
                }
            });
            synchronized (after) {
                assertEquals(List.of("added 1", "added 2", "removed 2"), after, "switch 1 was connected already");
            }
        }
    }
}
