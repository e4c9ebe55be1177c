package net.beaconcontroller.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.junit.jupiter.api.AfterEach;
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
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium as the page tests drive it: one browser per test class, its console kept, and every test failing
 * on a console error it left (a test that provokes one on purpose reads it with {@link #consoleErrors()}).
 */
abstract class BrowserTest {
    static final Duration WAIT = Duration.ofSeconds(15);
    static WebDriver driver;
    static WebDriverWait wait;

    /** Starts the browser, or skips the class's tests (saying {@code why}) when {@code url} is not given. */
    static void browser(String url, String why) {
        assumeFalse(url.isBlank(), why);
        var options = new ChromeOptions();
        options.setBinary(System.getProperty("beacon.ui.chromium", "/usr/bin/chromium"));
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800",
                "--lang=en-US");
        var logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        // The driver that Debian packages beside Chromium: nothing is downloaded.
        var service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(System.getProperty("beacon.ui.chromedriver", "/usr/bin/chromedriver")))
                .build();
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
        wait = new WebDriverWait(driver, WAIT);
        // Pages redraw their tables as data comes in: an element read mid-redraw is read again.
        wait.ignoring(StaleElementReferenceException.class);
    }

    @AfterAll
    static void close() {
        if (driver != null) {
            driver.quit();
            driver = null;
        }
    }

    /** Whatever a test did, the browser's console must hold no error. */
    @AfterEach
    void noConsoleErrors() {
        if (driver != null) {
            assertEquals(List.of(), consoleErrors(), "console errors");
        }
    }

    /** The console's errors since the last call. */
    static List<String> consoleErrors() {
        var errors = new ArrayList<String>();
        for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
            if (e.getLevel().intValue() >= Level.SEVERE.intValue()) {
                errors.add(e.getMessage());
            }
        }
        return errors;
    }

    /** Saves the window as {@code <beacon.ui.screenshots>/<name>.png}; nothing when that property is not set. */
    static void screenshot(String name) throws IOException {
        var dir = System.getProperty("beacon.ui.screenshots", "");
        if (dir.isBlank()) {
            return;
        }
        Files.createDirectories(Path.of(dir));
        var png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(png.toPath(), Path.of(dir, name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
}
