package net.beaconcontroller.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.File;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The topology page at scale, measured in headless Chromium: how long until a large network is on screen, and the
 * frame times while the user pans and zooms. Run by launcher/e2e/topology_scale.sh against Beacon and
 * launcher/e2e/emulate_network.py; {@code beacon.ui.scale} says what to expect
 * ({@code switches=1000,links=1936,hosts=10000}); without it the test is skipped.
 */
class TopologyScaleTest {
    private static final String URL = System.getProperty("beacon.ui.url", "");
    private static final String SCALE = System.getProperty("beacon.ui.scale", "");

    @Test
    void largeNetworkLoadsAndStaysInteractive() {
        assumeFalse(URL.isBlank() || SCALE.isBlank(), "beacon.ui.url and beacon.ui.scale not set: run by "
                + "launcher/e2e/topology_scale.sh");
        var expect = parse(SCALE);
        var options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800");
        var driver = new ChromeDriver(new ChromeDriverService.Builder()
                .usingDriverExecutable(new File("/usr/bin/chromedriver")).build(), options);
        try {
            driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
            driver.get(URL + "/ui/#/topology");
            var canvas = new WebDriverWait(driver, Duration.ofSeconds(60)).until(d -> d.findElement(By.id("topology-canvas")));
            new WebDriverWait(driver, Duration.ofSeconds(60)).until(d ->
                    expect.get("switches").equals(canvas.getDomAttribute("data-switches"))
                    && expect.get("hosts").equals(canvas.getDomAttribute("data-hosts"))
                    && expect.get("links").equals(canvas.getDomAttribute("data-links"))
                    && ((JavascriptExecutor) d).executeScript("return window.beaconTopology.stats().loadMs") != null);
            var js = (JavascriptExecutor) driver;
            // From the start of navigation to the first frame, which must already hold the whole network (the
            // script waits until the controller knows all of it before the page is opened).
            var loaded = ((Number) js.executeScript("const s = window.beaconTopology.stats();"
                    + "return s.loadMs + window.beaconTopology.startedAt;")).doubleValue();
            @SuppressWarnings("unchecked")
            var first = (Map<String, Number>) js.executeScript("return window.beaconTopology.stats().loaded;");
            for (var kind : List.of("switches", "links", "hosts")) {
                assertEquals(Long.parseLong(expect.get(kind)), first.get(kind).longValue(), kind + " in the first frame");
            }
            // Two seconds of panning and zooming, one step per frame, while the layout may still be settling:
            // the interval between frames is what the user feels.
            @SuppressWarnings("unchecked")
            var intervals = (List<Number>) js.executeAsyncScript("const done = arguments[arguments.length - 1];"
                    + "const t = window.beaconTopology; const out = []; let last = performance.now(); let i = 0;"
                    + "function step(now) { out.push(now - last); last = now; i++;"
                    + "  t.pan(4, 2); if (i % 20 === 0) t.zoom(i % 40 === 0 ? 1.2 : 0.8);"
                    + "  if (i < 120) requestAnimationFrame(step); else done(out.slice(1)); }"
                    + "requestAnimationFrame(step);");
            var sorted = intervals.stream().mapToDouble(Number::doubleValue).sorted().toArray();
            double p50 = sorted[sorted.length / 2];
            double p95 = sorted[(int) (sorted.length * 0.95)];
            System.out.printf("topology scale: %s switches, %s links, %s hosts: on screen %.0f ms after navigation;"
                    + " pan/zoom frame interval p50 %.1f ms, p95 %.1f ms, max %.1f ms (%d frames)%n",
                    expect.get("switches"), expect.get("links"), expect.get("hosts"), loaded, p50, p95,
                    sorted[sorted.length - 1], sorted.length);
            assertTrue(loaded < 5000, "on screen after " + loaded + " ms: over 5 s");
            assertTrue(p95 < 100, "p95 frame interval " + p95 + " ms while panning: not interactive");
        } finally {
            driver.quit();
        }
    }

    static Map<String, String> parse(String text) {
        var m = new LinkedHashMap<String, String>();
        for (var kv : text.split(",")) {
            m.put(kv.split("=")[0], kv.split("=")[1]);
        }
        return m;
    }
}
