package net.beaconcontroller.cbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoleLoadOptionsTest {
    @Test
    void parsesEveryOption() throws Exception {
        var o = RoleLoadOptions.parse("--ports", "6633,6634", "--switches=4", "--rate", "100", "--out", "/tmp/x",
                "--stop-file", "/tmp/stop", "--dpid-offset", "9", "--max-seconds", "30", "--master-timeout", "5");
        assertEquals(new RoleLoadOptions("127.0.0.1", List.of(6633, 6634), 4, 100, 9, Path.of("/tmp/x"),
                Path.of("/tmp/stop"), 30, 5), o);
        assertNull(RoleLoadOptions.parse("--help"));
    }

    @Test
    void badInputIsNamed() {
        assertEquals("--ports is required",
                assertThrows(UsageException.class, () -> RoleLoadOptions.parse("--out", "x", "--stop-file", "y"))
                        .getMessage());
        assertEquals("--rate: 'fast' is not a whole number", assertThrows(UsageException.class,
                () -> RoleLoadOptions.parse("--rate", "fast")).getMessage());
        assertEquals("--ports: 70000 is not in 1..65535", assertThrows(UsageException.class,
                () -> RoleLoadOptions.parse("--ports", "1,70000")).getMessage());
        assertEquals("unknown option --speed", assertThrows(UsageException.class,
                () -> RoleLoadOptions.parse("--speed", "1")).getMessage());
        assertEquals("option --rate needs a value", assertThrows(UsageException.class,
                () -> RoleLoadOptions.parse("--rate")).getMessage());
    }

    @Test
    void usageErrorsExitWithTwo() {
        assertEquals(RoleLoad.EXIT_USAGE, RoleLoad.run(new String[] {"--switches", "0"},
                new java.io.PrintStream(java.io.OutputStream.nullOutputStream()),
                new java.io.PrintStream(java.io.OutputStream.nullOutputStream())));
    }
}
