package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import net.beaconcontroller.core.IOFInitializerListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IRoleArbiter;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.ControllerFixture.Kind;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.LogCapture;
import net.beaconcontroller.openflow.OFData;
import net.beaconcontroller.openflow.OFEchoReply;
import net.beaconcontroller.openflow.OFEchoRequest;
import net.beaconcontroller.openflow.OFError;
import net.beaconcontroller.openflow.OFErrorCode;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * A second connection claiming the DPID of a switch that is connected and alive is refused (Floodlight's #867: there
 * it takes the switch over), before anything is sent to it that changes the switch and before the cluster or any
 * listener hears of it; {@link LifecycleTest} has the dead first connection that is replaced.
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
                    + " and alive", warnings.get(0).message());

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

    /** Gives every switch MASTER and records which switches it was asked about. */
    private static final class RecordingArbiter implements IRoleArbiter {
        final List<IOFSwitch> asked = new CopyOnWriteArrayList<>();

        @Override
        public CompletionStage<NiciraRole> initialRole(IOFSwitch sw) {
            asked.add(sw);
            return CompletableFuture.completedFuture(NiciraRole.MASTER);
        }

        @Override
        public boolean handles(IOFSwitch sw, OFMessage msg) {
            return true;
        }

        @Override
        public void writeThroughMaster(IOFSwitch sw, OFMessage msg) {
            throw new AssertionError("nothing is written through a master here");
        }

        @Override
        public CompletionStage<Void> barrierThroughMaster(IOFSwitch sw, Duration timeout) {
            throw new AssertionError("nothing is written through a master here");
        }
    }

    /**
     * The review's finding: the DPID used to be settled only at the end of the claimant's handshake, after its
     * SET_CONFIG, the role request (with which Open vSwitch demotes the live MASTER connection), the wipe of its flows
     * and the initializers, and after the cluster had been asked for its role. Now a refused claimant gets nothing
     * but HELLO and the features request.
     */
    @Test
    void aRefusedClaimantIsNotConfiguredGivenARoleOrWipedAndNeitherTheClusterNorTheInitializersHearOfIt() {
        try (var fx = ControllerFixture.start("controller.preExistingFlows=DELETE")) {
            var arbiter = new RecordingArbiter();
            fx.controller.setRoleArbiter(arbiter);
            var initialized = new CopyOnWriteArrayList<IOFSwitch>();
            fx.controller.addOFInitializerListener(new IOFInitializerListener() {
                @Override
                public CompletionStage<?> initializeSwitch(IOFSwitch sw) {
                    initialized.add(sw);
                    return CompletableFuture.completedFuture(null);
                }
            });
            var holderFake = fx.connect(0x44, FakeSwitch.port(1, "eth1")).answeringRoles();
            var holder = fx.handshake(holderFake);

            var impostor = fx.connect(0x44, FakeSwitch.port(9, "evil9")).answeringRoles().hello();
            impostor.awaitClosed(WAIT);

            assertEquals(List.of(OFType.HELLO, OFType.FEATURES_REQUEST), impostor.types());
            assertEquals(List.of(holder), arbiter.asked);
            assertEquals(List.of(holder), initialized);
            assertEquals(1, fx.count(Kind.ADDED, 0x44), fx.events().toString());
            assertTrue(holder.isConnected());
            assertEquals(NiciraRole.MASTER, holder.getRole());
        }
    }

    /** A holder busy enough to answer other things before the echo has shown it is alive: it keeps the DPID. */
    @Test
    void anyMessageFromTheHolderDuringTheProbeCountsAsAlive() {
        try (var fx = ControllerFixture.start()) {
            var holder = fx.connectActive(0x45);
            holder.fake().answer(OFType.ECHO_REQUEST,
                    m -> holder.fake().packetIn(1, FakeSwitch.frame(64, m.xid())).toByteArray());
            assertRefused(fx, holder, fx.connect(0x45, FakeSwitch.port(9, "evil9")));
        }
    }

    /** An error in answer to the echo is a sign of life as much as an echo reply. */
    @Test
    void anErrorAnsweringTheEchoCountsAsAlive() {
        try (var fx = ControllerFixture.start()) {
            var holder = fx.connectActive(0x46);
            holder.fake().answer(OFType.ECHO_REQUEST,
                    m -> new OFError(m.xid(), OFErrorCode.BadRequest.BAD_TYPE, OFData.of()).toByteArray());
            assertRefused(fx, holder, fx.connect(0x46, FakeSwitch.port(9, "evil9")));
        }
    }

    /**
     * With the default echo timeout (10 s) the holder has half of it to answer: a switch that answers after 3 s is
     * slow, not dead (the probe used to give up after 2 s and replace it).
     */
    @Test
    void aHolderAnsweringWithinHalfTheEchoTimeoutKeepsItsDpid() {
        var later = Executors.newSingleThreadScheduledExecutor();
        try (var fx = ControllerFixture.start()) {
            var holder = fx.connectActive(0x47);
            holder.fake().answer(OFType.ECHO_REQUEST, m -> {
                later.schedule(() -> holder.fake().send(new OFEchoReply(m.xid(), OFData.of())), 3, TimeUnit.SECONDS);
                return null;
            });
            assertRefused(fx, holder, fx.connect(0x47, FakeSwitch.port(9, "evil9")));
        } finally {
            later.shutdownNow();
        }
    }

    @Test
    void theProbeWindowIsHalfTheEchoTimeoutAndAtMostTenSeconds() {
        assertEquals(Duration.ofSeconds(1), SwitchIdentity.probeWindow(2));
        assertEquals(Duration.ofMillis(1500), SwitchIdentity.probeWindow(3));
        assertEquals(Duration.ofSeconds(5), SwitchIdentity.probeWindow(10));
        assertEquals(Duration.ofSeconds(10), SwitchIdentity.probeWindow(20));
        assertEquals(Duration.ofSeconds(10), SwitchIdentity.probeWindow(3600));
    }

    /** A peer reconnecting in a loop with a connected switch's DPID gets one line per DPID and interval, not one each. */
    @Test
    void refusedClaimsAreLoggedOncePerDpidAndInterval() {
        try (var fx = ControllerFixture.start(); var log = LogCapture.of(SwitchIdentity.class)) {
            var holder = fx.connectActive(0x48);
            var other = fx.connectActive(0x49);
            for (int i = 0; i < 3; i++) {
                fx.connect(0x48, FakeSwitch.port(9, "evil9")).hello().awaitClosed(WAIT);
            }
            fx.connect(0x49, FakeSwitch.port(9, "evil9")).hello().awaitClosed(WAIT);

            var warnings = log.lines("WARN");
            assertEquals(2, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).message().startsWith("switch 00:00:00:00:00:00:00:48: refused"),
                    warnings.toString());
            assertTrue(warnings.get(1).message().startsWith("switch 00:00:00:00:00:00:00:49: refused"),
                    warnings.toString());
            assertTrue(holder.sw().isConnected() && other.sw().isConnected());
        }
    }

    private static void assertRefused(ControllerFixture fx, ControllerFixture.Connected holder, FakeSwitch impostor) {
        impostor.hello().awaitClosed(WAIT.plusSeconds(5));
        assertTrue(holder.sw().isConnected());
        assertSame(holder.sw(), fx.controller.getSwitches().get(holder.fake().dpid()));
        fx.expectNoMoreEvents(Kind.REMOVED, holder.fake().dpid(), 0, Duration.ofMillis(200));
    }
}
