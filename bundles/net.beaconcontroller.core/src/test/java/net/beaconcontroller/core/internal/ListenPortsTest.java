package net.beaconcontroller.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;

/** The two OpenFlow ports (6653 and 6633 by default): both served, either off, bad combinations named. */
class ListenPortsTest {

    @Test
    void switchesConnectOnEitherPort() throws IOException {
        try (var fx = ControllerFixture.start("controller.legacyListenPort=0")) {
            var ports = fx.controller.getLocalPorts();
            assertEquals(2, ports.size(), ports.toString());
            assertNotEquals(ports.get(0), ports.get(1));
            var first = fx.track(FakeSwitch.connect(ports.get(0), 1, List.of(FakeSwitch.port(1, "eth1"))));
            var second = fx.track(FakeSwitch.connect(ports.get(1), 2, List.of(FakeSwitch.port(1, "eth1"))));
            assertEquals(1, fx.handshake(first).getId());
            assertEquals(2, fx.handshake(second).getId());
            assertEquals(2, fx.controller.getSwitches().size());
        }
    }

    @Test
    void theIanaPortCanBeOff() throws IOException {
        try (var fx = ControllerFixture.start("controller.listenPort=-1", "controller.legacyListenPort=0")) {
            assertEquals(1, fx.controller.getLocalPorts().size());
            assertEquals(7, fx.connectActive(7).sw().getId());
        }
    }

    @Test
    void bothPortsOffIsRefusedNamingTheKey() {
        var e = assertThrows(SettingException.class, () -> new Controller(Configs.of(ControllerConfig.class,
                "listenPort=-1", "legacyListenPort=-1")));
        assertEquals("controller.listenPort", e.key());
        assertTrue(e.getMessage().contains("controller.legacyListenPort is off"), e.getMessage());
    }

    /** A configuration from before the second port that names controller.listenPort=6633 keeps working. */
    @Test
    void theSamePortTwiceIsListenedOnOnce() throws IOException {
        int port;
        try (var probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = probe.getLocalPort();
        }
        try (var fx = ControllerFixture.start("controller.listenPort=" + port, "controller.legacyListenPort=" + port)) {
            assertEquals(List.of(port), fx.controller.getLocalPorts());
            assertEquals(8, fx.connectActive(8).sw().getId());
        }
    }

    /** The bind error names the address and the key; the port bound before it is released again. */
    @Test
    void aPortThatCannotBeBoundIsNamedWithItsKeyAndTheOtherIsReleased() throws IOException {
        int free;
        try (var probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            free = probe.getLocalPort();
        }
        try (var busy = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            var controller = new Controller(Configs.of(ControllerConfig.class, "listenAddress=127.0.0.1",
                    "listenPort=" + free, "legacyListenPort=" + busy.getLocalPort()));
            var e = assertThrows(BindException.class, controller::start);
            assertTrue(e.getMessage().startsWith("cannot listen on 127.0.0.1:" + busy.getLocalPort()
                    + " (controller.legacyListenPort): "), e.getMessage());
        }
        try (var again = new ServerSocket()) {
            again.setReuseAddress(true);
            again.bind(new InetSocketAddress("127.0.0.1", free));
        }
    }
}
