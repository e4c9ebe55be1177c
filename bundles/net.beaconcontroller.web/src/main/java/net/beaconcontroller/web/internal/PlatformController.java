package net.beaconcontroller.web.internal;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.springframework.web.server.ResponseStatusException;

import net.beaconcontroller.web.IWebManageable;
import net.beaconcontroller.web.Metrics;

/**
 * What the platform itself serves: Floodlight's controller-wide endpoints (health, memory, uptime, the summary that
 * every contribution adds to) and Beacon's bundle management under {@code /wm/beacon/bundles}.
 */
@RestController
final class PlatformController {
    /** A bundle as {@code /wm/beacon/bundles/json} lists it. */
    record BundleInfo(long id, String symbolicName, String version, String name, String state, String location) {
        static BundleInfo of(Bundle b) {
            return new BundleInfo(b.getBundleId(), b.getSymbolicName(), b.getVersion().toString(),
                    b.getHeaders().get(Constants.BUNDLE_NAME), stateName(b.getState()), b.getLocation());
        }
    }

    private final BundleContext context;
    private final Supplier<List<IWebManageable>> contributions;
    private final EventHub events;

    PlatformController(BundleContext context, Supplier<List<IWebManageable>> contributions, EventHub events) {
        this.context = context;
        this.contributions = contributions;
        this.events = events;
    }

    /**
     * Server push (server-sent events): what changes, as it changes. {@code topics} picks by the event name's first
     * word ({@code switch}, {@code link}, {@code device}, ...); none: everything. {@code hello} opens the stream,
     * {@code resync} says events were lost and the state should be read again.
     */
    @GetMapping(value = "/wm/beacon/events", produces = "text/event-stream")
    SseEmitter events(@RequestParam(name = "topics", required = false) String topics) {
        return events.subscribe(topics == null || topics.isBlank() ? Set.of()
                : Set.copyOf(Arrays.asList(topics.trim().split("\\s*,\\s*"))));
    }

    @GetMapping("/wm/core/health/json")
    Map<String, Object> health() {
        return Map.of("healthy", true);
    }

    @GetMapping("/wm/core/memory/json")
    Map<String, Object> memory() {
        var rt = Runtime.getRuntime();
        var m = new LinkedHashMap<String, Object>();
        m.put("total", rt.totalMemory());
        m.put("free", rt.freeMemory());
        return m;
    }

    @GetMapping("/wm/core/system/uptime/json")
    Map<String, Object> uptime() {
        return Map.of("systemUptimeMsec", ManagementFactory.getRuntimeMXBean().getUptime());
    }

    /** The JVM behind the controller, for the overview: what Floodlight's health and memory endpoints leave out. */
    @GetMapping("/wm/beacon/system/json")
    Map<String, Object> system() {
        var runtime = ManagementFactory.getRuntimeMXBean();
        var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        var m = new LinkedHashMap<String, Object>();
        m.put("uptimeMsec", runtime.getUptime());
        m.put("startTime", runtime.getStartTime());
        m.put("threads", ManagementFactory.getThreadMXBean().getThreadCount());
        m.put("processors", Runtime.getRuntime().availableProcessors());
        m.put("heapUsed", heap.getUsed());
        m.put("heapCommitted", heap.getCommitted());
        m.put("heapMax", heap.getMax());
        m.put("java", runtime.getVmName() + " " + runtime.getVmVersion());
        m.put("version", context.getBundle().getVersion().toString());
        return m;
    }

    @GetMapping("/wm/core/controller/summary/json")
    Map<String, Object> summary() {
        var m = new LinkedHashMap<String, Object>();
        contributions.get().forEach(c -> m.putAll(c.summary()));
        return m;
    }

    /** Prometheus' text format: the JVM's own numbers, then every contribution's. */
    @GetMapping(value = "/metrics", produces = "text/plain; version=0.0.4; charset=utf-8")
    String metrics() {
        var metrics = new Metrics();
        var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        metrics.gauge("beacon_jvm_heap_bytes", "Java heap, used and committed.")
                .add(heap.getUsed(), "area", "used").add(heap.getCommitted(), "area", "committed");
        metrics.gauge("beacon_jvm_threads", "Live Java threads.")
                .add(ManagementFactory.getThreadMXBean().getThreadCount());
        metrics.gauge("beacon_uptime_seconds", "Time since the JVM started.")
                .add(ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0);
        metrics.gauge("beacon_web_event_clients", "Clients of /wm/beacon/events.").add(events.clients());
        metrics.counter("beacon_web_events_dropped_total", "Events not sent because the queue was full.")
                .add(events.dropped());
        contributions.get().forEach(c -> c.metrics(metrics));
        return metrics.text();
    }

    @GetMapping("/wm/beacon/bundles/json")
    List<BundleInfo> bundles() {
        return Arrays.stream(context.getBundles()).sorted(Comparator.comparingLong(Bundle::getBundleId))
                .map(BundleInfo::of).toList();
    }

    @PostMapping("/wm/beacon/bundles/{id}/start/json")
    BundleInfo start(@PathVariable String id) throws BundleException {
        var b = changeable(id);
        b.start();
        return BundleInfo.of(b);
    }

    @PostMapping("/wm/beacon/bundles/{id}/stop/json")
    BundleInfo stop(@PathVariable String id) throws BundleException {
        var b = changeable(id);
        b.stop();
        return BundleInfo.of(b);
    }

    /** Replaces the bundle with the uploaded jar, or reads its own location again when none is given. */
    @PostMapping("/wm/beacon/bundles/{id}/update/json")
    BundleInfo update(@PathVariable String id, @RequestParam(name = "jar", required = false) MultipartFile jar)
            throws BundleException, IOException {
        var b = changeable(id);
        if (jar == null) {
            b.update();
        } else {
            try (var in = jar.getInputStream()) {
                b.update(in);
            }
        }
        return BundleInfo.of(b);
    }

    @PostMapping("/wm/beacon/bundles/json")
    BundleInfo install(@RequestParam("jar") MultipartFile jar) throws IOException {
        var name = jar.getOriginalFilename() == null ? "bundle.jar" : jar.getOriginalFilename();
        try (var in = jar.getInputStream()) {
            return BundleInfo.of(context.installBundle("upload:" + name + "#" + System.currentTimeMillis(), in));
        } catch (BundleException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "not an installable bundle: " + e.getMessage());
        }
    }

    @DeleteMapping("/wm/beacon/bundles/{id}/json")
    BundleInfo uninstall(@PathVariable String id) throws BundleException {
        var b = changeable(id);
        b.uninstall();
        return BundleInfo.of(b);
    }

    /**
     * Bundles Beacon needs to run, by symbolic name or (ending in a dot or dash) prefix: stopping, updating or uninstalling one over HTTP would
     * take down the server answering (SCR stops every component, this one included) or the controller.
     */
    private static final List<String> NEEDED = List.of("org.eclipse.osgi", "org.apache.felix.scr",
            "org.apache.felix.configadmin", "org.apache.felix.metatype", "org.apache.felix.gogo.", "org.eclipse.equinox.",
            "org.apache.aries.", "org.osgi.", "net.beaconcontroller.config", "net.beaconcontroller.core",
            "net.beaconcontroller.openflow", "net.beaconcontroller.packet", "net.beaconcontroller.util",
            "net.beaconcontroller.web", "net.beaconcontroller.web.jetty", "org.eclipse.jetty.", "jakarta.",
            "org.springframework.", "com.fasterxml.", "slf4j.", "ch.qos.logback.", "org.objectweb.", "micrometer-");

    static boolean needed(String symbolicName) {
        return symbolicName != null && NEEDED.stream().anyMatch(n -> n.endsWith(".") || n.endsWith("-")
                ? symbolicName.startsWith(n) : symbolicName.equals(n));
    }

    /**
     * A bundle that may be changed over HTTP: not the framework, this server (which would cut the answer) or a bundle
     * Beacon needs to run.
     */
    private Bundle changeable(String id) {
        long n;
        try {
            n = Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "bundle id '" + id + "' is not a number");
        }
        var b = context.getBundle(n);
        if (b == null) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no bundle " + n);
        }
        if (n == 0 || b.equals(context.getBundle())) {
            throw new ResponseStatusException(HttpStatus.CONFLICT, b.getSymbolicName()
                    + " serves this request; change it from the console");
        }
        if (needed(b.getSymbolicName())) {
            throw new ResponseStatusException(HttpStatus.CONFLICT, b.getSymbolicName()
                    + " is needed to run Beacon and its web server; change it from the console");
        }
        return b;
    }

    private static String stateName(int state) {
        return switch (state) {
            case Bundle.UNINSTALLED -> "UNINSTALLED";
            case Bundle.INSTALLED -> "INSTALLED";
            case Bundle.RESOLVED -> "RESOLVED";
            case Bundle.STARTING -> "STARTING";
            case Bundle.STOPPING -> "STOPPING";
            case Bundle.ACTIVE -> "ACTIVE";
            default -> Integer.toString(state);
        };
    }
}
