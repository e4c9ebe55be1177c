package net.beaconcontroller.config.internal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.runtime.ServiceComponentRuntime;
import org.osgi.service.log.LogReaderService;
import org.osgi.service.metatype.MetaTypeInformation;
import org.osgi.service.metatype.MetaTypeService;
import org.osgi.util.tracker.BundleTracker;
import org.osgi.util.tracker.BundleTrackerCustomizer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.config.StartUp;

/**
 * Feeds Configuration Admin from {@code beacon.properties}: every bundle's designated PIDs (from its metatype) get a
 * validated configuration when the bundle resolves, whether it was there at start-up or installed later. During
 * start-up a bad value ends the process (exit 2); later it keeps only the component concerned from activating.
 */
@Component(service = ConfigAgent.class, immediate = true)
public final class ConfigAgent {
    private static final Logger log = LoggerFactory.getLogger(ConfigAgent.class);
    /** How long a component may take to receive and act on a configuration. */
    static final Duration SETTLE = Duration.ofSeconds(10);

    private final MetaTypeService metatype;
    private final ScrWatch watch;
    private final ProcessLifecycle lifecycle;
    private final Configurator configurator;
    private final BundleContext context;
    /** One thread for the checks that wait on components, so no framework thread waits. */
    private final ExecutorService checks = Executors.newSingleThreadExecutor(
            r -> ProcessLifecycle.thread(r, "beacon-config"));
    /** Stops waiting for the start-up to be over (see {@link StartUp}). */
    private final Runnable stopWaiting;
    private final BundleTracker<Bundle> tracker;
    /** True until start-up is judged: until then a bad value ends the process. */
    private volatile boolean startingUp;
    /**
     * Set when the framework reached its start level: a bundle tracked after that was installed or started from the
     * console, and its problems are its own, not a failed start-up (which may still be being judged).
     */
    private volatile boolean levelReached;
    private static final long REPORT_REPEAT_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** Problems reported in the last few seconds, by line. Guarded by this. */
    private final Map<String, Long> recentReports = new HashMap<>();
    /** The bundles present at start-up, whose failures {@link #judgeStartup} judges. */
    private volatile Set<Long> startupBundles = Set.of();

    @Activate
    public ConfigAgent(BundleContext context, @Reference ConfigurationAdmin cm, @Reference MetaTypeService metatype,
            @Reference ServiceComponentRuntime scr, @Reference LogReaderService logs,
            @Reference ProcessLifecycle lifecycle) {
        this.context = context;
        this.metatype = metatype;
        this.lifecycle = lifecycle;
        this.watch = new ScrWatch(scr, logs);
        startingUp = StartUp.inProgress(context);
        levelReached = !startingUp;
        Path file = SettingsFile.location();
        List<RawSetting> fromFile = List.of();
        try {
            fromFile = SettingsFile.read(file);
        } catch (SettingsFile.Unreadable e) {
            report(e.getMessage(), startingUp);
        }
        configurator = new Configurator(file, new SettingStore(fromFile, System.getProperties()), new CmSink(cm),
                watch, SETTLE);
        tracker = new BundleTracker<>(context, Bundle.RESOLVED | Bundle.STARTING | Bundle.ACTIVE, new Customizer());
        tracker.open();
        if (startingUp) {
            stopWaiting = StartUp.whenOver(context, this::startUpOver);
        } else {
            // Installed or updated into a running Beacon: no start-up to judge.
            stopWaiting = () -> { };
            checks.execute(this::warnUnknownKeys);
        }
    }

    Configurator configurator() {
        return configurator;
    }

    /** Every bundle of the start-up has been started: judged on the checks' thread. */
    private void startUpOver() {
        startupBundles = Arrays.stream(context.getBundles()).map(Bundle::getBundleId).collect(Collectors.toSet());
        levelReached = true;
        checks.execute(this::judgeStartup);
    }

    /** At the end of start-up: every bundle is there, so unknown keys are known, and failed activations end the process. */
    private void judgeStartup() {
        if (lifecycle.failing()) {
            return;
        }
        warnUnknownKeys();
        try {
            long deadline = System.nanoTime() + SETTLE.toNanos();
            for (String pid : startupPids()) {
                Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
                watch.await(pid, configurator.expected(pid), left);
            }
        } catch (InterruptedException e) {
            return;
        }
        Failures.first(watch.failures().stream().filter(f -> startupBundles.contains(f.bundle())).toList()).ifPresent(
                f -> report(Failures.line(f.component(), f.failure(), configurator::sourceOf), true));
        startingUp = false;
    }

    private List<String> startupPids() {
        var pids = new ArrayList<String>();
        startupBundles.forEach(id -> pids.addAll(configurator.pids(id)));
        return pids;
    }

    private void reloadFile() {
        try {
            configurator.reloadFile(SettingsFile.read(SettingsFile.location()));
        } catch (SettingsFile.Unreadable e) {
            log.warn("{}; keeping the settings read before", e.getMessage());
        }
    }

    private void warnUnknownKeys() {
        configurator.unknownKeys().forEach(w -> log.warn("{}", w));
    }

    /** A bundle that started after start-up: report a component that rejected its settings. */
    private void checkStarted(Bundle bundle) {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        try {
            for (String pid : configurator.pids(bundle.getBundleId())) {
                while (true) {
                    Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
                    var outcome = watch.await(pid, configurator.expected(pid), left);
                    if (outcome.result() == ComponentWatch.Result.FAILED) {
                        report(Failures.line(outcome.component(), outcome.failure(), configurator::sourceOf)
                                + origin(bundle), false);
                    }
                    // Declarative Services may see the bundle after this tracker did: give it until the deadline.
                    if (outcome.result() != ComponentWatch.Result.NO_COMPONENT || left.isZero()) {
                        break;
                    }
                    Thread.sleep(100);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Which jar a bundle installed at runtime came from (an app dropped into the apps folder, or installed from the
     * console): with several apps arriving, the setting's key alone may not say whose it is.
     */
    static String origin(Bundle bundle) {
        String location = bundle.getLocation();
        if (location == null || !location.endsWith(".jar")) {
            return "";
        }
        return " (" + location.substring(location.lastIndexOf('/') + 1) + ")";
    }

    /**
     * One line: at start-up it ends the process; later it is logged and shown on the console. A start-up that is
     * already failing only logs more (the framework, stopping, changes bundles under the tracker).
     */
    private void report(String line, boolean duringStartup) {
        if (duringStartup || lifecycle.failing()) {
            lifecycle.failStartup(line);
        } else if (firstReport(line)) {
            log.error("{}", line);
            System.out.println("beacon: " + line);
        }
    }

    /**
     * An update takes a bundle out of the tracker and back in, often twice in a row: the same problem is reported
     * once, not at each step.
     */
    private synchronized boolean firstReport(String line) {
        long now = System.nanoTime();
        recentReports.values().removeIf(t -> now - t > REPORT_REPEAT_NANOS);
        return recentReports.putIfAbsent(line, now) == null;
    }

    private List<PidSpec> pidSpecs(Bundle bundle) {
        MetaTypeInformation info = metatype.getMetaTypeInformation(bundle);
        var specs = new ArrayList<PidSpec>();
        if (info == null) {
            return specs;
        }
        for (String pid : info.getPids()) {
            if (!SettingKey.addressable(pid)) {
                // A key's PID is the part before its first dot: a PID with dots (e.g. Felix SCR's own) has no keys.
                continue;
            }
            specs.add(PidSpec.of(pid, info.getObjectClassDefinition(pid, null)));
        }
        return specs;
    }

    private final class Customizer implements BundleTrackerCustomizer<Bundle> {
        @Override
        public Bundle addingBundle(Bundle bundle, BundleEvent event) {
            var specs = pidSpecs(bundle);
            if (specs.isEmpty()) {
                return null;
            }
            boolean duringStartup = startingUp && !levelReached;
            if (levelReached) {
                reloadFile();
            }
            String origin = duringStartup ? "" : origin(bundle);
            configurator.addBundle(bundle.getBundleId(), specs).forEach(p -> report(p.line() + origin, duringStartup));
            startedCheck(bundle);
            return bundle;
        }

        @Override
        public void modifiedBundle(Bundle bundle, BundleEvent event, Bundle tracked) {
            startedCheck(bundle);
        }

        @Override
        public void removedBundle(Bundle bundle, BundleEvent event, Bundle tracked) {
            configurator.removeBundle(bundle.getBundleId());
        }

        private void startedCheck(Bundle bundle) {
            if (bundle.getState() == Bundle.ACTIVE && levelReached && !startupBundles.contains(bundle.getBundleId())) {
                checks.execute(() -> checkStarted(bundle));
            }
        }
    }

    @Deactivate
    void deactivate() {
        tracker.close();
        stopWaiting.run();
        checks.shutdownNow();
        watch.close();
    }
}
