package net.beaconcontroller.webui;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.Select;

/**
 * The Cluster page of one member of a running cluster, in headless Chromium: its members, each switch's master, and
 * a switch moved with the page's own control. Run by launcher/e2e/cluster_e2e.py, which sets
 * {@code beacon.ui.clusterUrl}, {@code beacon.ui.members} and {@code beacon.ui.switches}.
 */
class ClusterUiTest extends BrowserTest {
    private static final String URL = System.getProperty("beacon.ui.clusterUrl", "");

    @BeforeAll
    static void browser() {
        browser(URL, "beacon.ui.clusterUrl not set: run by launcher/e2e/cluster_e2e.py");
    }

    @Test
    void theClusterPageShowsMembersAndMastersAndMovesASwitch() throws IOException {
        int members = Integer.parseInt(System.getProperty("beacon.ui.members"));
        int switches = Integer.parseInt(System.getProperty("beacon.ui.switches"));
        driver.get(URL + "/ui/#/cluster");
        wait.until(d -> rows(0) == members && rows(1) == switches);
        var row = driver.findElements(By.cssSelector("main table")).get(1).findElements(By.cssSelector("tbody tr")).get(0);
        var before = row.findElements(By.tagName("td")).get(1).getText();
        var select = new Select(row.findElement(By.tagName("select")));
        var target = select.getFirstSelectedOption().getText();
        row.findElement(By.tagName("button")).click();
        wait.until(d -> d.findElement(By.cssSelector("main [role=status]")).getText().contains("moved to " + target));
        wait.until(d -> {
            var first = d.findElements(By.cssSelector("main table")).get(1).findElements(By.cssSelector("tbody tr")).get(0);
            return first.findElements(By.tagName("td")).get(1).getText().equals(target);
        });
        assertTrue(!before.equals(target), "the page offered the current master as a target");
        screenshot("cluster");
    }

    private static int rows(int table) {
        var tables = driver.findElements(By.cssSelector("main table"));
        return tables.size() <= table ? -1 : tables.get(table).findElements(By.cssSelector("tbody tr")).size();
    }
}
