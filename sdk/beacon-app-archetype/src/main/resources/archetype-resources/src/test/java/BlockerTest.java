#set( $pid = $artifactId.replaceAll("[^A-Za-z0-9]", "") )
package ${package};

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.util.IPv4Address;

/** The app against a real controller on loopback and a scripted switch; a listener after it sees what it lets by. */
class BlockerTest {
    @Test
    void packetsToTheBlockedAddressStopHereOthersGoOn() {
        try (var fx = ControllerFixture.start()) {
            var app = new Blocker(Configs.of(Blocker.Config.class, "${pid}.blocked=10.0.0.9"));
            var next = new RecordingListener("next");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, app);
            fx.controller.addOFMessageListener(OFType.PACKET_IN, next);
            var c = fx.connectActive(1);

            // One switch's messages are handled in order: what reaches the next listener first is what passed.
            c.fake().send(c.fake().packetIn(1, ipv4To("10.0.0.9")));
            c.fake().send(c.fake().packetIn(2, ipv4To("10.0.0.3")));
            assertEquals(2, ((OFPacketIn) next.await(WAIT).msg()).inPort());
        }
    }

    @Test
    void aBadAddressIsASettingError() {
        assertThrows(SettingException.class,
                () -> new Blocker(Configs.of(Blocker.Config.class, "${pid}.blocked=10.0.0.300")));
    }

    /** An Ethernet frame carrying an IPv4 header towards {@code dst}. */
    private static byte[] ipv4To(String dst) {
        byte[] frame = FakeSwitch.frame(64, 1);
        frame[14] = 0x45; // version 4, 20-byte header
        frame[16] = 0;
        frame[17] = 50; // total length: the 50 bytes after the Ethernet header
        System.arraycopy(IPv4Address.toBytes(IPv4Address.parse(dst)), 0, frame, 30, 4);
        return frame;
    }
}
