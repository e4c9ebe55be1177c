package net.beaconcontroller.config.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsFileTest {
    private static final String TEXT = """
            # Beacon settings
            ## Core

            # Threads.
            #controller.threadCount=1
            controller.listenPort = 6634
            # Idle timeout.
            #learningswitch.idleTimeout=5
            controller.callbackOrdering[PACKET_IN]=a,\\
              b
            """;

    @Test
    void readsValuesWithTheirLines(@TempDir Path dir) throws Exception {
        var file = Files.writeString(dir.resolve("beacon.properties"), TEXT);
        var settings = SettingsFile.read(file);
        assertEquals(List.of("controller.callbackOrdering[PACKET_IN]", "controller.listenPort"),
                settings.stream().map(RawSetting::key).toList());
        assertEquals("a,b", settings.get(0).value());
        assertEquals("beacon.properties:9", settings.get(0).source().listing());
        assertEquals(new Source(file.toString(), "beacon.properties:6"), settings.get(1).source());
    }

    @Test
    void aMissingOrBrokenFileIsOneClearLine(@TempDir Path dir) throws IOException {
        var missing = assertThrows(SettingsFile.Unreadable.class, () -> SettingsFile.read(dir.resolve("no")));
        assertTrue(missing.getMessage().endsWith("no: file not found (set -Dbeacon.properties=FILE or --config FILE)"),
                missing.getMessage());
        var broken = Files.writeString(dir.resolve("broken"), "a.b=\\uZZZZ\n");
        var e = assertThrows(SettingsFile.Unreadable.class, () -> SettingsFile.read(broken));
        assertTrue(e.getMessage().startsWith(broken + ": cannot be read"), e.getMessage());
    }

    @Test
    void saveReplacesTheKeysLineAndKeepsEveryOtherLine(@TempDir Path dir) throws Exception {
        var file = Files.writeString(dir.resolve("beacon.properties"), TEXT);
        assertEquals(6, SettingsFile.save(file, "controller.listenPort", "7000"));
        assertEquals(TEXT.replace("controller.listenPort = 6634", "controller.listenPort=7000"),
                Files.readString(file));
    }

    @Test
    void saveUncommentsTheCommentedOutLineElseAppends(@TempDir Path dir) throws Exception {
        var file = Files.writeString(dir.resolve("beacon.properties"), TEXT);
        assertEquals(5, SettingsFile.save(file, "controller.threadCount", "4"));
        assertEquals(11, SettingsFile.save(file, "hub.output", "ALL"));
        assertEquals(TEXT.replace("#controller.threadCount=1", "controller.threadCount=4") + "hub.output=ALL\n",
                Files.readString(file));
        var saved = SettingsFile.read(file);
        assertTrue(saved.contains(new RawSetting("controller.threadCount", "4", Source.file(file, 5))), saved::toString);
    }

    @Test
    void savedValuesReadBackAsGiven(@TempDir Path dir) throws Exception {
        var file = Files.writeString(dir.resolve("beacon.properties"), "");
        SettingsFile.save(file, "a.path", " C:\\dir ");
        assertEquals(" C:\\dir ", SettingsFile.read(file).get(0).value());
    }
}
