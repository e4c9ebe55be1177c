package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.openflow.OFEchoReply;
import net.beaconcontroller.openflow.OFEchoRequest;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFType;

/** The listener pipeline: order, STOP, failing listeners, removal. */
class PipelineTest {

    /** A listener that appends its name to a shared trace; returns STOP for packets that came in on {@code stopPort}. */
    private static IOFMessageListener tracing(String name, List<String> trace, int stopPort) {
        return new IOFMessageListener() {
            @Override
            public String getName() {
                return name;
            }

            @Override
            public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
                synchronized (trace) {
                    trace.add(name);
                }
                return ((OFPacketIn) msg).inPort() == stopPort ? Command.STOP : Command.CONTINUE;
            }
        };
    }

    @Test
    void callbackOrderingPutsNamedListenersFirstInTheConfiguredOrderAndStopEndsThePipeline() {
        try (var fx = ControllerFixture.start("controller.callbackOrdering[PACKET_IN]=b,a")) {
            var trace = new ArrayList<String>();
            // Registration order deliberately differs from the configured one; x and y are not named in it.
            fx.controller.addOFMessageListener(OFType.PACKET_IN, tracing("x", trace, -1));
            fx.controller.addOFMessageListener(OFType.PACKET_IN, tracing("a", trace, 2));
            fx.controller.addOFMessageListener(OFType.PACKET_IN, tracing("y", trace, -1));
            fx.controller.addOFMessageListener(OFType.PACKET_IN, tracing("b", trace, -1));
            var last = new RecordingListener("z");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, last);
            assertEquals(List.of("b", "a", "x", "y", "z"), fx.controller.getPipeline(OFType.PACKET_IN));
            // Other types are not affected by the PACKET_IN ordering.
            fx.controller.addOFMessageListener(OFType.PORT_STATUS, tracing("a", new ArrayList<>(), -1));
            fx.controller.addOFMessageListener(OFType.PORT_STATUS, tracing("z", new ArrayList<>(), -1));
            fx.controller.addOFMessageListener(OFType.PORT_STATUS, tracing("b", new ArrayList<>(), -1));
            assertEquals(List.of("a", "z", "b"), fx.controller.getPipeline(OFType.PORT_STATUS));

            var c = fx.connectActive(1);
            c.fake().send(c.fake().packetIn(1, FakeSwitch.frame(64, 1)));
            last.await(WAIT);
            synchronized (trace) {
                // z (a recorder, not in the trace) comes last: it was called, so the others ran before it.
                assertEquals(List.of("b", "a", "x", "y"), trace);
                trace.clear();
            }

            // "a" stops packets from port 2: x, y and z never see it. The next packet proves it was handled.
            c.fake().send(c.fake().packetIn(2, FakeSwitch.frame(64, 2)), c.fake().packetIn(1, FakeSwitch.frame(64, 3)));
            assertEquals(1, ((OFPacketIn) last.await(WAIT).msg()).inPort());
            synchronized (trace) {
                assertEquals(List.of("b", "a", "b", "a", "x", "y"), trace);
            }
            assertEquals(0, last.pending());
        }
    }

    @Test
    void orderingHoldsWhateverTheRegistrationOrder() {
        try (var fx = ControllerFixture.start("controller.callbackOrdering[PACKET_IN]=b,a")) {
            var trace = new ArrayList<String>();
            fx.controller.addOFMessageListener(OFType.PACKET_IN, tracing("b", trace, -1));
            fx.controller.addOFMessageListener(OFType.PACKET_IN, tracing("q", trace, -1));
            var a = tracing("a", trace, -1);
            fx.controller.addOFMessageListener(OFType.PACKET_IN, a);
            assertEquals(List.of("b", "a", "q"), fx.controller.getPipeline(OFType.PACKET_IN));
            // Removing and re-adding a named listener puts it back in its configured place.
            fx.controller.removeOFMessageListener(OFType.PACKET_IN, a);
            assertEquals(List.of("b", "q"), fx.controller.getPipeline(OFType.PACKET_IN));
            fx.controller.addOFMessageListener(OFType.PACKET_IN, a);
            assertEquals(List.of("b", "a", "q"), fx.controller.getPipeline(OFType.PACKET_IN));
        }
    }

    @Test
    void aListenerThatThrowsDoesNotStopTheNextOneNorTheIoThread() {
        try (var fx = ControllerFixture.start("controller.threadCount=1")) {
            var calls = new AtomicInteger();
            fx.controller.addOFMessageListener(OFType.PACKET_IN, new IOFMessageListener() {
                @Override
                public String getName() {
                    return "thrower";
                }

                @Override
                public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
                    switch (calls.getAndIncrement()) {
                        case 0 -> throw new IllegalStateException("listener bug");
                        case 1 -> throw new AssertionError("assertion in a listener");
                        case 2 -> throw new StackOverflowError("deep recursion in a listener");
                        default -> {
                            return Command.CONTINUE;
                        }
                    }
                }
            });
            var second = new RecordingListener("second");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, second);

            var c = fx.connectActive(1);
            for (int i = 0; i < 4; i++) {
                byte[] frame = FakeSwitch.frame(100 + i, i);
                c.fake().send(c.fake().packetIn(i + 1, frame));
                var call = second.await(WAIT);
                assertEquals(i + 1, ((OFPacketIn) call.msg()).inPort());
                assertArrayEquals(frame, ((OFPacketIn) call.msg()).frameBytes());
                assertEquals("beacon-io-0", call.thread());
            }
            assertEquals(4, calls.get());
            assertTrue(c.sw().isConnected());
            // The I/O thread still answers, and a new switch can still connect.
            c.fake().send(new OFEchoRequest(5));
            assertEquals(5, c.fake().<OFEchoReply>expect(OFType.ECHO_REPLY, WAIT).xid());
            fx.connectActive(2);
        }
    }

    /**
     * Once {@code removeOFMessageListener} returns, the listener is never called again, even while a switch floods the
     * controller with PACKET_INs. Each round adds a fresh listener, waits until it is called, removes it, and then
     * lets a permanent witness listener see plenty of further packets. The witness runs first and takes a little
     * time per packet, which widens the window in which a dispatch that began before the removal could still reach the
     * removed listener.
     */
    @Test
    void aRemovedListenerIsNeverCalledAfterRemoveReturns() throws Exception {
        try (var fx = ControllerFixture.start("controller.callbackOrdering[PACKET_IN]=witness,transient")) {
            var witnessCount = new AtomicLong();
            fx.controller.addOFMessageListener(OFType.PACKET_IN, new IOFMessageListener() {
                @Override
                public String getName() {
                    return "witness";
                }

                @Override
                public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
                    long until = System.nanoTime() + 20_000;
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    witnessCount.incrementAndGet();
                    return Command.CONTINUE;
                }
            });
            var c = fx.connectActive(1);
            var stop = new AtomicBoolean();
            var sendFailure = new ConcurrentLinkedQueue<Throwable>();
            var flood = new Thread(() -> {
                var batch = new OFMessage[16];
                try {
                    while (!stop.get()) {
                        for (int i = 0; i < batch.length; i++) {
                            batch[i] = c.fake().packetIn(1, FakeSwitch.frame(80, i));
                        }
                        c.fake().send(batch);
                    }
                } catch (RuntimeException e) {
                    sendFailure.add(e);
                }
            }, "packet-in-flood");
            flood.start();
            try {
                for (int round = 0; round < 20; round++) {
                    var callTimes = new ConcurrentLinkedQueue<Long>();
                    var listener = new IOFMessageListener() {
                        @Override
                        public String getName() {
                            return "transient";
                        }

                        @Override
                        public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
                            callTimes.add(System.nanoTime());
                            return Command.CONTINUE;
                        }
                    };
                    fx.controller.addOFMessageListener(OFType.PACKET_IN, listener);
                    ControllerFixture.awaitTrue("the new listener is called", WAIT, () -> !callTimes.isEmpty());
                    fx.controller.removeOFMessageListener(OFType.PACKET_IN, listener);
                    long removedAt = System.nanoTime();
                    long seen = witnessCount.get();
                    ControllerFixture.awaitTrue("packets keep flowing after the removal", WAIT,
                            () -> witnessCount.get() > seen + 200);
                    for (long t : callTimes) {
                        assertTrue(t < removedAt, "round " + round + ": the listener was called "
                                + (t - removedAt) / 1000 + " us after removeOFMessageListener returned");
                    }
                }
            } finally {
                stop.set(true);
                flood.join(5000);
            }
            assertTrue(sendFailure.isEmpty(), () -> "the flood stopped early: " + sendFailure);
            assertTrue(c.sw().isConnected());
        }
    }
}
