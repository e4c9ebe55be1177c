package net.beaconcontroller.devicemanager.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IScheduler;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.SwitchPort;
import net.beaconcontroller.util.IPv4Address;

/** The device manager in the real controller's pipeline, with scripted switches on loopback. */
class DeviceManagerControllerTest {
    private static final long H1 = 0x0200_0000_0011L;
    private static final long H2 = 0x0200_0000_0022L;
    private static final int IP1 = IPv4Address.parse("10.0.1.1");
    private static final int IP2 = IPv4Address.parse("10.0.1.2");
    private static final Duration WAIT = ControllerFixture.WAIT;

    /** What routing would read: the hosts the device manager left in the context. */
    private static final class ContextReader extends RecordingListener {
        final LinkedBlockingQueue<Optional<Device>[]> seen = new LinkedBlockingQueue<>();

        ContextReader() {
            super("routing");
        }

        @Override
        @SuppressWarnings("unchecked")
        public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
            seen.add(new Optional[] {Optional.ofNullable(ctx.get(IDeviceManager.SRC_DEVICE)),
                Optional.ofNullable(ctx.get(IDeviceManager.DST_DEVICE))});
            return super.receive(sw, msg, ctx);
        }
    }

    private ControllerFixture fx;
    private DeviceManager dm;
    private final ContextReader routing = new ContextReader();

    @BeforeEach
    void setUp() {
        fx = ControllerFixture.start("controller.threadCount=2");
        ITopology allEdge = Harness.proxy(ITopology.class, (name, args) -> switch (name) {
            case "isEdgePort" -> true;
            default -> throw new UnsupportedOperationException(name);
        });
        IScheduler scheduler = Harness.proxy(IScheduler.class, (name, args) -> null);
        dm = new DeviceManager(allEdge, scheduler, null, Configs.of(DeviceManager.Config.class));
        fx.controller.addOFMessageListener(OFType.PACKET_IN, dm);
        fx.controller.addOFSwitchListener(dm);
        fx.controller.addOFMessageListener(OFType.PACKET_IN, routing);
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void learnsHostsOnTwoSwitchesAndHandsThemToTheNextListener() throws InterruptedException {
        var s1 = fx.connectActive(1);
        var s2 = fx.connectActive(2);
        s1.fake().send(s1.fake().packetIn(1, Frames.udp(H1, H2, IP1, IP2)));
        s2.fake().send(s2.fake().packetIn(2, Frames.arpReply(H2, IP2, H1, IP1)));
        ControllerFixture.awaitTrue("both hosts learned", WAIT, () -> dm.getDevices().size() == 2);
        assertEquals(new SwitchPort(1, 1), dm.getDevice(H1, Device.NO_VLAN).orElseThrow().attachment());
        assertEquals(new SwitchPort(2, 2), dm.getDevicesByIpv4(IP2).iterator().next().attachment());

        drain();
        s1.fake().send(s1.fake().packetIn(1, Frames.udp(H1, H2, IP1, IP2)));
        var hosts = routing.seen.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertEquals(H1, hosts[0].orElseThrow().mac());
        assertEquals(H2, hosts[1].orElseThrow().mac());
        assertEquals(new SwitchPort(2, 2), hosts[1].orElseThrow().attachment());
    }

    /** The flows a move leaves wrong are routing's to delete (see its FlowCleanup). */
    @Test
    void aMoveWritesNoFlow() {
        var s1 = fx.connectActive(1);
        var s2 = fx.connectActive(2);
        s1.fake().send(s1.fake().packetIn(1, Frames.udp(H1, H2, IP1, IP2)));
        ControllerFixture.awaitTrue("H1 learned", WAIT, () -> dm.getDevice(H1, Device.NO_VLAN).isPresent());
        var fakes = List.of(s1.fake(), s2.fake());
        for (var fake : fakes) {
            // The handshake's: pre-existing flows deleted.
            for (long n = fake.count(OFType.FLOW_MOD); n > 0; n--) {
                fake.expect(OFType.FLOW_MOD, WAIT);
            }
        }
        s2.fake().send(s2.fake().packetIn(1, Frames.udp(H1, H2, IP1, IP2)));
        ControllerFixture.awaitTrue("H1 moved", WAIT,
                () -> dm.getDevice(H1, Device.NO_VLAN).orElseThrow().attachment().equals(new SwitchPort(2, 1)));
        // Counted as it is told, on the I/O thread, a moment after the store shows it.
        ControllerFixture.awaitTrue("the move counted", WAIT, () -> dm.getCounters().moves() > 0);
        assertEquals(1, dm.getCounters().moves());
        for (var fake : fakes) {
            fake.expectNone(OFType.FLOW_MOD, Duration.ofMillis(200));
        }
    }

    @Test
    void aSwitchThatDisconnectsTakesItsHostsAlong() {
        var s1 = fx.connectActive(1);
        s1.fake().send(s1.fake().packetIn(2, Frames.udp(H1, H2, IP1, IP2)));
        ControllerFixture.awaitTrue("H1 learned", WAIT, () -> dm.getDevice(H1, Device.NO_VLAN).isPresent());
        s1.fake().close();
        ControllerFixture.awaitTrue("H1 gone with its switch", WAIT, () -> dm.getDevices().isEmpty());
    }

    private void drain() {
        routing.seen.clear();
    }
}
