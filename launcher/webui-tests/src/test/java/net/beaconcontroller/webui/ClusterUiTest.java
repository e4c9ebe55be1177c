package net.beaconcontroller.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The Cluster page of one member of a running cluster, in headless Chromium: its members, each switch's master, and
 * a switch moved with the page's own control. Run by launcher/e2e/cluster_e2e.py, which sets
 * {@code beacon.ui.clusterUrl}, {@code beacon.ui.members} and {@code beacon.ui.switches}.
 */
class ClusterUiTest {
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String URL = System.getProperty("beacon.ui.clusterUrl", "");
    private static WebDriver driver;
    private static WebDriverWait wait;

    @BeforeAll
    static void browser() {
        assumeFalse(URL.isBlank(), "beacon.ui.clusterUrl not set: run by launcher/e2e/cluster_e2e.py");
        var options = new ChromeOptions();
        options.setBinary(System.getProperty("beacon.ui.chromium", "/usr/bin/chromium"));
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800",
                "--lang=en-US");
        var logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        var service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(System.getProperty("beacon.ui.chromedriver", "/usr/bin/chromedriver")))
                .build();
        driver = new ChromeDriver(service, options);
        wait = new WebDriverWait(driver, WAIT);
        // The page re-renders its tables as the cluster's view changes: an element read mid-render is read again.
        wait.ignoring(StaleElementReferenceException.class);
    }

    @AfterAll
    static void close() {
        if (driver != null) {
            driver.quit();
        }
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
        var errors = new ArrayList<String>();
        for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
            if (e.getLevel().intValue() >= Level.SEVERE.intValue()) {
                errors.add(e.getMessage());
            }
        }
        assertEquals(List.of(), errors, "console errors");
    }

    private static int rows(int table) {
        var tables = driver.findElements(By.cssSelector("main table"));
        return tables.size() <= table ? -1 : tables.get(table).findElements(By.cssSelector("tbody tr")).size();
    }

    private static void screenshot(String name) throws IOException {
        var dir = System.getProperty("beacon.ui.screenshots", "");
        if (dir.isBlank()) {
            return;
        }
        Files.createDirectories(Path.of(dir));
        var png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(png.toPath(), Path.of(dir, name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
}
