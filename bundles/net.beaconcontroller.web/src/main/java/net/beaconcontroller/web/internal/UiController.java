package net.beaconcontroller.web.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.osgi.framework.FrameworkUtil;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import net.beaconcontroller.web.IWebManageable;
import net.beaconcontroller.web.Page;

/**
 * The web UI: a shell page ({@code /ui/}) that lists the pages every contribution offers and loads each page's
 * JavaScript module from the bundle that contributed it. Every file comes from a bundle: nothing from the internet.
 */
@RestController
final class UiController {
    /** A page, where it comes from, and its module's address. */
    record Entry(String id, String title, int order, String module, String bundle) {
    }

    private record Source(Page page, ClassLoader loader, String bundle) {
    }

    /** The platform's own pages, drawn by modules beside the shell. */
    static final List<Page> PLATFORM_PAGES = List.of(new Page("overview", "Overview", 10, "ui/overview.js"),
            new Page("bundles", "Bundles", 90, "ui/bundles.js"));

    /**
     * Only scripts of this server, its own connections, and styles and images of its own: a page can show what a
     * switch or host reports (names, descriptions) without that text ever running as script.
     */
    private static final String POLICY = "default-src 'self'; img-src 'self' data:; object-src 'none';"
            + " base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

    private static final Map<String, MediaType> TYPES = Map.of("html", MediaType.TEXT_HTML,
            "js", MediaType.valueOf("text/javascript;charset=UTF-8"), "css", MediaType.valueOf("text/css;charset=UTF-8"),
            "svg", MediaType.valueOf("image/svg+xml"));

    private final Supplier<List<IWebManageable>> contributions;

    UiController(Supplier<List<IWebManageable>> contributions) {
        this.contributions = contributions;
    }

    @GetMapping("/")
    ResponseEntity<Void> root() {
        return ResponseEntity.status(HttpStatus.FOUND).header(HttpHeaders.LOCATION, "/ui/").build();
    }

    @GetMapping({"/ui", "/ui/"})
    ResponseEntity<byte[]> shell() throws IOException {
        return file("index.html");
    }

    @GetMapping("/ui/{file:[a-z0-9-]+\\.(?:html|js|css|svg)}")
    ResponseEntity<byte[]> file(@PathVariable String file) throws IOException {
        return serve(UiController.class.getClassLoader(), "ui/" + file, file);
    }

    @GetMapping("/ui/pages/{id:[a-z][a-z0-9-]*}.js")
    ResponseEntity<byte[]> module(@PathVariable String id) throws IOException {
        for (var s : sources()) {
            if (s.page().id().equals(id)) {
                return serve(s.loader(), s.page().script(), id + ".js");
            }
        }
        throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no page '" + id + "': its bundle is not running");
    }

    /** The pages of every running contribution, in navigation order; the UI reads it again on {@code ui-changed}. */
    @GetMapping("/wm/beacon/ui/pages/json")
    List<Entry> pages() {
        return sources().stream().map(s -> new Entry(s.page().id(), s.page().title(), s.page().order(),
                "/ui/pages/" + s.page().id() + ".js", s.bundle())).toList();
    }

    /**
     * Each id once, the first registered winning (the platform's own pages before any contribution), so a bundle
     * cannot take over a page another one serves; then in navigation order.
     */
    private List<Source> sources() {
        var all = new ArrayList<Source>();
        var platform = UiController.class.getClassLoader();
        PLATFORM_PAGES.forEach(p -> all.add(new Source(p, platform, "net.beaconcontroller.web")));
        for (var c : contributions.get()) {
            var loader = c.getClass().getClassLoader();
            for (var p : c.pages()) {
                all.add(new Source(p, loader, bundleName(c)));
            }
        }
        var seen = new HashSet<String>();
        return all.stream().filter(s -> seen.add(s.page().id()))
                .sorted(Comparator.comparingInt((Source s) -> s.page().order()).thenComparing(s -> s.page().id()))
                .toList();
    }

    private static String bundleName(IWebManageable c) {
        var bundle = FrameworkUtil.getBundle(c.getClass());
        return bundle == null ? c.getClass().getPackageName() : bundle.getSymbolicName();
    }

    private static ResponseEntity<byte[]> serve(ClassLoader loader, String resource, String name) throws IOException {
        try (var in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no file " + name);
            }
            var type = TYPES.getOrDefault(name.substring(name.lastIndexOf('.') + 1), MediaType.APPLICATION_OCTET_STREAM);
            // Revalidated on every load: a bundle updated at runtime shows its new pages at once.
            return ResponseEntity.ok().contentType(type).cacheControl(CacheControl.noCache())
                    .header("Content-Security-Policy", POLICY).header("X-Content-Type-Options", "nosniff")
                    .body(in.readAllBytes());
        }
    }
}
