package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.ListenerStats;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFType;

/** What the controller counts per listener and per I/O thread, as /metrics reports it. */
class MetersTest {
    private static IOFMessageListener listener(String name, AtomicInteger seen, int failOnPort, int stopOnPort) {
        return new IOFMessageListener() {
            @Override
            public String getName() {
                return name;
            }

            @Override
            public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
                seen.incrementAndGet();
                int port = ((OFPacketIn) msg).inPort();
                if (port == failOnPort) {
                    throw new IllegalStateException("test failure");
                }
                return port == stopOnPort ? Command.STOP : Command.CONTINUE;
            }
        };
    }

    private static ListenerStats stats(ControllerFixture fx, String name) {
        return fx.controller.getListenerStats().stream().filter(s -> s.listener().equals(name)).findFirst()
                .orElseThrow();
    }

    @Test
    void callsErrorsAndSampledTimesPerListener() {
        try (var fx = ControllerFixture.start()) {
            var first = new AtomicInteger();
            var second = new AtomicInteger();
            fx.controller.addOFMessageListener(OFType.PACKET_IN, listener("first", first, 3, 2));
            fx.controller.addOFMessageListener(OFType.PACKET_IN, listener("second", second, -1, -1));
            var c = fx.connectActive(1);
            // 256 from port 1 reach both; 10 from port 2 stop at the first; 6 from port 3 fail in the first (the
            // pipeline goes on to the second).
            for (int i = 0; i < 256; i++) {
                c.fake().send(c.fake().packetIn(1, FakeSwitch.frame(64, i)));
            }
            for (int i = 0; i < 10; i++) {
                c.fake().send(c.fake().packetIn(2, FakeSwitch.frame(64, i)));
            }
            for (int i = 0; i < 6; i++) {
                c.fake().send(c.fake().packetIn(3, FakeSwitch.frame(64, i)));
            }
            ControllerFixture.awaitTrue("all packets handled", WAIT, () -> second.get() == 262);
            var a = stats(fx, "first");
            assertEquals(OFType.PACKET_IN, a.type());
            assertEquals(272, a.calls());
            assertEquals(6, a.errors());
            var b = stats(fx, "second");
            assertEquals(262, b.calls());
            assertEquals(0, b.errors());
            // One dispatch in 64 is timed; a failed call has no time.
            assertTrue(a.timedCalls() >= 3 && a.timedCalls() <= 272 / 64, a.toString());
            assertTrue(b.timedCalls() >= 3 && b.timedCalls() <= 272 / 64, b.toString());
            assertTrue(a.timedNanos() > 0, a.toString());
        }
    }

    @Test
    void countsSurvivePipelineChangesAndLeaveWithTheListener() {
        try (var fx = ControllerFixture.start()) {
            var seen = new AtomicInteger();
            var kept = listener("kept", seen, -1, -1);
            fx.controller.addOFMessageListener(OFType.PACKET_IN, kept);
            var c = fx.connectActive(1);
            c.fake().send(c.fake().packetIn(1, FakeSwitch.frame(64, 1)));
            ControllerFixture.awaitTrue("handled", WAIT, () -> seen.get() == 1);
            var other = listener("other", new AtomicInteger(), -1, -1);
            fx.controller.addOFMessageListener(OFType.PACKET_IN, other);
            assertEquals(1, stats(fx, "kept").calls());
            assertEquals(0, stats(fx, "other").calls());
            fx.controller.removeOFMessageListener(OFType.PACKET_IN, other);
            assertTrue(fx.controller.getListenerStats().stream().noneMatch(s -> s.listener().equals("other")));
        }
    }

    @Test
    void ioLoopsReportTheirSwitchesAndABusyRatio() {
        try (var fx = ControllerFixture.start("controller.threadCount=2")) {
            fx.connectActive(1);
            fx.connectActive(2);
            var loops = fx.controller.getIoLoopStats();
            assertEquals(2, loops.size());
            assertEquals(2, loops.stream().mapToInt(l -> l.switches()).sum());
            ControllerFixture.awaitTrue("busy time measured", WAIT,
                    () -> fx.controller.getIoLoopStats().stream().allMatch(l -> l.busyNanos() > 0));
            for (var l : fx.controller.getIoLoopStats()) {
                assertTrue(l.busyRatio() >= 0 && l.busyRatio() <= 1, l.toString());
                assertTrue(l.thread().startsWith("beacon-io-"), l.toString());
            }
        }
    }
}
