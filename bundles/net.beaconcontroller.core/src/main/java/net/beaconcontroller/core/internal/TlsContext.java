package net.beaconcontroller.core.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

import net.beaconcontroller.config.SettingException;

/**
 * The TLS side of the switch channel: the controller's key and certificate, the CA certificates a switch's
 * certificate must chain to, and a server {@link SSLEngine} per connection that requires the switch's certificate
 * (mutual authentication, as Open vSwitch's {@code ssl:} targets expect) and speaks TLS 1.2 or 1.3 only. Built from
 * the settings once per listener start; a file that cannot be read or used stops the start naming its key.
 */
final class TlsContext {
    static final String KEY_STORE = "controller.tlsKeyStore";
    static final String KEY_STORE_PASSWORD = "controller.tlsKeyStorePassword";
    static final String TRUST_STORE = "controller.tlsTrustStore";
    static final String TRUST_STORE_PASSWORD = "controller.tlsTrustStorePassword";
    /** Older protocols have known attacks; Open vSwitch 2.x and later speak both of these. */
    private static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
    /** Passwords never appear in an error. */
    private static final String HIDDEN = "(hidden)";

    private final SSLContext context;
    private final String[] protocols;
    /** Which DPIDs each switch certificate may claim; null: any. */
    private final SwitchCertificates identities;

    private TlsContext(SSLContext context, SwitchCertificates identities) {
        this.context = context;
        this.identities = identities;
        var supported = List.of(context.getSupportedSSLParameters().getProtocols());
        this.protocols = PROTOCOLS.stream().filter(supported::contains).toArray(String[]::new);
    }

    /** The context the TLS settings describe; {@link SettingException} names the key of what is wrong. */
    static TlsContext of(ControllerConfig c) {
        var keyManagers = keyManagers(c);
        var trust = new NamingTrustManager(trustManager(c));
        var identities = c.tlsSwitchIdentities().isBlank() ? null : SwitchCertificates.read(c.tlsSwitchIdentities());
        try {
            var context = SSLContext.getInstance("TLS");
            context.init(keyManagers.getKeyManagers(), new TrustManager[] {trust}, null);
            return new TlsContext(context, identities);
        } catch (GeneralSecurityException e) {
            throw new SettingException(KEY_STORE, c.tlsKeyStore(), "cannot set up TLS with it: " + e.getMessage());
        }
    }

    /** Which DPIDs each switch certificate may claim; null when any may claim any. */
    SwitchCertificates identities() {
        return identities;
    }

    /** A server engine for one switch connection. */
    SSLEngine newEngine() {
        var engine = context.createSSLEngine();
        engine.setUseClientMode(false);
        SSLParameters params = engine.getSSLParameters();
        params.setProtocols(protocols);
        params.setNeedClientAuth(true);
        engine.setSSLParameters(params);
        return engine;
    }

    private static KeyManagerFactory keyManagers(ControllerConfig c) {
        var path = required(KEY_STORE, c.tlsKeyStore(), "a PKCS12 (or JKS) file with the controller's private key and"
                + " certificate");
        var password = c.tlsKeyStorePassword().toCharArray();
        var store = load(KEY_STORE, path, password);
        try {
            if (Collections.list(store.aliases()).stream().noneMatch(a -> isKey(store, a))) {
                throw new SettingException(KEY_STORE, c.tlsKeyStore(), "it holds no private key (expected the"
                        + " controller's private key with its certificate)");
            }
            var factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, password);
            return factory;
        } catch (GeneralSecurityException e) {
            // E.g. a key password that differs from the store's: PKCS12 files made by openssl have one password.
            throw new SettingException(KEY_STORE_PASSWORD, HIDDEN, "cannot read the private key in " + path + ": "
                    + e.getMessage());
        }
    }

    private static boolean isKey(KeyStore store, String alias) {
        try {
            return store.isKeyEntry(alias);
        } catch (GeneralSecurityException e) {
            return false; // not a usable key: the caller reports that none is
        }
    }

    /** The CA certificates: a PEM file (such as Open vSwitch's {@code switchca/cacert.pem}) or a key store. */
    private static X509ExtendedTrustManager trustManager(ControllerConfig c) {
        var path = required(TRUST_STORE, c.tlsTrustStore(), "a PEM file of CA certificates (such as ovs-pki's"
                + " switchca/cacert.pem) or a key store holding them");
        KeyStore store;
        byte[] bytes = readAll(TRUST_STORE, path);
        if (new String(bytes, 0, Math.min(bytes.length, 4096), StandardCharsets.US_ASCII).contains("-----BEGIN")) {
            store = pemStore(path, bytes);
        } else {
            var password = c.tlsTrustStorePassword();
            store = load(TRUST_STORE, path, password.isEmpty() ? null : password.toCharArray());
        }
        try {
            if (Collections.list(store.aliases()).stream().noneMatch(a -> isCertificate(store, a))) {
                throw new SettingException(TRUST_STORE, c.tlsTrustStore(), "it holds no certificate");
            }
            var factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            return Arrays.stream(factory.getTrustManagers()).filter(X509ExtendedTrustManager.class::isInstance)
                    .map(X509ExtendedTrustManager.class::cast).findFirst()
                    .orElseThrow(() -> new SettingException(TRUST_STORE, c.tlsTrustStore(),
                            "the JDK offers no X.509 trust manager for it"));
        } catch (GeneralSecurityException e) {
            throw new SettingException(TRUST_STORE, c.tlsTrustStore(), "cannot use it: " + e.getMessage());
        }
    }

    private static boolean isCertificate(KeyStore store, String alias) {
        try {
            return store.isCertificateEntry(alias) || store.isKeyEntry(alias) && store.getCertificate(alias) != null;
        } catch (GeneralSecurityException e) {
            return false; // not usable: the caller reports that none is
        }
    }

    private static KeyStore pemStore(Path path, byte[] pem) {
        try {
            var certificates = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem));
            var store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (var certificate : certificates) {
                store.setCertificateEntry("ca-" + i++, certificate);
            }
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new SettingException(TRUST_STORE, path.toString(), "not a PEM file of certificates: "
                    + e.getMessage());
        }
    }

    private static Path required(String key, String value, String expected) {
        if (value.isBlank()) {
            throw new SettingException(key, value, "controller.tlsListenPort is on, so expected " + expected);
        }
        return Path.of(value.trim());
    }

    private static byte[] readAll(String key, Path path) {
        try {
            return Files.readAllBytes(path);
        } catch (IOException e) {
            throw new SettingException(key, path.toString(), "cannot read the file (" + e + ")");
        }
    }

    /** A PKCS12 or JKS file: the JDK's PKCS12 type reads both. */
    private static KeyStore load(String key, Path path, char[] password) {
        byte[] bytes = readAll(key, path);
        try {
            var store = KeyStore.getInstance("PKCS12");
            store.load(new ByteArrayInputStream(bytes), password);
            return store;
        } catch (IOException e) {
            // The JDK says "keystore password was incorrect" or names the format problem.
            String passwordKey = key.equals(KEY_STORE) ? KEY_STORE_PASSWORD : TRUST_STORE_PASSWORD;
            if (e.getCause() instanceof java.security.UnrecoverableKeyException) {
                throw new SettingException(passwordKey, HIDDEN, "cannot open " + path + ": " + e.getMessage());
            }
            throw new SettingException(key, path.toString(), "not a PKCS12 or JKS key store, or "
                    + passwordKey + " is wrong: " + e.getMessage());
        } catch (GeneralSecurityException e) {
            throw new SettingException(key, path.toString(), "cannot load it: " + e.getMessage());
        }
    }

    /**
     * The JDK's trust check, with the switch's certificate named in its failure: "PKIX path building failed" alone does
     * not say which switch or which CA.
     */
    private static final class NamingTrustManager extends X509ExtendedTrustManager {
        private final X509ExtendedTrustManager delegate;

        NamingTrustManager(X509ExtendedTrustManager delegate) {
            this.delegate = delegate;
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            naming(chain, () -> delegate.checkClientTrusted(chain, authType, engine));
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            naming(chain, () -> delegate.checkClientTrusted(chain, authType, socket));
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            naming(chain, () -> delegate.checkClientTrusted(chain, authType));
        }

        private interface Check {
            void run() throws CertificateException;
        }

        private static void naming(X509Certificate[] chain, Check check) throws CertificateException {
            try {
                check.run();
            } catch (CertificateException e) {
                throw named(chain, e);
            }
        }

        private static CertificateException named(X509Certificate[] chain, CertificateException e) {
            if (chain == null || chain.length == 0) {
                return e;
            }
            var leaf = chain[0];
            return new CertificateException("switch certificate '" + leaf.getSubjectX500Principal().getName()
                    + "' issued by '" + leaf.getIssuerX500Principal().getName() + "' is not trusted by "
                    + TRUST_STORE + ": " + e.getMessage(), e);
        }

        // The controller is never the client: the server-side checks are the JDK's own.
        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            delegate.checkServerTrusted(chain, authType, engine);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            delegate.checkServerTrusted(chain, authType, socket);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            delegate.checkServerTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return delegate.getAcceptedIssuers();
        }
    }
}
