package net.beaconcontroller.hub.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFActionOutput;

/** The hub against a real controller on loopback and a scripted switch. */
class HubTest {
    @Test
    void sendsEveryPacketBackOutOfTheConfiguredPorts() {
        for (var output : Hub.Config.Output.values()) {
            try (var fx = ControllerFixture.start()) {
                fx.controller.addOFMessageListener(OFType.PACKET_IN, new Hub(Configs.of(Hub.Config.class,
                        "hub.output=" + output)));
                var c = fx.connectActive(1);
                c.fake().send(c.fake().packetIn(2, FakeSwitch.frame(64, 1)));
                var out = (OFPacketOut) c.fake().expectReceived(OFType.PACKET_OUT, m -> true, WAIT).msg;
                int port = output == Hub.Config.Output.ALL ? OFPort.ALL : OFPort.FLOOD;
                assertEquals(List.of(new OFActionOutput(port, 0)), out.actions());
                assertEquals(2, out.inPort());
            }
        }
    }
}
