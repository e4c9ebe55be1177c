package net.beaconcontroller.core.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Certificates for TLS tests, made with the JDK's {@code keytool} in a directory of the test's: a CA ({@code ca.pem}),
 * the controller's key store signed by it ({@code controller.p12}), a switch's ({@code switch.p12}), and a rogue
 * switch's, self-signed and so trusted by nobody ({@code rogue.p12}). Every store has the password {@link #PASSWORD}.
 * Elliptic-curve keys: generated in milliseconds, where RSA keys would take seconds.
 */
public final class TestPki {
    public static final String PASSWORD = "beacon-test";
    private final Path dir;

    private TestPki(Path dir) {
        this.dir = dir;
    }

    /** Makes the CA and the three key stores in {@code dir} (about a dozen keytool runs, a few seconds). */
    public static TestPki create(Path dir) {
        var pki = new TestPki(dir);
        pki.keytool("-genkeypair", "-alias", "ca", "-dname", "CN=Beacon test CA", "-ext", "bc:c", "-keystore",
                "ca.p12", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2");
        pki.keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-file", "ca.pem");
        pki.signed("controller", "CN=Beacon test controller");
        pki.signed("switch", "CN=Beacon test switch");
        pki.keytool("-genkeypair", "-alias", "rogue", "-dname", "CN=rogue switch", "-keystore", "rogue.p12",
                "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2");
        return pki;
    }

    public Path file(String name) {
        return dir.resolve(name);
    }

    /** The controller settings for a TLS listener on any free port with these certificates. */
    public List<String> controllerSettings() {
        return List.of("controller.tlsListenPort=0", "controller.tlsKeyStore=" + file("controller.p12"),
                "controller.tlsKeyStorePassword=" + PASSWORD, "controller.tlsTrustStore=" + file("ca.pem"));
    }

    /**
     * A TLS client socket to the controller's {@code port} presenting the key of {@code keyStore} (e.g. "switch.p12")
     * and trusting the test CA, its handshake started (a refusal by the controller may only show on the first read:
     * in TLS 1.3 the client finishes its handshake before the server has checked its certificate).
     */
    public SSLSocket connect(int port, String keyStore) throws IOException {
        try {
            var keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(file(keyStore))) {
                keys.load(in, PASSWORD.toCharArray());
            }
            var kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, PASSWORD.toCharArray());
            var trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            try (InputStream in = Files.newInputStream(file("ca.pem"))) {
                trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
            }
            var tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            var context = SSLContext.getInstance("TLS");
            var key = new AnyIssuer((X509ExtendedKeyManager) kmf.getKeyManagers()[0]);
            context.init(new KeyManager[] {key}, tmf.getTrustManagers(), null);
            var socket = (SSLSocket) context.getSocketFactory().createSocket();
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(5000);
            socket.startHandshake();
            return socket;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the test certificates in " + dir + " are not usable", e);
        }
    }

    private void signed(String name, String dname) {
        keytool("-genkeypair", "-alias", name, "-dname", dname, "-keystore", name + ".p12", "-keyalg", "EC",
                "-groupname", "secp256r1", "-validity", "2");
        keytool("-certreq", "-alias", name, "-keystore", name + ".p12", "-file", name + ".csr");
        keytool("-gencert", "-alias", "ca", "-keystore", "ca.p12", "-infile", name + ".csr", "-outfile",
                name + ".crt", "-rfc", "-validity", "2");
        // The CA first, so that keytool can build the chain of the signed certificate it imports next.
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", name + ".p12");
        keytool("-importcert", "-noprompt", "-alias", name, "-file", name + ".crt", "-keystore", name + ".p12");
    }

    private void keytool(String... args) {
        var command = new ArrayList<String>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
        try {
            var process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run keytool (a JDK is needed for the TLS tests)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while keytool ran", e);
        }
    }

    /**
     * The client's key whatever CAs the controller names in its certificate request: the JDK's own choice would send
     * the rogue no certificate at all, where Open vSwitch (OpenSSL) sends the one it was given.
     */
    private static final class AnyIssuer extends X509ExtendedKeyManager {
        private final X509ExtendedKeyManager delegate;

        AnyIssuer(X509ExtendedKeyManager delegate) {
            this.delegate = delegate;
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return delegate.chooseClientAlias(keyType, null, socket);
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return delegate.getClientAliases(keyType, null);
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return delegate.getServerAliases(keyType, issuers);
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return delegate.chooseServerAlias(keyType, issuers, socket);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return delegate.getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return delegate.getPrivateKey(alias);
        }
    }
}
