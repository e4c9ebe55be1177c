package net.beaconcontroller.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import javax.security.auth.x500.X500Principal;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.config.SettingException;

/** The file of controller.tlsSwitchIdentities and what it allows; with TLS connections in {@link TlsTest}. */
class SwitchCertificatesTest {
    @Test
    void aLineBindsACommonNameToItsDpids() {
        var ids = SwitchCertificates.parse("f", """
                # switches of rack 1
                00:00:00:00:00:00:00:01,0x2 sc id:1b6f
                3   Beacon test switch
                """);
        var sc = new X500Principal("CN=sc id:1b6f, OU=Open vSwitch certifier, O=Open vSwitch");
        assertEquals(Optional.empty(), ids.refusal(sc, 1));
        assertEquals(Optional.empty(), ids.refusal(sc, 2));
        assertEquals("its certificate '" + sc.getName() + "' may claim only 00:00:00:00:00:00:00:01,"
                + " 00:00:00:00:00:00:00:02 (controller.tlsSwitchIdentities)", ids.refusal(sc, 3).orElseThrow());
        assertEquals(Optional.empty(), ids.refusal(new X500Principal("CN=Beacon test switch"), 3));
        assertTrue(ids.refusal(new X500Principal("CN=other, O=Open vSwitch"), 1).orElseThrow()
                .endsWith("is not listed in controller.tlsSwitchIdentities"));
        assertTrue(ids.refusal(new X500Principal("O=Open vSwitch"), 1).orElseThrow().contains("has no common name"));
    }

    @Test
    void aBadLineStopsTheStartNamingTheKeyAndTheLine() {
        var noName = assertThrows(SettingException.class, () -> SwitchCertificates.parse("f", "\n00:01\n"));
        assertEquals("controller.tlsSwitchIdentities", noName.key());
        assertTrue(noName.getMessage().contains("line 2:"), noName.getMessage());
        var badDpid = assertThrows(SettingException.class, () -> SwitchCertificates.parse("f", "1,zz sc"));
        assertTrue(badDpid.getMessage().contains("line 1: not a datapath id: 'zz'"), badDpid.getMessage());
        var twice = assertThrows(SettingException.class, () -> SwitchCertificates.parse("f", "1 sc\n2 sc"));
        assertTrue(twice.getMessage().contains("line 2: the common name 'sc' is listed twice"), twice.getMessage());
    }
}
