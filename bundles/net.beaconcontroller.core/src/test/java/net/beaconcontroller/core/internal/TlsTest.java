package net.beaconcontroller.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.LogCapture;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.core.test.TestPki;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFType;

/**
 * The TLS listener (controller.tlsListenPort) with certificates made for the test: a switch with a certificate from
 * the configured CA completes the OpenFlow handshake; an untrusted certificate and plaintext are refused, each
 * costing only its own connection; messages larger than a TLS record arrive whole both ways; with
 * controller.tlsSwitchIdentities a certificate claims only the DPIDs it is bound to.
 */
class TlsTest {
    @TempDir
    static Path dir;
    private static TestPki pki;

    @BeforeAll
    static void certificates() {
        pki = TestPki.create(dir);
    }

    private static ControllerFixture start(String... more) {
        var settings = new ArrayList<>(pki.controllerSettings());
        settings.addAll(List.of(more));
        return ControllerFixture.start(settings.toArray(String[]::new));
    }

    /** The TLS port: listed after the plaintext ones. */
    private static int tlsPort(ControllerFixture fx) throws IOException {
        var ports = fx.controller.getLocalPorts();
        return ports.get(ports.size() - 1);
    }

    private static FakeSwitch tlsSwitch(ControllerFixture fx, long dpid) throws IOException {
        var socket = pki.connect(tlsPort(fx), "switch.p12");
        socket.setSoTimeout(0); // the fake switch's reader waits as long as the test needs
        return fx.track(FakeSwitch.over(socket, dpid, List.of(FakeSwitch.port(1, "eth1"))));
    }

    @Test
    void aSwitchWithACertificateFromTheCaCompletesTheHandshakeBesideAPlaintextOne() throws IOException {
        try (var fx = start(); var log = LogCapture.of(TlsTransport.class)) {
            assertEquals(2, fx.controller.getLocalPorts().size());
            var tls = tlsSwitch(fx, 0x51);
            assertEquals(0x51, fx.handshake(tls).getId());
            var plain = fx.connectActive(0x52);
            assertEquals(0x52, plain.sw().getId());
            assertTrue(log.lines("INFO").stream().anyMatch(l -> l.message().contains("CN=Beacon test switch")),
                    log.lines("INFO").toString());
            // Echo keeps working over the session: the keepalive's request and the switch's answer.
            tls.send(new net.beaconcontroller.openflow.OFEchoRequest(tls.nextXid()));
            tls.expect(OFType.ECHO_REPLY, ControllerFixture.WAIT);
        }
    }

    /** The session goes to the next core with its engine: the switch sees no new handshake and no disconnection. */
    @Test
    void aTlsSwitchGoesToTheNextCoreInTheSameSession() throws Exception {
        var holder = new ListHolder(true);
        try (var old = start(); var next = start()) {
            old.controller.setConnectionHolder(holder);
            var tls = tlsSwitch(old, 0x71);
            old.handshake(tls);
            old.controller.deactivate();
            assertEquals(1, holder.size(), "the TLS switch went to the holder");
            var first = tls.packetIn(1, FakeSwitch.frame(3000, 7)); // more than one TLS record
            tls.send(first);

            var after = new RecordingListener("after");
            next.controller.addOFMessageListener(OFType.PACKET_IN, after);
            next.controller.setConnectionHolder(holder);
            assertEquals(0x71, next.awaitEvent(ControllerFixture.Kind.ADDED, 0x71).sw().getId());
            assertArrayEquals(first.frameBytes(), ((OFPacketIn) after.await(ControllerFixture.WAIT).msg()).frameBytes());
            tls.send(new net.beaconcontroller.openflow.OFEchoRequest(tls.nextXid()));
            tls.expect(OFType.ECHO_REPLY, ControllerFixture.WAIT);
            assertFalse(tls.isClosed(), "the switch saw no disconnection");
        }
    }

    @Test
    void anUntrustedCertificateIsRefusedAndOnlyThatConnectionCloses() throws IOException {
        try (var fx = start(); var log = LogCapture.of(TlsTransport.class)) {
            var good = tlsSwitch(fx, 0x61);
            var sw = fx.handshake(good);
            SSLSocket rogue;
            try {
                rogue = pki.connect(tlsPort(fx), "rogue.p12");
            } catch (SSLException | SocketException e) {
                // Refused within the handshake: TLS 1.2's alert, or under TLS 1.3 the controller's close before the
                // client had written its last handshake record (a broken pipe).
                rogue = null;
            }
            if (rogue != null) {
                // TLS 1.3: the client finished first; the controller's refusal arrives as an alert or a close.
                var r = rogue;
                try {
                    assertEquals(-1, r.getInputStream().read());
                } catch (SSLException | SocketException expected) {
                    // the alert, or a reset: refused
                } catch (SocketTimeoutException e) {
                    throw new AssertionError("the controller kept the connection with the rogue certificate open", e);
                } finally {
                    r.close();
                }
            }
            var warnings = log.lines("WARN");
            assertTrue(warnings.stream().anyMatch(l -> l.message().startsWith("TLS handshake with /127.0.0.1:")
                    && l.message().contains("'CN=rogue switch'") && l.message().contains("not trusted")),
                    warnings.toString());
            assertTrue(sw.isConnected());
            good.send(new net.beaconcontroller.openflow.OFEchoRequest(good.nextXid()));
            good.expect(OFType.ECHO_REPLY, ControllerFixture.WAIT);
            assertEquals(1, fx.controller.getSwitches().size());
        }
    }

    @Test
    void plaintextOnTheTlsPortIsRefused() throws IOException {
        try (var fx = start(); var log = LogCapture.of(TlsTransport.class)) {
            var plain = fx.track(FakeSwitch.connect(tlsPort(fx), 0x71, List.of(FakeSwitch.port(1, "eth1"))));
            plain.hello();
            plain.awaitClosed(ControllerFixture.WAIT);
            var from = "/127.0.0.1:" + plain.localAddress().getPort();
            assertTrue(log.lines("WARN").stream().anyMatch(l -> l.message().startsWith("TLS handshake with " + from
                    + " failed")), log.lines("WARN").toString());
            assertTrue(fx.controller.getSwitches().isEmpty());
        }
    }

    /**
     * OpenFlow messages of up to 64 KiB cross several 16 KiB TLS records; a burst of them is more than one read of
     * the transport can unwrap into the connection's read buffer.
     */
    @Test
    void largeMessagesArriveWholeBothWays() throws IOException {
        try (var fx = start()) {
            var received = new RecordingListener("recorder");
            fx.controller.addOFMessageListener(OFType.PACKET_IN, received);
            var fake = tlsSwitch(fx, 0x81);
            var sw = fx.handshake(fake);
            int count = 12;
            var sent = new OFMessage[count];
            for (int i = 0; i < count; i++) {
                sent[i] = fake.packetIn(1, FakeSwitch.frame(60_000 - i, i));
            }
            fake.send(sent);
            for (int i = 0; i < count; i++) {
                var in = (OFPacketIn) received.await(ControllerFixture.WAIT).msg();
                assertArrayEquals(FakeSwitch.frame(60_000 - i, i), bytes(in.frame()), "PACKET_IN " + i);
            }
            var frame = FakeSwitch.frame(50_000, 99);
            sw.write(OFPacketOut.unbuffered(sw.nextXid(), 1, List.of(), ByteBuffer.wrap(frame)));
            sw.flush();
            OFPacketOut out = fake.expect(OFType.PACKET_OUT, ControllerFixture.WAIT);
            assertArrayEquals(frame, bytes(out.data()));
        }
    }

    @Test
    void aMissingKeyStoreStopsTheStartNamingTheKey() {
        var e = assertThrows(SettingException.class, () -> new Controller(Configs.of(ControllerConfig.class,
                "tlsListenPort=0", "tlsTrustStore=" + pki.file("ca.pem"))));
        assertEquals("controller.tlsKeyStore", e.key());
        var missing = assertThrows(SettingException.class, () -> new Controller(Configs.of(ControllerConfig.class,
                "tlsListenPort=0", "tlsKeyStore=" + pki.file("nothing.p12"), "tlsKeyStorePassword=" + TestPki.PASSWORD,
                "tlsTrustStore=" + pki.file("ca.pem"))));
        assertEquals("controller.tlsKeyStore", missing.key());
        assertTrue(missing.getMessage().contains("nothing.p12"), missing.getMessage());
    }

    @Test
    void aWrongPasswordIsNamedWithoutShowingIt() {
        var e = assertThrows(SettingException.class, () -> new Controller(Configs.of(ControllerConfig.class,
                "tlsListenPort=0", "tlsKeyStore=" + pki.file("controller.p12"), "tlsKeyStorePassword=guess",
                "tlsTrustStore=" + pki.file("ca.pem"))));
        assertEquals("controller.tlsKeyStorePassword", e.key());
        assertFalse(e.getMessage().contains("guess"), e.getMessage());
    }

    @Test
    void aTrustStoreThatIsNoCertificateIsNamed() {
        var e = assertThrows(SettingException.class, () -> new Controller(Configs.of(ControllerConfig.class,
                "tlsListenPort=0", "tlsKeyStore=" + pki.file("controller.p12"),
                "tlsKeyStorePassword=" + TestPki.PASSWORD, "tlsTrustStore=" + pki.file("switch.csr"))));
        assertEquals("controller.tlsTrustStore", e.key());
    }

    @Test
    void theTlsPortCannotBeAPlaintextPort() {
        var e = assertThrows(SettingException.class, () -> new Controller(Configs.of(ControllerConfig.class,
                "listenPort=6653", "tlsListenPort=6653")));
        assertEquals("controller.tlsListenPort", e.key());
    }

    @Test
    void tlsAloneIsEnough() throws IOException {
        try (var fx = start("controller.listenPort=-1")) {
            assertEquals(1, fx.controller.getLocalPorts().size());
            assertEquals(0x91, fx.handshake(tlsSwitch(fx, 0x91)).getId());
        }
    }

    @Test
    void aCertificateClaimsItsOwnDpidsOnlyAndARefusalIsLogged() throws IOException {
        var file = Files.writeString(dir.resolve("identities"), "00:00:00:00:00:00:00:a1 Beacon test switch\n");
        try (var fx = start("controller.tlsSwitchIdentities=" + file);
                var log = LogCapture.of(Handshake.class)) {
            assertEquals(0xa1, fx.handshake(tlsSwitch(fx, 0xa1)).getId());
            var impostor = tlsSwitch(fx, 0xa2);
            impostor.hello();
            impostor.awaitClosed(ControllerFixture.WAIT);
            var warnings = log.lines("WARN");
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).message().startsWith("switch 00:00:00:00:00:00:00:a2: refused the connection"
                    + " from /127.0.0.1:" + impostor.localAddress().getPort() + " that claims it: its certificate"
                    + " 'CN=Beacon test switch' may claim only 00:00:00:00:00:00:00:a1"), warnings.toString());
            assertEquals(1, fx.controller.getSwitches().size());
        }
    }

    @Test
    void plaintextSwitchesAreNotBound() throws IOException {
        // The file binds certificates; over plain TCP there is none (turn the plaintext ports off to require one).
        var file = Files.writeString(dir.resolve("identities-plain"), "00:00:00:00:00:00:00:b1 Beacon test switch\n");
        try (var fx = start("controller.tlsSwitchIdentities=" + file)) {
            assertEquals(0xb2, fx.connectActive(0xb2).sw().getId());
        }
    }

    @Test
    void aMissingIdentitiesFileStopsTheStartNamingTheKey() {
        var missing = assertThrows(SettingException.class, () -> new Controller(Configs.of(ControllerConfig.class,
                "tlsListenPort=0", "tlsKeyStore=" + pki.file("controller.p12"),
                "tlsKeyStorePassword=" + TestPki.PASSWORD, "tlsTrustStore=" + pki.file("ca.pem"),
                "tlsSwitchIdentities=" + dir.resolve("no-such-file"))));
        assertEquals("controller.tlsSwitchIdentities", missing.key());
    }

    private static byte[] bytes(ByteBuffer data) {
        var copy = data.duplicate();
        var result = new byte[copy.remaining()];
        copy.get(result);
        return result;
    }
}
