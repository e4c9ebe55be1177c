package net.beaconcontroller.config.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SettingKeyTest {
    @Test
    void thePidIsThePartBeforTheFirstDot() {
        assertEquals(Optional.of(new SettingKey("controller", "threadCount", null)),
                SettingKey.parse("controller.threadCount"));
        assertEquals("web", SettingKey.parse("web.tls.port").orElseThrow().pid());
        assertEquals("tls.port", SettingKey.parse("web.tls.port").orElseThrow().attribute());
    }

    @Test
    void anIndexedKeyIsAFamilyElement() {
        var k = SettingKey.parse("controller.callbackOrdering[PACKET_IN]").orElseThrow();
        assertEquals(new SettingKey("controller", "callbackOrdering", "PACKET_IN"), k);
        assertTrue(k.isFamily());
        assertEquals("controller.callbackOrdering", k.declared());
        assertEquals("controller.callbackOrdering[PACKET_IN]", k.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"controller", "controller.", ".x", "a.b[", "a.b[]", "a.b[x]y", "java version", "1a.b"})
    void whatIsNoKey(String key) {
        assertEquals(Optional.empty(), SettingKey.parse(key), key);
    }

    @Test
    void onlyPidsWithoutDotsCanBeNamedByKeys() {
        assertTrue(SettingKey.addressable("learningswitch"));
        assertFalse(SettingKey.addressable("org.apache.felix.scr.ScrService"));
    }
}
