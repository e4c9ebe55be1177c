package net.beaconcontroller.config.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.service.metatype.AttributeDefinition;

import net.beaconcontroller.config.ISettings;
import net.beaconcontroller.config.Setting;
import net.beaconcontroller.config.SettingException;

/** Feeding configurations and the beacon:config commands, against a map for Configuration Admin and a fake SCR. */
class ConfiguratorTest {
    static final PidSpec SWITCH = FakeOcd.spec("learningswitch", FakeAd.integer("idleTimeout", 0, 65535, "5"),
            FakeAd.of("name", AttributeDefinition.STRING, "switch"));

    @TempDir
    Path dir;

    /** Configuration Admin: the dictionaries by PID. */
    final Map<String, Map<String, Object>> configs = new HashMap<>();
    final ConfigSink sink = new ConfigSink() {
        @Override
        public void apply(String pid, Dictionary<String, Object> properties) {
            var copy = new HashMap<String, Object>();
            Collections.list(properties.keys()).forEach(k -> copy.put(k, properties.get(k)));
            configs.put(pid, copy);
        }

        @Override
        public void remove(String pid) {
            configs.remove(pid);
        }
    };

    /** A component "switch" with a modified method (or not) that rejects the name "forbidden" as components do. */
    boolean modifiable = true;
    final ComponentWatch watch = new ComponentWatch() {
        @Override
        public Outcome await(String pid, Map<String, Object> expected, Duration timeout) {
            if ("forbidden".equals(configs.get(pid).get("name"))) {
                var trace = new StringWriter();
                new SettingException("learningswitch.name", "forbidden", "expected another name")
                        .printStackTrace(new PrintWriter(trace));
                return new Outcome(Result.FAILED, "switch", modifiable, trace.toString());
            }
            return new Outcome(Result.APPLIED, "switch", modifiable, null);
        }

        @Override
        public List<Failure> failures() {
            return List.of();
        }
    };

    private Path file;

    private Configurator configurator(String fileText) throws Exception {
        file = Files.writeString(dir.resolve("beacon.properties"), fileText);
        var store = new SettingStore(SettingsFile.read(file), new Properties());
        return new Configurator(file, store, sink, watch, Duration.ofSeconds(1));
    }

    @Test
    void aBundlesPidsGetTheirConfigurationEmptyWhenNothingIsSet() throws Exception {
        var c = configurator("learningswitch.idleTimeout=7\n");
        assertEquals(List.of(), c.addBundle(5, List.of(SWITCH, ValidationTest.HUB)));
        assertEquals(Map.of("idleTimeout", 7), configs.get("learningswitch"));
        assertEquals(Map.of(), configs.get("hub"));
        assertEquals(List.of("hub", "learningswitch"), c.pids(5).stream().sorted().toList());
    }

    @Test
    void aBadValueKeepsOnlyItsPidUnconfigured() throws Exception {
        configs.put("learningswitch", Map.of("idleTimeout", 3));
        var c = configurator("learningswitch.idleTimeout=-1\nhub.output=ALL\n");
        var problems = c.addBundle(5, List.of(SWITCH, ValidationTest.HUB));
        assertEquals(List.of(file + ": learningswitch.idleTimeout = '-1' is not allowed: expected an integer from 0"
                + " to 65535"), problems.stream().map(Problem::line).toList());
        assertFalse(configs.containsKey("learningswitch"));
        assertEquals(Map.of("output", "ALL"), configs.get("hub"));
    }

    @Test
    void unknownKeysAreThoseNoInstalledBundleDeclares() throws Exception {
        var c = configurator("learningswitch.idletimeout=7\nhub.output=ALL\nweb.port=80\n");
        c.addBundle(5, List.of(SWITCH));
        assertEquals(List.of(file + ": unknown key 'hub.output' is ignored",
                file + ": unknown key 'learningswitch.idletimeout' is ignored (did you mean learningswitch.idleTimeout?)",
                file + ": unknown key 'web.port' is ignored"), c.unknownKeys());
        c.addBundle(6, List.of(ValidationTest.HUB));
        assertEquals(2, c.unknownKeys().size());
        c.removeBundle(6);
        assertEquals(3, c.unknownKeys().size());
    }

    @Test
    void listShowsEveryDeclaredSettingWithValueDefaultAndSource() throws Exception {
        var c = configurator("# comment\nlearningswitch.idleTimeout=7\n");
        c.addBundle(5, List.of(SWITCH, ValidationTest.HUB));
        var lines = c.list().lines().toList();
        assertEquals(List.of("KEY                         VALUE   DEFAULT  SOURCE",
                "hub.output                  FLOOD   FLOOD    default",
                "learningswitch.idleTimeout  7       5        beacon.properties:2",
                "learningswitch.name         switch  switch   default",
                "2 configuration(s), 3 setting(s)"), lines);
        assertEquals("learningswitch.idleTimeout = 7 (beacon.properties:2, default 5, allowed: an integer from 0 to"
                + " 65535)", c.get("learningswitch.idleTimeout"));
    }

    /** A password (metatype type PASSWORD, such as controller.tlsKeyStorePassword) is never shown once set. */
    @Test
    void passwordsAreHiddenInListingsAndAnswers() throws Exception {
        var tls = FakeOcd.spec("tls", FakeAd.of("keyPassword", AttributeDefinition.PASSWORD, ""));
        var c = configurator("tls.keyPassword=s3cret\n");
        c.addBundle(5, List.of(tls));
        assertEquals(Map.of("keyPassword", "s3cret"), configs.get("tls"));
        assertEquals("(hidden)", c.setting("tls.keyPassword").orElseThrow().value());
        assertFalse(c.list().contains("s3cret"), c.list());
        assertFalse(c.get("tls.keyPassword").contains("s3cret"), c.get("tls.keyPassword"));
        var outcome = c.set("tls.keyPassword", "other", false);
        assertEquals("tls.keyPassword = (hidden): applied live", outcome.message());
    }

    @Test
    void settingsAreListedWithValueDefaultSourceAndWhatIsAllowed() throws Exception {
        var c = configurator("learningswitch.idleTimeout=7\n");
        c.addBundle(5, List.of(SWITCH));
        var idle = c.setting("learningswitch.idleTimeout").orElseThrow();
        assertEquals(new Setting("learningswitch.idleTimeout", "7", "5", "beacon.properties:1",
                "an integer from 0 to 65535", idle.description()), idle);
        assertEquals(idle, c.settings().stream().filter(s -> s.key().equals(idle.key())).findFirst().orElseThrow());
        assertEquals("default", c.setting("learningswitch.name").orElseThrow().source());
        assertTrue(c.setting("learningswitch.nope").isEmpty());
    }

    @Test
    void setAppliesLiveOrByRestartingAndShowsTheConsoleAsSource() throws Exception {
        var c = configurator("");
        c.addBundle(5, List.of(SWITCH));
        assertEquals(new ISettings.Outcome(true, "learningswitch.idleTimeout = 7: applied live"),
                c.set("learningswitch.idleTimeout", "7", false));
        assertEquals(Map.of("idleTimeout", 7), configs.get("learningswitch"));
        assertTrue(c.list().contains("learningswitch.idleTimeout  7       5        console"), c.list());
        modifiable = false;
        assertEquals(new ISettings.Outcome(true, "learningswitch.idleTimeout = 8: applied by restarting component"
                + " switch"), c.set("learningswitch.idleTimeout", "8", false));
    }

    @Test
    void aBadValueIsRefusedAndChangesNothing() throws Exception {
        var c = configurator("learningswitch.idleTimeout=7\n");
        c.addBundle(5, List.of(SWITCH));
        assertEquals(new ISettings.Outcome(false, "console: learningswitch.idleTimeout = 'abc' is not allowed:"
                + " expected an integer from 0 to 65535"), c.set("learningswitch.idleTimeout", "abc", false));
        assertEquals(Map.of("idleTimeout", 7), configs.get("learningswitch"));
        assertTrue(c.get("learningswitch.idleTimeout").startsWith("learningswitch.idleTimeout = 7 (beacon.properties:1"));
        assertEquals(new ISettings.Outcome(false, "console: unknown key 'learningswitch.idletimeout' (did you mean"
                + " learningswitch.idleTimeout?)"), c.set("learningswitch.idletimeout", "3", false));
    }

    @Test
    void aValueTheComponentRejectsIsUndone() throws Exception {
        var c = configurator("learningswitch.name=mine\n");
        c.addBundle(5, List.of(SWITCH));
        assertEquals(new ISettings.Outcome(false, "console: learningswitch.name = 'forbidden' is not allowed:"
                + " expected another name" + System.lineSeparator() + "learningswitch.name is back to 'mine'"),
                c.set("learningswitch.name", "forbidden", true));
        assertEquals(Map.of("name", "mine"), configs.get("learningswitch"));
        assertEquals("learningswitch.name=mine\n", Files.readString(file), "a rejected value is not saved");
    }

    @Test
    void saveWritesTheValueIntoTheFile() throws Exception {
        var c = configurator("# Idle timeout.\n#learningswitch.idleTimeout=5\n");
        c.addBundle(5, List.of(SWITCH));
        assertEquals(new ISettings.Outcome(true, "learningswitch.idleTimeout = 9: applied live; saved to " + file
                + ":2"), c.set("learningswitch.idleTimeout", "9", true));
        assertEquals("# Idle timeout.\nlearningswitch.idleTimeout=9\n", Files.readString(file));
    }

    @Test
    void theCommandLine() throws Exception {
        var c = configurator("");
        c.addBundle(5, List.of(SWITCH));
        assertTrue(ConfigCommands.run(c).startsWith("KEY "));
        assertTrue(ConfigCommands.run(c, "get", "learningswitch.name").startsWith("learningswitch.name = switch"));
        assertEquals("learningswitch.idleTimeout = 1: applied live; saved to " + file + ":1",
                ConfigCommands.run(c, "set", "--save", "learningswitch.idleTimeout", "1"));
        assertEquals(ConfigCommands.USAGE, ConfigCommands.run(c, "set", "learningswitch.idleTimeout"));
        assertEquals(ConfigCommands.USAGE, ConfigCommands.run(c, "frobnicate"));
    }
}
