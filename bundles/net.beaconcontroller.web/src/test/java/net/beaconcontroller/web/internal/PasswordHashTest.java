package net.beaconcontroller.web.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PasswordHashTest {
    @Test
    void storedFormRoundTripsAndChecksThePassword() {
        var hash = PasswordHash.of("correct horse".toCharArray());
        var parsed = PasswordHash.parse(hash.toString());
        assertTrue(parsed.matches("correct horse".toCharArray()));
        assertFalse(parsed.matches("correct horsf".toCharArray()));
        assertEquals(hash.toString(), parsed.toString());
    }

    @Test
    void badStoredFormsAreRefusedWithTheExpectedForm() {
        for (var bad : new String[] {"", "secret", "pbkdf2-sha256:x:AAAA:AAAA", "md5:1:AAAAAAAAAAA=:AAAA",
                "pbkdf2-sha256:1000:AAAAAAAAAAA=:AAAA"}) {
            var e = assertThrows(IllegalArgumentException.class, () -> PasswordHash.parse(bad));
            assertTrue(e.getMessage().contains("beacon:webpassword"), e.getMessage());
        }
    }
}
