package net.beaconcontroller.maple.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.maple.Route;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.topology.SwitchPort;

/** The component against a real controller and a scripted switch: the loop thread, the writes, stopping. */
class MapleRuntimeTest {
    private static final long A = 0x0a;
    private static final long B = 0x0b;

    private final FakeNetwork net = FakeNetwork.oneSwitch(0);
    private ControllerFixture fx;
    private MapleRuntime maple;

    @AfterEach
    void stop() {
        fx.close();
    }

    /** The device manager's view of {@link #net}'s hosts. */
    private IDeviceManager devices() {
        return new IDeviceManager() {
            private Device device(long mac, SwitchPort at) {
                return new Device(mac, Device.NO_VLAN, Set.of(), at, Instant.EPOCH, Instant.EPOCH);
            }

            @Override
            public Collection<Device> getDevices() {
                return net.hosts.entrySet().stream().map(e -> device(e.getKey(), e.getValue())).toList();
            }

            @Override
            public Optional<Device> getDevice(long mac, int vlan) {
                return getDevicesByMac(mac).stream().findFirst();
            }

            @Override
            public Collection<Device> getDevicesByMac(long mac) {
                var at = net.hosts.get(mac);
                return at == null ? List.of() : List.of(device(mac, at));
            }

            @Override
            public Collection<Device> getDevicesByIpv4(int ipv4) {
                return List.of();
            }

            @Override
            public Collection<Device> getDevicesAt(SwitchPort port) {
                return getDevices().stream().filter(d -> d.attachment().equals(port)).toList();
            }

            @Override
            public Collection<Device> getDevicesOn(long dpid) {
                return getDevices().stream().filter(d -> d.attachment().dpid() == dpid).toList();
            }
        };
    }

    @Test
    void aPolicyServiceRoutesPacketsWithRulesAndItsRulesGoWhenItStops() {
        net.hosts.put(A, new SwitchPort(1, 1));
        net.hosts.put(B, new SwitchPort(1, 2));
        fx = ControllerFixture.start("controller.threadCount=1");
        maple = new MapleRuntime(fx.controller, new FakeTopology(net), devices());
        maple.bindPolicy((p, env) -> env.hostLocation(p.dlDst()).map(
                at -> (Route) new Route.Forward(List.of(new Route.Hop(at.dpid(), at.port())))).orElse(Route.DROP));
        fx.controller.addOFMessageListener(OFType.PACKET_IN, maple);
        fx.controller.addOFSwitchListener(maple);
        var fake = fx.connect(1, FakeSwitch.port(1, "p1"), FakeSwitch.port(2, "p2"));
        fx.handshake(fake);

        var frame = Frames.tcp(A, B, 1000, 80);
        fake.send(fake.packetIn(1, frame));
        OFFlowMod add = fake.expect(OFType.FLOW_MOD, m -> ((OFFlowMod) m).command() == OFFlowMod.Command.ADD, WAIT);
        assertEquals(OFMatch.parse("dl_dst=00:00:00:00:00:0b"), add.match());
        assertEquals(List.of(OFActionOutput.to(2)), add.actions());
        assertTrue(FlowOwner.MAPLE.owns(add.cookie()), "Maple's cookie");
        OFPacketOut out = fake.expect(OFType.PACKET_OUT, WAIT);
        assertEquals(List.of(OFActionOutput.to(2)), out.actions());
        assertEquals(frame.length, out.dataLength());

        maple.deactivate();
        OFFlowMod delete = fake.expect(OFType.FLOW_MOD,
                m -> ((OFFlowMod) m).command() == OFFlowMod.Command.DELETE_STRICT, WAIT);
        assertEquals(add.match(), delete.match());
        assertEquals(add.priority(), delete.priority());
    }
}
