package net.beaconcontroller.web;

import java.util.List;
import java.util.Map;

/**
 * What a bundle adds to Beacon's web server, published as an OSGi service (the whiteboard): its REST controllers and
 * web UI pages appear when the service is registered and vanish when it goes, without restarting the web server.
 *
 * <p>A controller is a plain object whose class carries Spring Web MVC's {@code @RestController} and
 * {@code @GetMapping}/{@code @PostMapping}/... annotations; return values become JSON (Jackson). Return a
 * {@link java.util.concurrent.CompletableFuture} for answers that wait for a switch: no server thread waits with it.
 * Each contribution is its own small bundle ({@code <app>.web}), so the app runs without the web.
 */
public interface IWebManageable {
    /** The REST controllers this bundle serves. */
    List<Object> controllers();

    /** The web UI pages this bundle adds; their scripts are resources of the bundle that registers this service. */
    default List<Page> pages() {
        return List.of();
    }

    /**
     * Entries this bundle adds to {@code /wm/core/controller/summary/json}, e.g. {@code "# hosts" -> 3}: read on every
     * request, from any thread.
     */
    default Map<String, Object> summary() {
        return Map.of();
    }

    /** Adds this bundle's metric families to {@code /metrics}: called on every scrape, from any thread. */
    default void metrics(Metrics metrics) {
    }
}
