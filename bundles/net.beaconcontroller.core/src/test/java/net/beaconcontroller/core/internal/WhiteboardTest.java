package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.ContextKey;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.SwitchLocal;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.packet.Frame;

/**
 * Listeners published as services (the controller's bind/unbind methods, as Declarative Services calls them), the
 * per-dispatch context they share, and per-switch local state.
 */
class WhiteboardTest {
    private static final ContextKey<String> NOTE = ContextKey.of("note");

    private static IOFMessageListener listener(String name, MessageHandler body) {
        return new IOFMessageListener() {
            @Override
            public String getName() {
                return name;
            }

            @Override
            public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
                return body.handle(sw, msg, ctx);
            }
        };
    }

    private interface MessageHandler {
        Command handle(IOFSwitch sw, OFMessage msg, MessageContext ctx);
    }

    @Test
    void servicesJoinThePipelinesTheirPropertiesNameInTheirDeclaredOrderAndLeaveWhenUnbound() {
        try (var fx = ControllerFixture.start()) {
            var c = fx.controller;
            var routing = new RecordingListener("routing");
            var devices = new RecordingListener("devicemanager");
            var topology = new RecordingListener("topology");
            c.addMessageListenerService(routing, Map.of("beacon.listener.types", new String[] {"PACKET_IN"},
                    "beacon.listener.after", new String[] {"devicemanager"}));
            c.addMessageListenerService(devices, Map.of("beacon.listener.types", "PACKET_IN",
                    "beacon.listener.after", "topology"));
            c.addMessageListenerService(topology, Map.of("beacon.listener.types", List.of("PACKET_IN", "PORT_STATUS"),
                    "beacon.listener.before", new String[] {"devicemanager", "routing"}));
            assertEquals(List.of("topology", "devicemanager", "routing"), c.getPipeline(OFType.PACKET_IN));
            assertEquals(List.of("topology"), c.getPipeline(OFType.PORT_STATUS));

            c.removeMessageListenerService(devices);
            assertEquals(List.of("topology", "routing"), c.getPipeline(OFType.PACKET_IN));
            c.removeMessageListenerService(topology);
            assertEquals(List.of("routing"), c.getPipeline(OFType.PACKET_IN));
            assertEquals(List.of(), c.getPipeline(OFType.PORT_STATUS));
        }
    }

    @Test
    void aServiceWithoutMessageTypesOrWithAnUnknownOneReceivesNothingElse() {
        try (var fx = ControllerFixture.start()) {
            fx.controller.addMessageListenerService(new RecordingListener("nothing"), Map.of());
            fx.controller.addMessageListenerService(new RecordingListener("some"),
                    Map.of("beacon.listener.types", new String[] {"PACKET_IN", "NO_SUCH_TYPE"}));
            for (var type : OFType.values()) {
                assertEquals(type == OFType.PACKET_IN ? List.of("some") : List.of(), fx.controller.getPipeline(type));
            }
        }
    }

    @Test
    void switchListenerServicesAreToldInTheirDeclaredOrder() {
        try (var fx = ControllerFixture.start()) {
            var calls = new ArrayList<String>();
            fx.controller.addSwitchListenerService(switchListener("second", calls), Map.of("beacon.listener.after", "first"));
            fx.controller.addSwitchListenerService(switchListener("first", calls), Map.of());
            fx.connectActive(1);
            // The fixture's own recorder is told first (it came first): wait for the two after it.
            ControllerFixture.awaitTrue("both switch listeners told", WAIT, () -> {
                synchronized (calls) {
                    return calls.size() == 2;
                }
            });
            synchronized (calls) {
                assertEquals(List.of("first", "second"), calls);
            }
        }
    }

    private static IOFSwitchListener switchListener(String name, List<String> calls) {
        return new IOFSwitchListener() {
            @Override
            public String getName() {
                return name;
            }

            @Override
            public void addedSwitch(IOFSwitch sw) {
                synchronized (calls) {
                    calls.add(name);
                }
            }

            @Override
            public void removedSwitch(IOFSwitch sw) {
            }
        };
    }

    @Test
    void listenersShareOneDecodedFrameAndTheContextSlotsOfOneMessageOnly() {
        try (var fx = ControllerFixture.start()) {
            var seen = new ArrayList<String>();
            var frames = new ArrayList<Frame>();
            fx.controller.addOFMessageListener(OFType.PACKET_IN, listener("first", (sw, msg, ctx) -> {
                synchronized (seen) {
                    seen.add("first saw " + ctx.get(NOTE));
                    frames.add(ctx.frame());
                }
                ctx.put(NOTE, "src " + Long.toHexString(ctx.frame().dlSrc()));
                return Command.CONTINUE;
            }));
            var done = new RecordingListener("last");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, listener("second", (sw, msg, ctx) -> {
                synchronized (seen) {
                    seen.add("second saw " + ctx.get(NOTE));
                    frames.add(ctx.frame());
                }
                return Command.CONTINUE;
            }));
            fx.controller.addOFMessageListener(OFType.PACKET_IN, done);
            var c = fx.connectActive(1);
            var frame = FakeSwitch.frame(64, 7);
            long src = ((frame[6] & 0xffL) << 40) | ((frame[7] & 0xffL) << 32) | ((frame[8] & 0xffL) << 24)
                    | ((frame[9] & 0xffL) << 16) | ((frame[10] & 0xffL) << 8) | (frame[11] & 0xffL);
            c.fake().send(c.fake().packetIn(1, frame), c.fake().packetIn(1, frame));
            done.await(WAIT);
            done.await(WAIT);
            synchronized (seen) {
                assertEquals(List.of("first saw null", "second saw src " + Long.toHexString(src),
                        "first saw null", "second saw src " + Long.toHexString(src)), seen);
                // One view per I/O thread, re-aimed at each PACKET_IN: no allocation per message.
                assertSame(frames.get(0), frames.get(1));
                assertSame(frames.get(0), frames.get(2));
            }
        }
    }

    @Test
    void switchLocalStateIsPerSwitchMadeOnFirstUseAndClearedForAStoppingApplication() throws Exception {
        try (var fx = ControllerFixture.start()) {
            var counter = new SwitchLocal<int[]>("counter", () -> new int[1]);
            var a = fx.connectActive(1);
            var b = fx.connectActive(2);
            assertEquals(1, onIoThread(a.sw(), () -> ++a.sw().getLocal(counter)[0]));
            assertEquals(2, onIoThread(a.sw(), () -> ++a.sw().getLocal(counter)[0]));
            assertEquals(1, onIoThread(b.sw(), () -> ++b.sw().getLocal(counter)[0]));

            fx.controller.clearLocal(counter);
            assertEquals(1, onIoThread(a.sw(), () -> ++a.sw().getLocal(counter)[0]), "a fresh value after clearing");
            var none = new SwitchLocal<String>("none", null);
            assertEquals(null, onIoThread(a.sw(), () -> a.sw().getLocal(none)));
            onIoThread(a.sw(), () -> {
                a.sw().setLocal(none, "x");
                return null;
            });
            assertEquals("x", onIoThread(a.sw(), () -> a.sw().removeLocal(none)));
            assertTrue(onIoThread(a.sw(), () -> a.sw().getLocal(none) == null));
        }
    }

    /** Records, per connection, the calls a switch listener got and whether each came on the switch's I/O thread. */
    private static final class Told implements IOFSwitchListener {
        final Map<IOFSwitch, List<String>> calls = new java.util.concurrent.ConcurrentHashMap<>();
        final List<String> wrongThread = java.util.Collections.synchronizedList(new ArrayList<>());

        @Override
        public void addedSwitch(IOFSwitch sw) {
            record(sw, "added");
        }

        @Override
        public void removedSwitch(IOFSwitch sw) {
            record(sw, "removed");
        }

        private void record(IOFSwitch sw, String call) {
            if (!((SwitchConnection) sw).loop().threadName().equals(Thread.currentThread().getName())) {
                wrongThread.add(call + " " + sw.getId() + " on " + Thread.currentThread().getName());
            }
            calls.computeIfAbsent(sw, k -> java.util.Collections.synchronizedList(new ArrayList<>())).add(call);
        }

        List<String> of(IOFSwitch sw) {
            return List.copyOf(calls.getOrDefault(sw, List.of()));
        }
    }

    @Test
    void aSwitchListenerAddedWhileSwitchesAreConnectedIsToldOfEachOnceAndForgottenWhenRemoved() {
        try (var fx = ControllerFixture.start("controller.threadCount=2")) {
            var a = fx.connectActive(1);
            var b = fx.connectActive(2);
            var told = fx.addSwitchListener(new Told());
            assertEquals(List.of("added"), told.of(a.sw()));
            assertEquals(List.of("added"), told.of(b.sw()));
            a.fake().close();
            fx.awaitEvent(ControllerFixture.Kind.REMOVED, 1);
            ControllerFixture.awaitTrue("removedSwitch", WAIT, () -> told.of(a.sw()).size() == 2);
            assertEquals(List.of("added", "removed"), told.of(a.sw()));

            fx.controller.removeOFSwitchListener(told);
            b.fake().close();
            fx.awaitEvent(ControllerFixture.Kind.REMOVED, 2);
            var c = fx.connectActive(3);
            // Added again, it hears of the switches connected now, and only of those.
            fx.addSwitchListener(told);
            assertEquals(List.of("added"), told.of(b.sw()), "a removed listener hears nothing");
            assertEquals(List.of("added"), told.of(c.sw()));
            assertEquals(3, told.calls.size());
            assertEquals(List.of(), told.wrongThread);
        }
    }

    /**
     * Listeners come and go while switches connect and disconnect on two I/O threads: every listener hears of each
     * connection at most once, {@code removedSwitch} only after {@code addedSwitch}, and the one left at the end has
     * heard of every switch still connected.
     */
    @Test
    void listenersAddedWhileSwitchesComeAndGoHearOfEachConnectionOnceAndInOrder() throws Exception {
        try (var fx = ControllerFixture.start("controller.threadCount=2")) {
            var listeners = new ArrayList<Told>();
            var fakes = new ArrayList<FakeSwitch>();
            for (int round = 0; round < 10; round++) {
                for (long dpid = round * 6L + 1; dpid <= round * 6L + 6; dpid++) {
                    fakes.add(fx.connect(dpid, FakeSwitch.port(1, "eth1")).hello());
                }
                var l = new Told();
                listeners.add(l);
                fx.controller.addOFSwitchListener(l);
                if (round > 0) {
                    // A switch of the round before leaves while this round's connect.
                    var leaving = fakes.get((round - 1) * 6);
                    fx.awaitEvent(ControllerFixture.Kind.ADDED, leaving.dpid());
                    leaving.close();
                }
                if (round % 3 == 2) {
                    fx.controller.removeOFSwitchListener(listeners.get(round - 1));
                }
            }
            for (var f : fakes) {
                // The ADDED of a switch that left was taken above.
                fx.awaitEvent(f.isClosed() ? ControllerFixture.Kind.REMOVED : ControllerFixture.Kind.ADDED, f.dpid());
            }
            var connected = fx.controller.getSwitches().values();
            assertEquals(fakes.stream().filter(f -> !f.isClosed()).count(), connected.size());
            var last = listeners.get(listeners.size() - 1);
            ControllerFixture.awaitTrue("the last listener told of every connected switch", WAIT,
                    () -> connected.stream().allMatch(sw -> told(last, sw)));
            for (var l : listeners) {
                for (var e : l.calls.entrySet()) {
                    var calls = e.getValue();
                    assertTrue(calls.equals(List.of("added")) || calls.equals(List.of("added", "removed")),
                            "switch " + e.getKey().getId() + ": " + calls);
                }
                assertEquals(List.of(), l.wrongThread);
            }
            for (var sw : connected) {
                assertEquals(List.of("added"), last.of(sw));
            }
        }
    }

    private static boolean told(Told l, IOFSwitch sw) {
        return l.of(sw).equals(List.of("added"));
    }

    private static <T> T onIoThread(IOFSwitch sw, java.util.function.Supplier<T> work) throws Exception {
        var result = new CompletableFuture<T>();
        sw.execute(() -> result.complete(work.get()));
        return result.get(WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }
}
