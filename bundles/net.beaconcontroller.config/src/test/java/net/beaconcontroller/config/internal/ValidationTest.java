package net.beaconcontroller.config.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.osgi.service.metatype.AttributeDefinition;

/** Type and range checks from the metatype, the messages they give, and the dictionary they build. */
class ValidationTest {
    static final PidSpec CONTROLLER = FakeOcd.spec("controller",
            FakeAd.integer("threadCount", 1, 256, "1"),
            FakeAd.of("immediate", AttributeDefinition.BOOLEAN, "false"),
            FakeAd.of("listenAddress", AttributeDefinition.STRING, "0.0.0.0"),
            FakeAd.list("callbackOrdering", AttributeDefinition.STRING),
            FakeAd.of("ratio", AttributeDefinition.DOUBLE, "0.5"),
            FakeAd.list("ports", AttributeDefinition.INTEGER));
    static final PidSpec HUB = FakeOcd.spec("hub", FakeAd.options("output", "FLOOD", "FLOOD", "ALL"));
    private static final Source FILE = Source.file(Path.of("/etc/beacon.properties"), 3);

    private static Validation validate(PidSpec spec, String... keyValues) {
        var settings = java.util.Arrays.stream(keyValues).map(kv -> {
            int eq = kv.indexOf('=');
            return new RawSetting(kv.substring(0, eq), kv.substring(eq + 1), FILE);
        }).toList();
        return Validation.of(spec, settings);
    }

    private static String problem(PidSpec spec, String keyValue) {
        var v = validate(spec, keyValue);
        assertEquals(1, v.problems().size(), keyValue + " was accepted");
        return v.problems().get(0).line();
    }

    @Test
    void valuesAreTypedTrimmedAndUnsetKeysLeftToTheDefaults() {
        var v = validate(CONTROLLER, "controller.threadCount= 4 ", "controller.immediate=TRUE",
                "controller.ratio=0.25", "controller.ports=1, 2,,3");
        assertTrue(v.valid());
        assertEquals(4, v.properties().get("threadCount"));
        assertEquals(Boolean.TRUE, v.properties().get("immediate"));
        assertEquals(0.25, v.properties().get("ratio"));
        assertArrayEquals(new Integer[] {1, 2, 3}, (Integer[]) v.properties().get("ports"));
        assertEquals(4, v.properties().size());
        assertTrue(validate(CONTROLLER).properties().isEmpty());
    }

    @Test
    void messagesNameSourceKeyValueAndWhatIsAllowed() {
        assertEquals("/etc/beacon.properties: controller.threadCount = 'zero' is not allowed: expected an integer"
                + " from 1 to 256", problem(CONTROLLER, "controller.threadCount=zero"));
        assertEquals("/etc/beacon.properties: controller.immediate = 'yes' is not allowed: expected true or false",
                problem(CONTROLLER, "controller.immediate=yes"));
        assertEquals("/etc/beacon.properties: hub.output = 'flood' is not allowed: expected one of FLOOD, ALL",
                problem(HUB, "hub.output=flood"));
        assertEquals("/etc/beacon.properties: controller.ports = '1,x' is not allowed: expected a comma-separated"
                + " list of integers", problem(CONTROLLER, "controller.ports=1,x"));
        assertEquals("/etc/beacon.properties: controller.ratio = 'half' is not allowed: expected a number",
                problem(CONTROLLER, "controller.ratio=half"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "0", "257", "1.5", "1e3", "0x10", "99999999999999999999", "1 000"})
    void badIntegersAreRejected(String value) {
        var line = problem(CONTROLLER, "controller.threadCount=" + value);
        assertTrue(line.contains("'" + value.trim() + "'"), line);
    }

    @Test
    void boundsAreInclusive() {
        assertTrue(validate(CONTROLLER, "controller.threadCount=1").valid());
        assertTrue(validate(CONTROLLER, "controller.threadCount=256").valid());
    }

    @Test
    void familyKeysBecomeElementsOrderedByName() {
        var v = validate(CONTROLLER, "controller.callbackOrdering[PORT_STATUS]=b",
                "controller.callbackOrdering[PACKET_IN]=topology,devicemanager");
        assertArrayEquals(new String[] {"PACKET_IN=topology,devicemanager", "PORT_STATUS=b"},
                (String[]) v.properties().get("callbackOrdering"));
    }

    @Test
    void familyKeysOfAnAttributeThatTakesNoElementsAndKeysOfOtherPidsAreNotApplied() {
        var v = validate(CONTROLLER, "controller.threadCount[X]=3", "hub.output=ALL", "controller.nothing=1");
        assertTrue(v.valid());
        assertTrue(v.properties().isEmpty());
    }

    @Test
    void everyProblemIsReportedAndNothingIsValid() {
        var v = validate(CONTROLLER, "controller.threadCount=0", "controller.immediate=maybe");
        assertEquals(List.of("controller.immediate", "controller.threadCount"),
                v.problems().stream().map(Problem::key).toList());
    }
}
