package net.beaconcontroller.core.internal;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.config.SettingException;

/**
 * The OpenFlow ports as the settings give them: {@code controller.listenPort} (6653), {@code
 * controller.legacyListenPort} (6633) and {@code controller.tlsListenPort} (off), checked one against another, and
 * the endpoints the acceptor binds.
 */
final class ListenPorts {
    private static final Logger log = LoggerFactory.getLogger(ListenPorts.class);
    /** A port setting's value for "not listened on". */
    static final int OFF = -1;

    private ListenPorts() {
    }

    /** Checks what the metatype cannot: some port is left, and the TLS port is no plaintext one. */
    static void check(ControllerConfig c) {
        if (c.listenPort() == OFF && c.legacyListenPort() == OFF && c.tlsListenPort() == OFF) {
            throw new SettingException("controller.listenPort", "-1", "no port would be left for switches:"
                    + " controller.legacyListenPort is off (-1) too, and so is controller.tlsListenPort");
        }
        int tlsPort = c.tlsListenPort();
        if (tlsPort > 0 && (tlsPort == c.listenPort() || tlsPort == c.legacyListenPort())) {
            // One port cannot serve both: a TLS client and a plaintext one both wait for the other to speak first.
            throw new SettingException("controller.tlsListenPort", Integer.toString(tlsPort),
                    "it is a plaintext port too (controller.listenPort or controller.legacyListenPort): set that one to"
                    + " -1 or another port");
        }
        if (samePort(c)) {
            // A configuration from before there were two ports often names controller.listenPort=6633 explicitly:
            // one listener then, rather than a start-up that stops after an upgrade.
            log.warn("controller.listenPort and controller.legacyListenPort are both {}: listening once on it (set"
                    + " controller.legacyListenPort=-1 to silence this)", c.listenPort());
        }
    }

    /**
     * Whether the listeners are to restart: an address or port changed, or a TLS file or password (the files are
     * read again then).
     */
    static boolean changed(ControllerConfig a, ControllerConfig b) {
        return !a.listenAddress().equals(b.listenAddress()) || a.listenPort() != b.listenPort()
                || a.legacyListenPort() != b.legacyListenPort() || a.tlsListenPort() != b.tlsListenPort()
                || !a.tlsKeyStore().equals(b.tlsKeyStore()) || !a.tlsKeyStorePassword().equals(b.tlsKeyStorePassword())
                || !a.tlsTrustStore().equals(b.tlsTrustStore())
                || !a.tlsTrustStorePassword().equals(b.tlsTrustStorePassword());
    }

    /**
     * The ports to listen on, the IANA port first and the TLS port last; a port set to -1 is off, a plaintext one
     * given twice is listened on once.
     */
    static List<Acceptor.Endpoint> endpoints(ControllerConfig c) {
        var result = new ArrayList<Acceptor.Endpoint>();
        if (c.listenPort() != OFF) {
            result.add(new Acceptor.Endpoint("controller.listenPort",
                    new InetSocketAddress(c.listenAddress(), c.listenPort()), false));
        }
        if (c.legacyListenPort() != OFF && !samePort(c)) {
            result.add(new Acceptor.Endpoint("controller.legacyListenPort",
                    new InetSocketAddress(c.listenAddress(), c.legacyListenPort()), false));
        }
        if (c.tlsListenPort() != OFF) {
            result.add(new Acceptor.Endpoint("controller.tlsListenPort",
                    new InetSocketAddress(c.listenAddress(), c.tlsListenPort()), true));
        }
        return result;
    }

    private static boolean samePort(ControllerConfig c) {
        return c.listenPort() == c.legacyListenPort() && c.listenPort() > 0;
    }
}
