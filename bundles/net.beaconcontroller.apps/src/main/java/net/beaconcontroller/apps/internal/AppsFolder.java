package net.beaconcontroller.apps.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.FrameworkListener;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.apps.internal.Changes.Stamp;

/**
 * The product's {@code apps/} folder: a jar put there is installed and started, a newer one replacing it updates its
 * bundle, a jar removed is uninstalled. One thread of its own polls the folder and does all of it, so the framework
 * sees one change at a time; the thread ends when this bundle stops (the apps stay as they are).
 *
 * <p>Apps are installed only once the framework has started: an app with a bad setting is then reported like any
 * bundle installed at runtime, rather than ending Beacon's start-up as a bad setting of the product does. For the
 * same reason, apps an earlier run installed are uninstalled as this bundle starts (start level 3, before any app
 * could start) and installed again from the folder.
 */
@Component(service = AppsFolder.class, immediate = true)
public final class AppsFolder {
    private static final Logger log = LoggerFactory.getLogger(AppsFolder.class);
    /** Every app's location starts with this, so the apps of an earlier run are found whatever the folder was. */
    static final String LOCATION = "apps:";
    /** A poll costs one directory listing; a jar is acted on after two equal listings, so within 2 polls. */
    private static final long POLL_MILLIS = 250;
    private static final long REFRESH_SECONDS = 30;
    private static final long STOP_SECONDS = 10;

    /** An app jar and what became of it: its bundle (null if it could not be installed) and the last problem. */
    record App(String jar, Stamp stamp, Bundle bundle, String problem) {
        App with(String newProblem) {
            return new App(jar, stamp, bundle, newProblem);
        }
    }

    /** What {@code beacon:apps} shows of an app. */
    record View(String jar, long id, String name, String version, String state, String problem) {
    }

    private final BundleContext context;
    private final Path dir;
    private final CountDownLatch frameworkStarted = new CountDownLatch(1);
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final FrameworkListener onStarted = e -> {
        if (e.getType() == FrameworkEvent.STARTED) {
            frameworkStarted.countDown();
        }
    };
    /** Written only by the thread; read by the console. */
    private final Map<String, App> deployed = new ConcurrentSkipListMap<>();
    private Map<String, Stamp> listed = Map.of();
    private boolean folderMissingReported;
    private final Thread thread;

    @Activate
    public AppsFolder(BundleContext context) {
        this.context = context;
        this.dir = folder();
        removeEarlierRuns();
        context.addFrameworkListener(onStarted);
        if (context.getBundle(Constants.SYSTEM_BUNDLE_ID).getState() == Bundle.ACTIVE) {
            frameworkStarted.countDown();
        }
        // No inheritable thread-locals, see net.beaconcontroller.util.Threads (not imported: a refresh of util must
        // not restart this bundle).
        thread = new Thread(null, this::run, "beacon-apps", 0, false);
        thread.setDaemon(true);
        thread.start();
    }

    /** {@code -Dbeacon.apps=DIR}, else {@code apps} in the product's directory (the start script's beacon.home). */
    private static Path folder() {
        String dir = System.getProperty("beacon.apps");
        if (dir == null || dir.isBlank()) {
            return Paths.get(System.getProperty("beacon.home", "."), "apps").toAbsolutePath().normalize();
        }
        return Paths.get(dir).toAbsolutePath().normalize();
    }

    Path dir() {
        return dir;
    }

    private void removeEarlierRuns() {
        for (Bundle b : context.getBundles()) {
            if (b.getLocation().startsWith(LOCATION)) {
                try {
                    b.uninstall();
                } catch (BundleException e) {
                    log.error("apps: cannot uninstall {} left by an earlier run: {}", b.getLocation(),
                            Problems.of(e));
                }
            }
        }
    }

    private void run() {
        try {
            while (!frameworkStarted.await(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                if (stopping.getCount() == 0) {
                    return;
                }
            }
            log.info("apps: watching {}", dir);
            while (!stopping.await(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                if (context.getBundle(Constants.SYSTEM_BUNDLE_ID).getState() != Bundle.ACTIVE) {
                    continue; // the framework is stopping: leave its bundles alone
                }
                try {
                    poll();
                } catch (IllegalStateException e) {
                    return; // this bundle's context went away under the thread: it is stopping
                } catch (RuntimeException e) {
                    log.error("apps: polling {} failed", dir, e);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void poll() throws InterruptedException {
        Map<String, Stamp> now = list();
        var stamps = new TreeMap<String, Stamp>();
        deployed.forEach((jar, app) -> stamps.put(jar, app.stamp()));
        var changes = Changes.between(listed, now, stamps);
        listed = now;
        for (var change : changes) {
            switch (change.kind()) {
                case INSTALL -> install(change.jar(), now.get(change.jar()));
                case UPDATE -> update(deployed.get(change.jar()), now.get(change.jar()));
                case UNINSTALL -> uninstall(deployed.remove(change.jar()));
            }
        }
        if (!changes.isEmpty()) {
            retryFailed();
        }
    }

    private Map<String, Stamp> list() {
        var jars = new TreeMap<String, Stamp>();
        try {
            Files.createDirectories(dir);
            folderMissingReported = false;
            try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.jar")) {
                for (Path file : files) {
                    try {
                        var attributes = Files.readAttributes(file, BasicFileAttributes.class);
                        if (attributes.isRegularFile()) {
                            jars.put(file.getFileName().toString(), new Stamp(attributes.size(),
                                    attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS)));
                        }
                    } catch (NoSuchFileException e) {
                        // removed between the listing and the look at it: the next poll sees it gone
                    }
                }
            }
        } catch (IOException e) {
            if (!folderMissingReported) {
                log.error("apps: cannot read the apps folder {}: {}", dir, e.toString());
                folderMissingReported = true;
            }
            // Unreadable is not empty: keep what is deployed rather than uninstall every app.
            return new TreeMap<>(listed);
        }
        return jars;
    }

    private void install(String jar, Stamp stamp) throws InterruptedException {
        Bundle bundle;
        try (InputStream in = Files.newInputStream(dir.resolve(jar))) {
            // From a stream: the framework keeps its own copy, so the jar may be replaced or deleted at any time.
            bundle = context.installBundle(LOCATION + dir.resolve(jar).toUri(), in);
        } catch (IOException e) {
            deployed.put(jar, failed(new App(jar, stamp, null, null), "not installed: cannot read it: " + e));
            return;
        } catch (BundleException e) {
            deployed.put(jar, failed(new App(jar, stamp, null, null), "not installed: " + Problems.of(e)));
            return;
        }
        deployed.put(jar, start(new App(jar, stamp, bundle, null), "installed"));
    }

    private void update(App app, Stamp stamp) throws InterruptedException {
        if (app.bundle() == null || app.bundle().getState() == Bundle.UNINSTALLED) {
            deployed.remove(app.jar());
            install(app.jar(), stamp);
            return;
        }
        var updated = new App(app.jar(), stamp, app.bundle(), app.problem());
        try (InputStream in = Files.newInputStream(dir.resolve(app.jar()))) {
            app.bundle().update(in);
        } catch (IOException e) {
            deployed.put(app.jar(), failed(updated, "not updated: cannot read it: " + e));
            return;
        } catch (BundleException e) {
            deployed.put(app.jar(), failed(updated, "not updated: " + Problems.of(e)));
            return;
        }
        refresh(app.bundle());
        // The framework restarts an active bundle itself; one that failed before is started here.
        if (app.bundle().getState() == Bundle.ACTIVE) {
            log.info("{}: updated to {} {} (bundle {})", name(app.jar()), app.bundle().getSymbolicName(),
                    app.bundle().getVersion(), app.bundle().getBundleId());
            deployed.put(app.jar(), updated.with(null));
        } else {
            deployed.put(app.jar(), start(updated, "updated"));
        }
    }

    private void uninstall(App app) throws InterruptedException {
        Bundle bundle = app.bundle();
        if (bundle == null || bundle.getState() == Bundle.UNINSTALLED) {
            log.info("{}: removed", name(app.jar()));
            return;
        }
        try {
            bundle.uninstall();
            refresh(bundle);
            log.info("{}: uninstalled {} {} (bundle {})", name(app.jar()), bundle.getSymbolicName(),
                    bundle.getVersion(), bundle.getBundleId());
        } catch (BundleException e) {
            log.error("{}: not uninstalled: {}", name(app.jar()), Problems.of(e));
        }
    }

    /** An app that could not start may now: another app installed or updated may provide what it lacked. */
    private void retryFailed() {
        for (App app : deployed.values()) {
            Bundle b = app.bundle();
            if (app.problem() != null && b != null && b.getState() != Bundle.ACTIVE
                    && b.getState() != Bundle.UNINSTALLED) {
                deployed.put(app.jar(), start(app, "retried"));
            }
        }
    }

    private App start(App app, String what) {
        Bundle b = app.bundle();
        try {
            b.start();
        } catch (BundleException e) {
            App failed = failed(app, "not started: " + Problems.of(e));
            try {
                // start() marked it to be started: the framework would try again at its own moments (a start level
                // change, a refresh) and log each failure with a stack trace. The folder retries instead.
                b.stop();
            } catch (BundleException | IllegalStateException stop) {
                log.warn("{}: cannot clear its start mark: {}", name(app.jar()), stop.toString());
            }
            return failed;
        }
        log.info("{}: {} and started {} {} (bundle {})", name(app.jar()), what, b.getSymbolicName(), b.getVersion(),
                b.getBundleId());
        return app.with(null);
    }

    /** One line per problem: the same problem again (a retry) is not logged again. */
    private App failed(App app, String problem) {
        if (!problem.equals(app.problem())) {
            log.error("{}: {}", name(app.jar()), problem);
        }
        return app.with(problem);
    }

    /**
     * Drops what the framework keeps of an updated or uninstalled app while something still uses its old classes
     * (another app importing its packages). Only the app's own bundles are refreshed: the core and the product's apps
     * are never restarted by an app coming or going.
     */
    private void refresh(Bundle bundle) throws InterruptedException {
        var wiring = context.getBundle(Constants.SYSTEM_BUNDLE_ID).adapt(FrameworkWiring.class);
        if (!wiring.getRemovalPendingBundles().contains(bundle)) {
            return;
        }
        var done = new CountDownLatch(1);
        wiring.refreshBundles(List.of(bundle), e -> done.countDown());
        if (!done.await(REFRESH_SECONDS, TimeUnit.SECONDS)) {
            log.warn("{}: refresh of bundle {} not finished after {} s", name(bundle.getLocation()),
                    bundle.getBundleId(), REFRESH_SECONDS);
        }
    }

    /** The jar as users name it: the folder's name and the jar's. */
    private String name(String jar) {
        return dir.getFileName() + "/" + jar.substring(jar.lastIndexOf('/') + 1);
    }

    /** The apps folder's jars, by name, with their bundles' current states. */
    List<View> apps() {
        var views = new ArrayList<View>();
        for (App app : deployed.values()) {
            Bundle b = app.bundle();
            if (b == null) {
                views.add(new View(app.jar(), -1, "", "", "-", app.problem()));
            } else {
                views.add(new View(app.jar(), b.getBundleId(), String.valueOf(b.getSymbolicName()),
                        b.getVersion().toString(), state(b.getState()), app.problem()));
            }
        }
        return views;
    }

    private static String state(int state) {
        return switch (state) {
            case Bundle.INSTALLED -> "INSTALLED";
            case Bundle.RESOLVED -> "RESOLVED";
            case Bundle.STARTING -> "STARTING";
            case Bundle.STOPPING -> "STOPPING";
            case Bundle.ACTIVE -> "ACTIVE";
            default -> "UNINSTALLED";
        };
    }

    @Deactivate
    void deactivate() {
        context.removeFrameworkListener(onStarted);
        stopping.countDown();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(STOP_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            log.warn("apps: the folder's thread is still busy {} s after its bundle stopped", STOP_SECONDS);
        }
    }
}
