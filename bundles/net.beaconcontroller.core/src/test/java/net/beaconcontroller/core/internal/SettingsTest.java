package net.beaconcontroller.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import net.beaconcontroller.openflow.OFType;

/** {@code beacon.properties} validation: defaults, every bad value form per key kind, typo guard, overrides. */
class SettingsTest {

    private static Properties props(String... keyValues) {
        var p = new Properties();
        for (var kv : keyValues) {
            int eq = kv.indexOf('=');
            p.setProperty(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return p;
    }

    private static Settings parse(String... keyValues) throws SettingsException {
        return Settings.parse(props(keyValues), new Properties(), "test.properties", w -> {
            throw new AssertionError("unexpected warning: " + w);
        });
    }

    private static SettingsException rejected(String key, String value) {
        return assertThrows(SettingsException.class, () -> parse(key + "=" + value),
                () -> key + " = '" + value + "' was accepted");
    }

    private static Setting setting(String key) {
        return Settings.SCHEMA.stream().filter(s -> s.key().equals(key)).findFirst().orElseThrow();
    }

    /** The key used to exercise a schema entry: the ordering family needs a concrete type. */
    private static String concreteKey(Setting s) {
        return s.key().equals(Settings.ORDERING_FAMILY) ? "controller.callbackOrdering[PACKET_IN]" : s.key();
    }

    @Test
    void defaultsHoldTheSchemaDefaults() {
        var d = Settings.defaults();
        assertEquals("defaults", d.source());
        assertEquals("0.0.0.0", d.getString("controller.listenAddress"));
        assertEquals(6633, d.getInt("controller.listenPort"));
        assertEquals(1, d.getInt("controller.threadCount"));
        assertEquals(false, d.getBoolean("controller.immediate"));
        assertEquals(true, d.getBoolean("controller.noDelay"));
        assertEquals(true, d.getBoolean("controller.deletePreExistingFlows"));
        assertEquals(5, d.getInt("controller.echoInterval"));
        assertEquals(10, d.getInt("controller.echoTimeout"));
        assertEquals(4 << 20, d.getInt("controller.outputBufferLimit"));
        assertEquals(5, d.getInt("learningswitch.idleTimeout"));
        assertEquals(0, d.getInt("learningswitch.hardTimeout"));
        assertEquals(1 << 20, d.getInt("learningswitch.tableSize"));
        assertEquals(300, d.getInt("learningswitch.macAge"));
        for (var type : OFType.values()) {
            assertEquals(List.of(), d.getList("controller.callbackOrdering[" + type.name() + "]"));
        }
        for (var s : Settings.SCHEMA) {
            assertEquals(s.defaultValue(), d.getString(concreteKey(s)), s.key());
            // Every default passes its own check unchanged.
            assertEquals(s.defaultValue(), s.check(s.defaultValue()), s.key());
        }
    }

    @Test
    void valuesAreTrimmedAndCanonical() throws SettingsException {
        var s = parse("controller.threadCount= 4 ", "controller.immediate=TRUE", "controller.noDelay= False",
                "controller.listenAddress= 10.1.2.3 ", "controller.callbackOrdering[PACKET_IN]= b , a ,, c ",
                "controller.echoInterval=+7", "controller.echoTimeout=0008", "controller.outputBufferLimit=65536");
        assertEquals(4, s.getInt("controller.threadCount"));
        assertEquals("4", s.getString("controller.threadCount"));
        assertEquals(true, s.getBoolean("controller.immediate"));
        assertEquals("true", s.getString("controller.immediate"));
        assertEquals(false, s.getBoolean("controller.noDelay"));
        assertEquals("10.1.2.3", s.getString("controller.listenAddress"));
        assertEquals(List.of("b", "a", "c"), s.getList("controller.callbackOrdering[PACKET_IN]"));
        assertEquals(List.of(), s.getList("controller.callbackOrdering[PORT_STATUS]"));
        assertEquals(7, s.getInt("controller.echoInterval"));
        assertEquals(8, s.getInt("controller.echoTimeout"));
        assertEquals(65536, s.getInt("controller.outputBufferLimit"));
        assertEquals("test.properties", s.source());
    }

    /** Per kind, the value forms a user may plausibly get wrong. */
    private static List<String> badValues(Setting s) {
        return switch (s.kind()) {
            case INT -> List.of("", "  ", "abc", "1.5", "1e3", "0x10", "12abc", "1 000", Long.toString(s.min() - 1),
                    Long.toString(s.max() + 1), "99999999999999999999", "-99999999999999999999");
            case BOOLEAN -> List.of("", "yes", "no", "1", "0", "on", "truee", "t");
            case HOST -> List.of("", "   ", "local host", "10.0.0.1 10.0.0.2");
            case LIST -> List.of("a;b", "a b", "a,b c", "switch/1", "a,b=c", "*");
        };
    }

    /**
     * Every bad value of every key is rejected with one message that names the source, the key, the value as
     * written and what is allowed.
     */
    @TestFactory
    Stream<DynamicTest> everyBadValueOfEveryKeyIsRejectedWithAMessageNamingKeyValueAndAllowed() {
        var tests = new ArrayList<DynamicTest>();
        for (var s : Settings.SCHEMA) {
            String key = concreteKey(s);
            for (var bad : badValues(s)) {
                tests.add(DynamicTest.dynamicTest(key + " = '" + bad + "'", () -> {
                    var e = rejected(key, bad);
                    var m = e.getMessage();
                    assertTrue(m.startsWith("test.properties: "), m);
                    assertTrue(m.contains(key), m);
                    assertTrue(m.contains("'" + bad.trim() + "'"), m);
                    assertTrue(m.contains(s.allowed()), m);
                }));
            }
        }
        return tests.stream();
    }

    @Test
    void allowedTextsSayWhatIsAllowed() {
        assertEquals("an integer from 1 to 256", setting("controller.threadCount").allowed());
        assertEquals("true or false", setting("controller.immediate").allowed());
        assertEquals("an IP address or host name", setting("controller.listenAddress").allowed());
        assertEquals("a comma-separated list of names", setting(Settings.ORDERING_FAMILY).allowed());
        var e = rejected("controller.threadCount", "zero");
        assertEquals("test.properties: controller.threadCount = 'zero' is not allowed: expected an integer from 1 to 256",
                e.getMessage());
    }

    @TestFactory
    Stream<DynamicTest> integerBoundsAreInclusive() {
        return Settings.SCHEMA.stream().filter(s -> s.kind() == Setting.Kind.INT)
                .filter(s -> !s.key().startsWith("controller.echo"))
                .map(s -> DynamicTest.dynamicTest(s.key(), () -> {
                    assertEquals(s.min(), parse(s.key() + "=" + s.min()).getInt(s.key()));
                    assertEquals(s.max(), parse(s.key() + "=" + s.max()).getInt(s.key()));
                }));
    }

    /** {@code Controller#getLocalPort} is documented as "useful with controller.listenPort=0 in tests". */
    @Test
    void listenPortZeroMeansAnEphemeralPort() throws SettingsException {
        assertEquals(0, parse("controller.listenPort=0").getInt("controller.listenPort"));
    }

    /**
     * "An IP address or host name": an address with a port, a URL or a CIDR block is neither, and should be caught
     * here with the key named rather than at bind time.
     */
    @ParameterizedTest
    @ValueSource(strings = {"localhost:6633", "http://10.0.0.1", "10.0.0.1/24", "ho$t", "a..b"})
    void listenAddressRejectsWhatIsNeitherAnAddressNorAHostName(String value) {
        var m = rejected("controller.listenAddress", value).getMessage();
        assertTrue(m.contains("controller.listenAddress") && m.contains(value), m);
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "0.0.0.0", "::", "::1", "fe80::1", "localhost", "beacon-1.example.org"})
    void listenAddressAcceptsAddressesAndHostNames(String value) throws SettingsException {
        assertEquals(value, parse("controller.listenAddress=" + value).getString("controller.listenAddress"));
    }

    @Test
    void echoTimeoutMustExceedEchoInterval() throws SettingsException {
        for (var pair : List.of(new int[] {5, 5}, new int[] {6, 5}, new int[] {3600, 2})) {
            var e = assertThrows(SettingsException.class,
                    () -> parse("controller.echoInterval=" + pair[0], "controller.echoTimeout=" + pair[1]));
            var m = e.getMessage();
            assertTrue(m.contains("controller.echoTimeout") && m.contains("controller.echoInterval"), m);
            assertTrue(m.contains("'" + pair[1] + "'") && m.contains("greater"), m);
        }
        // Against the other key's default, too.
        var e = assertThrows(SettingsException.class, () -> parse("controller.echoInterval=10"));
        assertTrue(e.getMessage().contains("controller.echoTimeout"), e.getMessage());
        var ok = parse("controller.echoInterval=1", "controller.echoTimeout=2");
        assertEquals(1, ok.getInt("controller.echoInterval"));
        assertEquals(2, ok.getInt("controller.echoTimeout"));
    }

    private static List<String> warningsFor(String... keyValues) throws SettingsException {
        var warnings = new ArrayList<String>();
        Settings.parse(props(keyValues), new Properties(), "my.properties", warnings::add);
        return warnings;
    }

    @Test
    void anUnknownKeyIsAWarningWithASuggestionForANearMiss() throws SettingsException {
        var w = warningsFor("controller.threadcount=2");
        assertEquals(List.of("my.properties: unknown key 'controller.threadcount' is ignored"
                + " (did you mean controller.threadCount?)"), w);
        assertTrue(warningsFor("controller.echoIntervall=3").get(0).contains("did you mean controller.echoInterval?"));
        assertTrue(warningsFor("learningswitch.idleTimout=3").get(0).contains("did you mean learningswitch.idleTimeout?"));
        assertTrue(warningsFor("controler.listenPort=1").get(0).contains("did you mean controller.listenPort?"));
    }

    @Test
    void anUnknownKeyFarFromEveryKnownOneGetsNoSuggestionAndItsValueIsIgnored() throws SettingsException {
        var warnings = new ArrayList<String>();
        var s = Settings.parse(props("web.port=not a number", "controller.threadCount=3"), new Properties(), "f",
                warnings::add);
        assertEquals(List.of("f: unknown key 'web.port' is ignored"), warnings);
        assertEquals(3, s.getInt("controller.threadCount"));
    }

    @Test
    void callbackOrderingExistsForEveryMessageTypeAndNothingElse() throws SettingsException {
        for (var type : OFType.values()) {
            var key = "controller.callbackOrdering[" + type.name() + "]";
            assertEquals(List.of("x", "y"), parse(key + "=x,y").getList(key));
        }
        for (var bad : List.of("controller.callbackOrdering[NOT_A_TYPE]", "controller.callbackOrdering[packet_in]",
                "controller.callbackOrdering[]", "controller.callbackOrdering", "controller.callbackOrdering[PACKET_IN")) {
            var w = warningsFor(bad + "=a");
            assertEquals(1, w.size(), bad);
            assertTrue(w.get(0).contains("unknown key '" + bad + "'"), w.get(0));
        }
    }

    /**
     * The schema names the family {@code controller.callbackOrdering[TYPE]}, and the docs table shows it that way. A
     * user who copies it literally configures nothing (the pipelines look up concrete types): the typo guard must say
     * so instead of accepting the placeholder silently.
     */
    @Test
    void theFamilyPlaceholderTypeIsNotAKey() throws SettingsException {
        var w = warningsFor(Settings.ORDERING_FAMILY + "=a,b");
        assertEquals(1, w.size(), "'" + Settings.ORDERING_FAMILY + "' was accepted as a key, but configures nothing");
    }

    @Test
    void overridesWinOverTheFileAndAreValidatedToo() throws SettingsException {
        var overrides = props("controller.threadCount=6", "java.version=17", "user.name=someone",
                "controller.threadcount=99");
        var warnings = new ArrayList<String>();
        var s = Settings.parse(props("controller.threadCount=2", "controller.echoInterval=3"), overrides, "file",
                warnings::add);
        assertEquals(6, s.getInt("controller.threadCount"));
        assertEquals(3, s.getInt("controller.echoInterval"));
        // System properties hold all sorts of unrelated keys: they are not typo-checked.
        assertEquals(List.of(), warnings);

        var e = assertThrows(SettingsException.class, () -> Settings.parse(new Properties(),
                props("controller.listenPort=none"), "file", w -> { }));
        assertTrue(e.getMessage().contains("-Dcontroller.listenPort"), e.getMessage());
        assertTrue(e.getMessage().contains("'none'"), e.getMessage());
    }

    @Test
    void loadReadsTheNamedFileAndAppliesSystemPropertyOverrides(@TempDir Path dir) throws Exception {
        var file = dir.resolve("beacon.properties");
        Files.writeString(file, "# test\ncontroller.threadCount=2\ncontroller.echoInterval=4\n"
                + "controller.threadcount=3\n", StandardCharsets.UTF_8);
        String oldFile = System.getProperty(Settings.FILE_PROPERTY);
        String oldThreads = System.getProperty("controller.threadCount");
        try {
            System.setProperty(Settings.FILE_PROPERTY, file.toString());
            System.setProperty("controller.threadCount", "5");
            var warnings = new ArrayList<String>();
            var s = Settings.load(warnings::add);
            assertEquals(5, s.getInt("controller.threadCount"));
            assertEquals(4, s.getInt("controller.echoInterval"));
            assertEquals(file.toString(), s.source());
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).startsWith(file + ": unknown key 'controller.threadcount'"), warnings.get(0));

            System.setProperty("controller.threadCount", "0");
            var e = assertThrows(SettingsException.class, () -> Settings.load(w -> { }));
            assertTrue(e.getMessage().contains("controller.threadCount = '0'"), e.getMessage());

            System.clearProperty("controller.threadCount");
            System.setProperty(Settings.FILE_PROPERTY, dir.resolve("missing.properties").toString());
            e = assertThrows(SettingsException.class, () -> Settings.load(w -> { }));
            assertTrue(e.getMessage().contains("missing.properties") && e.getMessage().contains("not found"),
                    e.getMessage());
        } finally {
            restore(Settings.FILE_PROPERTY, oldFile);
            restore("controller.threadCount", oldThreads);
        }
    }

    @Test
    void aFileThatIsNotValidPropertiesSyntaxIsReportedNotThrown(@TempDir Path dir) throws IOException {
        var file = dir.resolve("broken.properties");
        // A malformed \\uXXXX escape makes Properties.load throw IllegalArgumentException.
        Files.writeString(file, "controller.listenAddress=\\uZZZZ\n", StandardCharsets.UTF_8);
        String oldFile = System.getProperty(Settings.FILE_PROPERTY);
        try {
            System.setProperty(Settings.FILE_PROPERTY, file.toString());
            var e = assertThrows(SettingsException.class, () -> Settings.load(w -> { }));
            assertTrue(e.getMessage().contains("broken.properties"), e.getMessage());
        } finally {
            restore(Settings.FILE_PROPERTY, oldFile);
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
