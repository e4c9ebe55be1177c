package net.beaconcontroller.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web UI in headless Chromium against a running Beacon with the network apps and an Open vSwitch network
 * (launcher/e2e/run_e2e.py's web_ui test starts both and passes what to expect):
 * <ul>
 * <li>{@code beacon.ui.url}: the web server, e.g. {@code http://127.0.0.1:8080} (none: every test is skipped)</li>
 * <li>{@code beacon.ui.expect}: {@code switches=4,links=4,hosts=4}, the network after a pingall</li>
 * <li>{@code beacon.ui.switch}: a switch's DPID, for the flows and the static flow</li>
 * <li>{@code beacon.ui.route}: two host addresses, {@code 10.0.0.1,10.0.0.3}</li>
 * <li>{@code beacon.ui.linkDown}, {@code beacon.ui.linkUp}: shell commands taking one link down and up</li>
 * <li>{@code beacon.ui.dumpFlows}: a shell command printing that switch's flows ({@code ovs-ofctl dump-flows})</li>
 * <li>{@code beacon.ui.screenshots}: a directory: every page is also saved there as PNG, wide and narrow</li>
 * </ul>
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebUiTest extends BrowserTest {
    private static final String URL = System.getProperty("beacon.ui.url", "");
    private static final List<String> PAGES = List.of("overview", "switches", "devices", "topology", "static-flows",
            "firewall", "acl", "bundles");

    @BeforeAll
    static void browser() {
        browser(URL, "beacon.ui.url not set: run by launcher/e2e/run_e2e.py --tests web_ui");
    }

    @Test
    @Order(1)
    void everyPageLoadsAndIsReachableByKeyboard() throws IOException {
        open("overview");
        var nav = driver.findElements(By.cssSelector("#nav a"));
        assertEquals(PAGES, nav.stream().map(a -> a.getDomAttribute("data-page")).toList(), "navigation");
        for (var page : PAGES) {
            open(page);
            var h1 = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("main h1")));
            assertFalse(h1.getText().isBlank(), page + ": heading");
            assertEquals("page", driver.findElement(By.cssSelector("#nav a[data-page='" + page + "']"))
                    .getDomAttribute("aria-current"), page + ": marked current");
            settle();
            screenshot(page);
        }
        // Keyboard: the first Tab reaches the skip link, the next ones the navigation, Enter follows a link.
        open("overview");
        // A fresh load: the focus starts at the top of the document, as for a user arriving.
        driver.navigate().refresh();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("main h1")));
        new org.openqa.selenium.interactions.Actions(driver).sendKeys(Keys.TAB).perform();
        assertEquals("skip", active().getDomAttribute("class"));
        active().sendKeys(Keys.TAB);
        active().sendKeys(Keys.TAB);
        active().sendKeys(Keys.TAB);
        assertEquals("switches", active().getDomAttribute("data-page"), "Tab order: skip link, brand, pages");
        active().sendKeys(Keys.ENTER);
        wait.until(ExpectedConditions.textToBe(By.cssSelector("main h1"), "Switches"));
        // Phone width: the pages still fit without sideways scrolling of the whole page.
        driver.manage().window().setSize(new Dimension(390, 844));
        try {
            for (var page : List.of("overview", "topology", "devices", "firewall", "acl")) {
                open(page);
                settle();
                long overflow = (Long) js("return document.documentElement.scrollWidth - window.innerWidth");
                assertTrue(overflow <= 0, page + " is " + overflow + " px wider than a phone");
                screenshot(page + "-phone");
            }
        } finally {
            driver.manage().window().setSize(new Dimension(1280, 800));
        }
    }

    @Test
    @Order(2)
    void overviewShowsTheControllerAndItsPipelines() throws IOException {
        open("overview");
        var expect = expected();
        wait.until(d -> card("switches").equals(expect.get("switches")));
        assertEquals(expect.get("links"), card("links"));
        assertEquals(expect.get("hosts"), card("hosts"));
        assertTrue(driver.findElement(By.id("overview-pipelines")).getText().contains("PACKET_IN"));
        // Rates come from two readings two seconds apart.
        wait.until(d -> d.findElement(By.id("overview-rates")).getText().contains("/s"));
        assertEquals(Integer.parseInt(expect.get("switches")),
                driver.findElements(By.cssSelector("main tbody tr")).size(), "a row per switch");
    }

    @Test
    @Order(3)
    void switchesDevicesAndPorts() {
        var expect = expected();
        open("switches");
        wait.until(d -> d.findElements(By.cssSelector("main tbody tr")).size() == Integer.parseInt(expect.get("switches")));
        var dpid = System.getProperty("beacon.ui.switch");
        driver.findElement(By.linkText(dpid)).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("main h1"), dpid));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("[data-tab='flows']")));
        // Ports with live counters: rates appear after the second reading.
        wait.until(d -> d.findElements(By.cssSelector("#switch-panel tbody tr")).size() >= 2);
        wait.until(d -> d.findElement(By.id("switch-panel")).getText().contains("/s"));
        assertTrue(driver.findElement(By.id("switch-panel")).getText().contains("up"));
        // The flows themselves are checked with a static flow (the routing flows may have timed out by now).
        driver.findElement(By.cssSelector("[data-tab='flows']")).click();
        wait.until(d -> d.findElement(By.id("switch-panel")).getText().contains("Match"));
        driver.findElement(By.cssSelector("[data-tab='tables']")).click();
        wait.until(d -> d.findElement(By.id("switch-panel")).getText().contains("Lookups")
                && !d.findElements(By.cssSelector("#switch-panel tbody tr")).isEmpty());

        open("devices");
        wait.until(d -> d.findElement(By.id("devices-count")).getText().startsWith(expect.get("hosts") + " host"));
        var first = System.getProperty("beacon.ui.route").split(",")[0];
        driver.findElement(By.cssSelector("main input[type=search]")).sendKeys(first);
        wait.until(d -> d.findElements(By.cssSelector("main tbody tr")).size() == 1);
        assertTrue(driver.findElement(By.cssSelector("main tbody tr")).getText().contains(first));
        // Sorting by a header: ascending, then descending on a second click.
        var header = driver.findElement(By.xpath("//th[button[text()='IPv4']]"));
        header.findElement(By.tagName("button")).click();
        assertEquals("ascending", driver.findElement(By.xpath("//th[button[text()='IPv4']]")).getDomAttribute("aria-sort"));
    }

    @Test
    @Order(4)
    void topologyGraphFollowsTheNetwork() throws Exception {
        var expect = expected();
        open("topology");
        var canvas = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("topology-canvas")));
        wait.until(d -> expect.get("switches").equals(canvas.getDomAttribute("data-switches"))
                && expect.get("links").equals(canvas.getDomAttribute("data-links"))
                && expect.get("hosts").equals(canvas.getDomAttribute("data-hosts")));
        int links = Integer.parseInt(expect.get("links"));
        assertEquals(links, driver.findElements(By.cssSelector("#topology-links li")).size());
        // Something is drawn: the canvas is not blank.
        wait.until(d -> "true".equals(canvas.getDomAttribute("data-settled")));
        assertTrue((Boolean) js("const c = document.getElementById('topology-canvas');"
                + "const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
                + "for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) return true; return false;"), "drawn");
        screenshot("topology");

        // A click on a switch shows its details.
        var stats = (Map<?, ?>) js("return window.beaconTopology.stats()");
        assertEquals(Long.parseLong(expect.get("switches")), stats.get("switches"));

        // The route between two hosts is highlighted and described.
        var route = System.getProperty("beacon.ui.route").split(",");
        driver.findElement(By.id("route-from")).sendKeys(route[0]);
        driver.findElement(By.id("route-to")).sendKeys(route[1]);
        driver.findElement(By.id("route-to")).sendKeys(Keys.ENTER);
        var described = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("topology-route")));
        assertTrue(described.getText().matches(".*: \\d+ switch(es)?"), described.getText());
        screenshot("topology-route");

        // A link taken down leaves the graph within seconds (server push), and returns when it comes back.
        long down = System.nanoTime();
        shell(System.getProperty("beacon.ui.linkDown"));
        try {
            new WebDriverWait(driver, Duration.ofSeconds(10)).until(d ->
                    Integer.toString(links - 1).equals(canvas.getDomAttribute("data-links")));
            System.out.printf("web_ui: link gone from the graph %.1f s after it went down%n",
                    (System.nanoTime() - down) / 1e9);
        } finally {
            shell(System.getProperty("beacon.ui.linkUp"));
        }
        new WebDriverWait(driver, Duration.ofSeconds(40)).until(d ->
                Integer.toString(links).equals(canvas.getDomAttribute("data-links")));
    }

    @Test
    @Order(5)
    void aStaticFlowAddedInTheFormReachesTheSwitch() throws Exception {
        var dpid = System.getProperty("beacon.ui.switch");
        open("static-flows");
        var form = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("static-flow-form")));
        // Checked before sending: an IPv4 field without the IPv4 Ethernet type is refused and nothing is sent.
        fill(Map.of("name", "ui-bad", "switch", dpid, "priority", "40001", "ipv4_dst", "10.0.0.98",
                "actions", "output=1"));
        form.findElement(By.cssSelector("button[type=submit]")).click();
        var alert = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#static-flows-status [role=alert]")));
        assertTrue(alert.getText().contains("0x800"), alert.getText());
        // The server's own checks answer too: an action the form cannot check.
        fill(Map.of("name", "ui-bad", "eth_type", "0x800", "actions", "jump=3"));
        form.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(d -> d.findElement(By.id("static-flows-status")).getText().contains("Not added"));
        // Chromium logs every 4xx answer (a moment later): the one provoked here, and nothing else, is expected.
        var errors = new ArrayList<String>();
        wait.until(d -> {
            errors.addAll(consoleErrors());
            return !errors.isEmpty();
        });
        assertTrue(errors.size() == 1 && errors.get(0).contains("/wm/staticflowpusher/json") && errors.get(0).contains("400"),
                errors.toString());
        assertFalse(shell(System.getProperty("beacon.ui.dumpFlows")).contains("priority=40001"));

        fill(Map.of("name", "ui-flow", "priority", "40002", "actions", "output=1"));
        form.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(d -> d.findElement(By.id("static-flows-status")).getText().contains("Entry pushed"));
        wait.until(d -> !d.findElements(By.cssSelector("main tbody tr[data-key='ui-flow']")).isEmpty());
        waitFlows(true);
        var dumped = shell(System.getProperty("beacon.ui.dumpFlows")).lines()
                .filter(l -> l.contains("priority=40002")).findFirst().orElseThrow();
        assertTrue(dumped.contains("nw_dst=10.0.0.98") && dumped.contains("actions=output:1"), dumped);
        screenshot("static-flows-added");

        // The switch page shows it in ovs-ofctl's words, with its owner, and deletes it from the switch; a static
        // flow the pusher still lists is written again at once.
        open("switches/" + dpid);
        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("[data-tab='flows']"))).click();
        var row = wait.until(ExpectedConditions.presenceOfElementLocated(
                By.xpath("//tbody/tr[td[normalize-space()='40002']]")));
        assertTrue(row.getText().contains("nw_dst=10.0.0.98") && row.getText().contains("staticflowpusher"),
                row.getText());
        screenshot("switch-flows");
        row.findElement(By.cssSelector("[data-action='delete-flow']")).click();
        wait.until(d -> d.findElements(By.cssSelector("main .message.ok")).stream().anyMatch(e -> e.getText()
                .contains("Deleted the flow")));
        waitFlows(true);

        // Deleted from the list: gone for good.
        open("static-flows");
        var entry = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("main tbody tr[data-key='ui-flow']")));
        entry.findElement(By.cssSelector("[data-action='delete-static-flow']")).click();
        wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("main tbody tr[data-key='ui-flow']"), 0));
        waitFlows(false);
    }

    @Test
    @Order(6)
    void anAppStoppedAndStartedFromTheBundlesPage() throws IOException {
        var app = "net.beaconcontroller.staticflowpusher.web";
        open("bundles");
        var stop = wait.until(ExpectedConditions.elementToBeClickable(
                By.cssSelector("tr[data-key='" + app + "'] [data-action='stop']")));
        stop.click();
        // Its page leaves the navigation; the bundles page itself stays.
        wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#nav a[data-page='static-flows']"), 0));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("tr[data-key='" + app + "']"), "RESOLVED"));
        assertEquals("Bundles", driver.findElement(By.cssSelector("main h1")).getText());
        screenshot("bundles-stopped");
        open("static-flows");
        wait.until(ExpectedConditions.textToBe(By.cssSelector("main h1"), "Page not available"));
        open("bundles");
        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("tr[data-key='" + app + "'] [data-action='start']")))
                .click();
        wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#nav a[data-page='static-flows']"), 1));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("tr[data-key='" + app + "']"), "ACTIVE"));
        driver.findElement(By.cssSelector("#nav a[data-page='static-flows']")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("static-flow-form")));
    }

    // ---- helpers ----

    private static void open(String page) {
        driver.get(URL + "/ui/#/" + page);
        wait.until(d -> !d.findElements(By.cssSelector("main [data-page] h1")).isEmpty()
                || !d.findElements(By.cssSelector("main > h1")).isEmpty());
    }

    /** Lets a page's first readings and layout come in before a screenshot or a measurement. */
    private static void settle() {
        try {
            TimeUnit.MILLISECONDS.sleep(2500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static WebElement active() {
        return driver.switchTo().activeElement();
    }

    private static Object js(String script) {
        return ((JavascriptExecutor) driver).executeScript(script);
    }

    private static String card(String id) {
        return driver.findElement(By.cssSelector("[data-card='" + id + "'] .value")).getText();
    }

    private static Map<String, String> expected() {
        var m = new LinkedHashMap<String, String>();
        for (var kv : System.getProperty("beacon.ui.expect").split(",")) {
            var parts = kv.split("=", 2);
            m.put(parts[0].trim(), parts[1].trim());
        }
        return m;
    }

    private static void fill(Map<String, String> values) {
        values.forEach((name, value) -> {
            var input = driver.findElement(By.cssSelector("#static-flow-form [name='" + name + "']"));
            input.clear();
            input.sendKeys(value);
        });
    }

    private static void waitFlows(boolean present) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (shell(System.getProperty("beacon.ui.dumpFlows")).contains("priority=40002") != present) {
            if (System.nanoTime() > end) {
                fail("the flow at priority 40002 is " + (present ? "not" : "still") + " on the switch");
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    private static String shell(String command) throws IOException, InterruptedException {
        assumeTrue(command != null && !command.isBlank(), "no shell command given");
        var p = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true).start();
        var out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail("`" + command + "` failed: " + out);
        }
        return out;
    }
}
