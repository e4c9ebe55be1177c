package net.beaconcontroller.config.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;

/** Layers: the file, then -D system properties for declared keys, then the console. */
class SettingStoreTest {
    private static final Source FILE = Source.file(Path.of("b.properties"), 1);

    private static Properties system(String... keyValues) {
        var p = new Properties();
        for (var kv : keyValues) {
            p.setProperty(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        }
        return p;
    }

    @Test
    void systemPropertiesOverrideTheFileOnlyForDeclaredKeys() {
        var store = new SettingStore(List.of(new RawSetting("controller.threadCount", "2", FILE)),
                system("controller.threadCount=6", "controller.threadcount=9", "java.version=17", "user.name=x"));
        var given = store.forPid("controller", ValidationTest.CONTROLLER);
        assertEquals(List.of(new RawSetting("controller.threadCount", "6", Source.systemProperty("controller.threadCount"))),
                given);
        assertEquals("system property -Dcontroller.threadCount", given.get(0).source().prefix());
        assertEquals(List.of(), store.forPid("java", FakeOcd.spec("java")));
    }

    @Test
    void aConsoleValueWinsAndCanBeUndone() {
        var store = new SettingStore(List.of(new RawSetting("hub.output", "FLOOD", FILE)), new Properties());
        var previous = store.setConsole("hub.output", "ALL");
        assertEquals("ALL", store.forPid("hub", ValidationTest.HUB).get(0).value());
        assertEquals(Source.CONSOLE, store.forPid("hub", ValidationTest.HUB).get(0).source());
        store.restoreConsole("hub.output", previous);
        assertEquals(FILE, store.forPid("hub", ValidationTest.HUB).get(0).source());
    }
}
