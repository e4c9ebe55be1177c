package net.beaconcontroller.web.internal;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.SizeLimitHandler;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletException;
import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.web.IWebEvents;
import net.beaconcontroller.web.IWebManageable;
import net.beaconcontroller.web.jetty.PatchedHttpConnectionFactory;

/**
 * Beacon's web server: embedded Jetty with one Spring Web MVC dispatcher serving the controllers of every
 * {@link IWebManageable} service (the whiteboard) plus the platform's own ({@link PlatformController}), and the web
 * UI's pages ({@link UiController}).
 */
@Component(configurationPid = WebServer.NAME, configurationPolicy = ConfigurationPolicy.REQUIRE, immediate = true,
        service = {WebServer.class, IWebEvents.class})
@Designate(ocd = WebServer.Config.class)
public final class WebServer implements IWebEvents {
    static final String NAME = "web";
    /** Connections silent this long are closed: above the server push's 15 s heartbeat. */
    static final int IDLE_TIMEOUT_MS = 30_000;
    static final int THREADS = 16;
    private static final Logger log = LoggerFactory.getLogger(WebServer.class);

    @ObjectClassDefinition(name = "Web", description = "The web server: REST API and web UI.")
    public @interface Config {
        @AttributeDefinition(description = "Address the web server listens on. Anything but a loopback address"
                + " needs web.keystore (HTTPS) and web.passwordHash: changes and bundle management then ask for"
                + " the user and password.")
        String listenAddress() default "127.0.0.1";

        @AttributeDefinition(min = "0", max = "65535", description = "TCP port; 0 picks a free one (logged).")
        int port() default 8080;

        @AttributeDefinition(description = "PKCS12 key store with the server's certificate: HTTPS when set.")
        String keystore() default "";

        @AttributeDefinition(description = "Password of web.keystore.")
        String keystorePassword() default "";

        @AttributeDefinition(description = "User name for HTTP Basic authentication.")
        String user() default "admin";

        @AttributeDefinition(description = "Hash of the user's password, as beacon:webpassword prints it. Required"
                + " when web.listenAddress is not a loopback address.")
        String passwordHash() default "";

        @AttributeDefinition(min = "1", max = "1048576", description = "Largest request body, KiB (uploads aside).")
        int maxRequestKiB() default 1024;

        @AttributeDefinition(min = "1", max = "4096", description = "Largest upload (a bundle jar), MiB.")
        int maxUploadMiB() default 64;

        @AttributeDefinition(description = "Comma-separated host names clients may use for this server besides its"
                + " address (and localhost on loopback); a request naming another Host is refused, as a page on a"
                + " DNS-rebinding domain would. Bound to all addresses (0.0.0.0) with none given: any name.")
        String hostNames() default "";

        @AttributeDefinition(description = "Answer Floodlight's GET /wm/staticflowpusher/clear/<dpid>/json and GET"
                + " /wm/acl/clear/json (GETs that delete, for Floodlight's scripts), with the same-origin and"
                + " authentication rules of a POST. Off: only POST and DELETE clear.")
        boolean floodlightGetClear() default false;
    }

    private final List<IWebManageable> contributions = new CopyOnWriteArrayList<>();
    private final EventHub events = new EventHub();
    private final PlatformController platform;
    private final UiController ui;
    private final Server server;
    private final Front front;
    private volatile boolean started;

    @Activate
    public WebServer(BundleContext context, Config config) throws Exception {
        InetAddress address;
        try {
            address = InetAddress.getByName(config.listenAddress());
        } catch (UnknownHostException e) {
            throw new SettingException(NAME + ".listenAddress", config.listenAddress(),
                    "expected an IP address or a host name of this machine");
        }
        Guard.Credentials credentials = null;
        if (!address.isLoopbackAddress()) {
            remoteNeedsHttpsAndPassword(config);
        }
        if (!config.passwordHash().isEmpty()) {
            try {
                credentials = new Guard.Credentials(config.user(), PasswordHash.parse(config.passwordHash()));
            } catch (IllegalArgumentException e) {
                throw new SettingException(NAME + ".passwordHash", config.passwordHash(), e.getMessage());
            }
        }
        if (!config.keystore().isEmpty() && !Files.isReadable(Path.of(config.keystore()))) {
            throw new SettingException(NAME + ".keystore", config.keystore(), "expected a readable PKCS12 file");
        }
        long maxUpload = config.maxUploadMiB() * 1024L * 1024L;
        platform = new PlatformController(context, this::contributions, events);
        ui = new UiController(this::contributions);
        front = new Front(THREADS / 2, new Guard(config.maxRequestKiB() * 1024L, maxUpload, credentials,
                hosts(address, config.hostNames()), config.floodlightGetClear()), this::controllers);

        var threads = new QueuedThreadPool(THREADS, 2);
        threads.setName("web");
        server = new Server(threads);
        server.setErrorHandler(new ErrorPages.Server());
        var http = new HttpConfiguration();
        http.setSendServerVersion(false);
        // Jetty's HTTP/1.1 with two of its races mended (see there).
        ServerConnector connector;
        if (config.keystore().isEmpty()) {
            connector = new ServerConnector(server, new PatchedHttpConnectionFactory(http));
        } else {
            var tls = new SslContextFactory.Server();
            tls.setKeyStorePath(config.keystore());
            tls.setKeyStorePassword(config.keystorePassword());
            tls.setKeyStoreType("PKCS12");
            var secure = new SecureRequestCustomizer();
            // Users reach the server by IP address as often as by name: the certificate's names are theirs to choose.
            secure.setSniHostCheck(false);
            http.addCustomizer(secure);
            connector = new ServerConnector(server, new SslConnectionFactory(tls, "http/1.1"),
                    new PatchedHttpConnectionFactory(http));
        }
        connector.setHost(address.getHostAddress());
        connector.setPort(config.port());
        connector.setIdleTimeout(IDLE_TIMEOUT_MS);
        server.addConnector(connector);

        var servlets = new ServletContextHandler("/");
        servlets.setErrorHandler(new ErrorPages.Servlet());
        // Jetty parses form bodies itself, past the servlet's count of the bytes read.
        servlets.setMaxFormContentSize((int) Math.min(Integer.MAX_VALUE, config.maxRequestKiB() * 1024L));
        var holder = new ServletHolder("beacon", front);
        holder.setAsyncSupported(true);
        holder.setInitOrder(0);
        holder.getRegistration().setMultipartConfig(new MultipartConfigElement(
                System.getProperty("java.io.tmpdir"), maxUpload, maxUpload, 1024 * 1024));
        servlets.addServlet(holder, "/*");
        var limit = new SizeLimitHandler(maxUpload, -1);
        limit.setHandler(servlets);
        server.setHandler(limit);
        try {
            server.start();
        } catch (Exception e) {
            events.close();
            server.stop();
            throw new SettingException(NAME + ".port", Integer.toString(config.port()),
                    "cannot listen on " + address.getHostAddress() + ":" + config.port() + " (" + e.getMessage() + ")");
        }
        started = true;
        var bound = new InetSocketAddress(address, connector.getLocalPort());
        log.info("Web server on {}://{}:{}/", config.keystore().isEmpty() ? "http" : "https",
                bound.getAddress().getHostAddress(), bound.getPort());
    }

    /**
     * One setting named at start-up, with everything to do: refused here, the web parts never start, so nothing else
     * fails and hides it.
     */
    private static void remoteNeedsHttpsAndPassword(Config config) {
        boolean noKeystore = config.keystore().isEmpty();
        boolean noPassword = config.passwordHash().isEmpty();
        if (!noKeystore && !noPassword) {
            return;
        }
        var missing = noKeystore && noPassword ? NAME + ".keystore and " + NAME + ".passwordHash"
                : noKeystore ? NAME + ".keystore" : NAME + ".passwordHash";
        throw new SettingException(noKeystore ? NAME + ".keystore" : NAME + ".passwordHash", "",
                "expected a value because " + NAME + ".listenAddress = " + config.listenAddress() + " is not a"
                        + " loopback address: set " + missing + " (a PKCS12 key store with " + NAME
                        + ".keystorePassword for HTTPS; the hash beacon:webpassword prints), or set " + NAME
                        + ".listenAddress = 127.0.0.1");
    }

    @Deactivate
    public void deactivate() throws Exception {
        started = false;
        events.close();
        server.stop();
    }

    @Override
    public void publish(String name, Object data) {
        events.publish(name, data);
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    public void addContribution(IWebManageable contribution) throws ServletException {
        contributions.add(contribution);
        publish();
    }

    public void removeContribution(IWebManageable contribution) throws ServletException {
        contributions.remove(contribution);
        publish();
    }

    /** The port the server listens on, for tests that let it choose. */
    public int port() {
        return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    private void publish() throws ServletException {
        // Bind and unbind calls may come before activation and after deactivation.
        if (started) {
            front.publish(controllers());
            events.publish("ui-changed", ui.pages());
        }
    }

    private List<Object> controllers() {
        var controllers = new ArrayList<Object>();
        controllers.add(platform);
        controllers.add(ui);
        contributions.forEach(c -> controllers.addAll(c.controllers()));
        return controllers;
    }

    private List<IWebManageable> contributions() {
        return contributions;
    }

    /** The host names requests may carry (see {@link Guard}): empty for any. */
    static Set<String> hosts(InetAddress address, String names) {
        var hosts = new HashSet<String>();
        for (var n : names.split(",")) {
            if (!n.isBlank()) {
                hosts.add(Guard.hostName(n.strip()));
            }
        }
        if (address.isAnyLocalAddress() && hosts.isEmpty()) {
            return Set.of();
        }
        hosts.add(Guard.hostName(address.getHostAddress().replaceAll("%.*", "")));
        if (address.isLoopbackAddress() || address.isAnyLocalAddress()) {
            hosts.addAll(List.of("localhost", "127.0.0.1", "::1", "0:0:0:0:0:0:0:1"));
        }
        if (address.isAnyLocalAddress()) {
            try {
                for (var nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                    nic.inetAddresses().forEach(a -> hosts.add(Guard.hostName(a.getHostAddress().replaceAll("%.*",
                            ""))));
                }
            } catch (SocketException e) {
                throw new SettingException(NAME + ".hostNames", names, "cannot list this machine's addresses: "
                        + e.getMessage());
            }
        }
        return Set.copyOf(hosts);
    }
}
