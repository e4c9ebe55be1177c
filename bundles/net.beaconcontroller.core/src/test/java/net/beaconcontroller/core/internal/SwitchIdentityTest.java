package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.ControllerFixture.Kind;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.LogCapture;
import net.beaconcontroller.openflow.OFEchoReply;
import net.beaconcontroller.openflow.OFEchoRequest;
import net.beaconcontroller.openflow.OFType;

/**
 * A second connection claiming the DPID of a switch that is connected and answers echo is refused (Floodlight's
 * #867: there it takes the switch over); {@link LifecycleTest} has the dead first connection that is replaced.
 */
class SwitchIdentityTest {

    @ParameterizedTest(name = "threadCount={0}")
    @ValueSource(ints = {1, 2})
    void aClaimOnALiveSwitchIsRefusedAndLoggedWithBothAddresses(int threads) {
        try (var fx = ControllerFixture.start("controller.threadCount=" + threads);
                var log = LogCapture.of(SwitchIdentity.class)) {
            var holder = fx.connectActive(0x42);
            var impostor = fx.connect(0x42, FakeSwitch.port(9, "evil9")).hello();

            impostor.awaitClosed(WAIT);
            assertTrue(holder.sw().isConnected());
            assertSame(holder.sw(), fx.controller.getSwitches().get(0x42L));
            assertEquals(List.of(1, 2), holder.sw().getPorts().stream().map(p -> p.portNo()).sorted().toList());
            fx.expectNoMoreEvents(Kind.REMOVED, 0x42, 0, Duration.ofMillis(200));
            assertEquals(1, fx.count(Kind.ADDED, 0x42), fx.events().toString());

            var warnings = log.lines("WARN");
            assertEquals(1, warnings.size(), warnings.toString());
            assertEquals("switch 00:00:00:00:00:00:00:42: refused the connection from " + impostor.localAddress()
                    + " that claims it: the switch is connected from " + holder.fake().localAddress()
                    + " and answers echo", warnings.get(0).message());

            // The holder goes on working.
            holder.fake().send(new OFEchoRequest(77));
            assertEquals(77, holder.fake().<OFEchoReply>expect(OFType.ECHO_REPLY, WAIT).xid());
        }
    }

    /** Once the holder has left for good, the DPID is free again: the next connection takes it at once. */
    @ParameterizedTest(name = "threadCount={0}")
    @ValueSource(ints = {1, 2})
    void aRefusedSwitchGetsItsDpidOnceTheHolderHasLeft(int threads) {
        try (var fx = ControllerFixture.start("controller.threadCount=" + threads)) {
            var holder = fx.connectActive(0x43);
            fx.connect(0x43, FakeSwitch.port(9, "evil9")).hello().awaitClosed(WAIT);
            holder.fake().close();
            fx.awaitEvent(Kind.REMOVED, 0x43);

            var next = fx.handshake(fx.connect(0x43, FakeSwitch.port(5, "eth5")));
            assertSame(next, fx.controller.getSwitches().get(0x43L));
            assertEquals(List.of(5), next.getPorts().stream().map(p -> p.portNo()).toList());
        }
    }
}
