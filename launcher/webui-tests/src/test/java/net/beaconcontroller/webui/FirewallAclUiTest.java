package net.beaconcontroller.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.json.Json;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * The Firewall and ACL pages in headless Chromium against a running Beacon ({@code beacon.ui.url}; none: skipped),
 * checked against the REST API that a script would read. Needs no switch: rules and the firewall's state live in the
 * controller. Leaves the firewall off and the rule lists as it found them.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FirewallAclUiTest extends BrowserTest {
    private static final String URL = System.getProperty("beacon.ui.url", "");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final RulePage FIREWALL = new RulePage("firewall", "/wm/firewall/rules/json", "ruleid");
    private static final RulePage ACL = new RulePage("acl", "/wm/acl/rules/json", "id");

    /** A page of rules: its id (also its form's and status box's prefix), its REST list and the key of a rule's id. */
    private record RulePage(String id, String rest, String idKey) {
        List<Map<String, Object>> rules() {
            return FirewallAclUiTest.rules(rest);
        }

        String idOf(Map<String, Object> rule) {
            return rule.get(idKey).toString();
        }

        Map<String, Object> find(String key, String value) {
            return rules().stream().filter(r -> value.equals(r.get(key))).findFirst().orElseThrow();
        }

        /** Within the one document the tests load (submit() empties every field, whatever an earlier test left). */
        void open() {
            driver.get(URL + "/ui/#/" + id);
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id(id + "-form")));
        }

        /** Empties every field of the form, sets these (a select by its value) and submits it. */
        void submit(Map<String, String> values) {
            for (WebElement field : driver.findElements(By.cssSelector("#" + id + "-form [name]"))) {
                var name = field.getDomAttribute("name");
                if (field.getTagName().equals("select")) {
                    var select = new Select(field);
                    select.selectByIndex(0);
                    if (values.containsKey(name)) {
                        select.selectByValue(values.get(name));
                    }
                } else {
                    field.clear();
                    field.sendKeys(values.getOrDefault(name, ""));
                }
            }
            // A message from the last submit must not pass for this one's.
            ((JavascriptExecutor) driver).executeScript("arguments[0].replaceChildren()",
                    driver.findElement(By.id(id + "-status")));
            driver.findElement(By.cssSelector("#" + id + "-form button[type=submit]")).click();
        }

        String status() {
            return driver.findElement(By.id(id + "-status")).getText();
        }

        WebElement row(String ruleId) {
            return driver.findElement(By.cssSelector("main tbody tr[data-key='" + ruleId + "']"));
        }

        /** Clicks the rule's Delete button, waits until the table no longer lists it: the REST list neither. */
        void delete(String ruleId) {
            // The page redraws its table every 5 s: a button gone stale before the click is found again.
            wait.until(d -> {
                row(ruleId).findElement(By.cssSelector("[data-action='delete-" + id + "-rule']")).click();
                return true;
            });
            wait.until(ExpectedConditions.numberOfElementsToBe(
                    By.cssSelector("main tbody tr[data-key='" + ruleId + "']"), 0));
            assertTrue(rules().stream().noneMatch(r -> ruleId.equals(idOf(r))), ruleId + " still listed");
        }
    }

    @BeforeAll
    static void browser() {
        browser(URL, "beacon.ui.url not set: run by launcher/e2e/run_e2e.py --tests web_ui");
    }

    @Test
    @Order(1)
    void bothPagesLoadFromTheNavigation() {
        driver.get(URL + "/ui/#/overview");
        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("#nav a[data-page='firewall']"))).click();
        wait.until(ExpectedConditions.textToBe(By.cssSelector("main h1"), "Firewall"));
        wait.until(d -> !d.findElement(By.id("firewall-state")).getText().equals("…"));
        driver.findElement(By.cssSelector("#nav a[data-page='acl']")).click();
        wait.until(ExpectedConditions.textToBe(By.cssSelector("main h1"), "ACL"));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("acl-form")));
    }

    @Test
    @Order(2)
    void aFirewallRuleAddedInTheFormIsListedThenDeleted() throws IOException {
        FIREWALL.open();
        FIREWALL.submit(Map.of("src-ip", "10.0.0.7/32", "dst-ip", "10.0.0.8", "nw-proto", "TCP", "tp-dst", "22",
                "priority", "7", "action", "DENY"));
        wait.until(d -> FIREWALL.status().matches("Rule \\d+ added\\."));
        var rule = FIREWALL.find("nw_src_prefix", "10.0.0.7");
        assertEquals(List.of("DROP", 7L, 32L), List.of(rule.get("action"), rule.get("priority"),
                rule.get("nw_dst_maskbits")));
        listedThenDeleted(FIREWALL, rule, "src-ip=10.0.0.7/32 dst-ip=10.0.0.8/32 nw-proto=TCP tp-dst=22",
                "Rule deleted");
    }

    @Test
    @Order(3)
    void malformedFirewallRulesAreRefusedAndChangeNothing() {
        FIREWALL.open();
        var before = FIREWALL.rules();
        refusedByPage(FIREWALL, Map.of("src-ip", "10.0.0.300", "priority", "high"), "src-ip", "priority");
        refusedByPage(FIREWALL, Map.of("tp-dst", "80"), "Ports need IP protocol TCP or UDP");

        // The server's: a rule like an existing one but for its priority.
        refusedByServer(FIREWALL, Map.of("src-ip", "10.0.0.9", "nw-proto", "ICMP", "priority", "3"),
                Map.of("src-ip", "10.0.0.9", "nw-proto", "ICMP", "priority", "4"),
                "Error! A similar firewall rule already exists.", "nw_src_prefix", "10.0.0.9");
        assertEquals(before, FIREWALL.rules());
    }

    @Test
    @Order(4)
    void theFirewallIsSwitchedOnAndOff() throws IOException {
        FIREWALL.open();
        var toggle = wait.until(ExpectedConditions.elementToBeClickable(By.id("firewall-toggle")));
        boolean on = firewallOn();
        for (int i = 0; i < 2; i++) {
            assertEquals(on ? "Disable" : "Enable", toggle.getText());
            assertEquals(on ? "on" : "off", driver.findElement(By.id("firewall-state")).getText());
            toggle.click();
            on = !on;
            var expected = on;
            wait.until(d -> firewallOn() == expected && d.findElement(By.id("firewall-state")).getText()
                    .equals(expected ? "on" : "off"));
            if (on) {
                screenshot("firewall-on");
            }
        }
        if (firewallOn()) {
            toggle.click();
            wait.until(d -> !firewallOn());
        }
    }

    @Test
    @Order(5)
    void anAclRuleAddedInTheFormIsListedThenDeleted() throws IOException {
        ACL.open();
        ACL.submit(Map.of("src-ip", "10.0.0.5/32", "dst-ip", "10.0.0.6/32", "nw-proto", "UDP", "tp-dst", "53"));
        wait.until(d -> ACL.status().equals("Success! New rule added."));
        var rule = ACL.find("nw_src", "10.0.0.5/32");
        assertEquals(List.of("DENY", 53L), List.of(rule.get("action"), rule.get("tp_dst")));
        listedThenDeleted(ACL, rule, "10.0.0.6/32", "Success! Rule deleted");
    }

    @Test
    @Order(6)
    void malformedAclRulesAreRefusedAndChangeNothing() {
        ACL.open();
        var before = ACL.rules();
        refusedByPage(ACL, Map.of("src-ip", "10.0.0.5", "tp-dst", "80"), "src-ip", "tp-dst needs");
        refusedByPage(ACL, Map.of("nw-proto", "ICMP"), "Either nw_src or nw_dst must be specified.");

        // The server's: a rule an earlier one covers.
        refusedByServer(ACL, Map.of("src-ip", "10.0.9.0/24"), Map.of("src-ip", "10.0.9.9/32", "nw-proto", "TCP"),
                "Failed! The new ACL rule matches an existing rule.", "nw_src", "10.0.9.0/24");
        assertEquals(before, ACL.rules());
    }

    // ---- helpers ----

    /** The rule just added is in the table, showing {@code shown}; deleted with its button, the page says so. */
    private static void listedThenDeleted(RulePage page, Map<String, Object> rule, String shown, String deleted)
            throws IOException {
        var id = page.idOf(rule);
        var text = wait.until(d -> page.row(id)).getText();
        assertTrue(text.contains(shown), text);
        screenshot(page.id() + "-added");
        page.delete(id);
        assertEquals(deleted, page.status());
    }

    /**
     * Submits values the page's own checks refuse: an alert naming each problem, and nothing sent (no request, so no
     * console error either, and the rule list unchanged).
     */
    private static void refusedByPage(RulePage page, Map<String, String> values, String... problems) {
        var before = page.rules();
        page.submit(values);
        var alert = wait.until(d -> d.findElement(By.cssSelector("#" + page.id() + "-status [role=alert]"))).getText();
        for (var problem : problems) {
            assertTrue(alert.contains(problem), alert);
        }
        assertEquals(before, page.rules());
    }

    /**
     * Adds {@code first}, then {@code then}, which only the server can tell is wrong: its refusal (409) is shown in its
     * own words and the rule list is unchanged. Deletes {@code first} (found by {@code key} = {@code value}).
     */
    private static void refusedByServer(RulePage page, Map<String, String> first, Map<String, String> then,
            String refusal, String key, String value) {
        page.submit(first);
        wait.until(d -> page.status().endsWith("added."));
        var added = page.rules();
        page.submit(then);
        wait.until(d -> page.status().equals("Not added: " + refusal));
        assertEquals(added, page.rules());
        // Chromium logs every 4xx answer (a moment later): the one provoked here, and nothing else, is expected.
        var errors = new ArrayList<String>();
        wait.until(d -> {
            errors.addAll(consoleErrors());
            return !errors.isEmpty();
        });
        assertTrue(errors.size() == 1 && errors.get(0).contains(page.rest()) && errors.get(0).contains("409"),
                errors.toString());
        page.delete(page.idOf(page.find(key, value)));
    }

    private static boolean firewallOn() {
        return "firewall enabled".equals(((Map<?, ?>) get("/wm/firewall/module/status/json")).get("result"));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rules(String path) {
        return (List<Map<String, Object>>) get(path);
    }

    /** The REST API as a script reads it, not through the page. */
    private static Object get(String path) {
        try {
            var response = HTTP.send(HttpRequest.newBuilder(URI.create(URL + path)).timeout(WAIT).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), path + ": " + response.body());
            return new Json().toType(response.body(), Object.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
