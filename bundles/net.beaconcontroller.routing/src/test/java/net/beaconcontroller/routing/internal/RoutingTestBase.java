package net.beaconcontroller.routing.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;

import net.beaconcontroller.core.IRoleArbiter;
import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.routing.internal.Counters.Event;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;

/** Routing against a real controller on loopback, scripted switches and fakes of the services it uses. */
abstract class RoutingTestBase {
    static final long A = 0x0a;
    static final long B = 0x0b;
    static final int IP_A = IPv4Address.parse("10.0.0.1");
    static final int IP_B = IPv4Address.parse("10.0.0.2");

    final FakeNetwork net = new FakeNetwork();
    final Map<Long, FakeSwitch> fakes = new HashMap<>();
    ControllerFixture fx;
    Routing routing;
    /** Set before {@link #start}: the cluster's arbiter as this member sees it; {@code null}: Beacon alone. */
    IRoleArbiter arbiter;

    @AfterEach
    void stop() {
        if (fx != null) {
            fx.close();
        }
    }

    Routing start(FakeNetwork network, String[] settings, long... dpids) {
        fx = ControllerFixture.start("controller.threadCount=1", "controller.preExistingFlows=KEEP");
        if (arbiter != null) {
            fx.controller.setRoleArbiter(arbiter);
        }
        routing = new Routing(network.recording(fx.controller), network.topology, network.devices,
                Configs.of(Routing.Config.class, settings));
        fx.controller.addOFMessageListener(OFType.PACKET_IN, network.deviceTagger);
        fx.controller.addOFMessageListener(OFType.PACKET_IN, network.recorded(routing));
        for (long dpid : dpids) {
            var fake = fx.connect(dpid, FakeSwitch.port(1, "p1"), FakeSwitch.port(2, "p2"), FakeSwitch.port(3, "p3"),
                    FakeSwitch.port(4, "p4"));
            if (arbiter != null) {
                fake.answeringRoles();
            }
            fx.handshake(fake);
            fakes.put(dpid, fake);
        }
        return routing;
    }

    /** A unicast IPv4 frame (content otherwise arbitrary) from {@code src} to {@code dst}. */
    static byte[] frame(long dst, long src) {
        var f = FakeSwitch.frame(80, (int) (dst * 7 + src));
        MacAddress.toBytes(dst, f, 0);
        MacAddress.toBytes(src, f, 6);
        return f;
    }

    static OFMatch exact(byte[] frame, int inPort) {
        return OFMatch.fromFrame(new Frame().wrap(ByteBuffer.wrap(frame)), inPort);
    }

    FakeSwitch fake(long dpid) {
        return fakes.get(dpid);
    }

    void packetIn(long dpid, int inPort, byte[] frame) {
        var fake = fakes.get(dpid);
        fake.send(fake.packetIn(inPort, frame));
    }

    OFFlowMod added(long dpid) {
        return fakes.get(dpid).expect(OFType.FLOW_MOD, m -> ((OFFlowMod) m).command() == OFFlowMod.Command.ADD,
                WAIT);
    }

    static List<OFAction> out(int port) {
        return List.of(new OFActionOutput(port, 0));
    }

    static Set<OFAction> outs(int... ports) {
        var s = new HashSet<OFAction>();
        for (int p : ports) {
            s.add(new OFActionOutput(p, 0));
        }
        return s;
    }

    void awaitCount(Event e, long n) {
        ControllerFixture.awaitTrue(e + " = " + n, WAIT, () -> routing.counters().get(e) == n);
    }
}
