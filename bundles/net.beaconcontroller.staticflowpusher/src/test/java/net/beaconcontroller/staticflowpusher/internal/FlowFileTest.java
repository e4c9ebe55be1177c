package net.beaconcontroller.staticflowpusher.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlowFileTest {
    @TempDir
    Path dir;

    private FlowFile file(String... lines) throws IOException {
        var path = dir.resolve("staticflows.txt");
        Files.writeString(path, String.join("\n", lines) + "\n");
        return new FlowFile(path);
    }

    @Test
    void anEarlierVersionsWideCookieKeepsItsLow48BitsAndNoFlowIsLost() throws IOException {
        var flows = file("# an earlier version's file",
                "wide\t1\t100\tfedcba9876543210\t0\t0\ttrue\tin_port=1\toutput:2",
                "default\t1\t100\t7374617400000000\t0\t0\ttrue\tin_port=2\toutput:1",
                "narrow\t1\t100\t42\t0\t0\ttrue\tin_port=3\toutput:1").read();
        assertEquals(3, flows.size());
        assertEquals(0xba98_7654_3210L, flows.get(0).cookie());
        assertEquals(0, flows.get(1).cookie(), "the old default cookie reads as none");
        assertEquals(0x42, flows.get(2).cookie());
    }

    @Test
    void aLineThatDoesNotParseIsNamed() throws IOException {
        var e = assertThrows(IOException.class, () -> file("bad\t1\t100\tzz\t0\t0\ttrue\tin_port=1\toutput:2").read());
        assertTrue(e.getMessage().contains("line 1"), e.getMessage());
    }
}
