package net.beaconcontroller.cbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CbenchOptionsTest {

    @Test
    void noArgumentsGiveCbenchDefaults() throws Exception {
        CbenchOptions o = options();
        assertEquals(CbenchOptions.defaults(), o);
        assertEquals("localhost", o.controller());
        assertEquals(6633, o.port());
        assertEquals(16, o.switches());
        assertEquals(1000, o.msPerTest());
        assertEquals(16, o.loops());
        assertEquals(1, o.warmup());
        assertEquals(100_000, o.macs());
        assertEquals(false, o.throughput());
        assertEquals(1, o.connectGroupSize());
        assertEquals(true, o.learnDstMacs());
        assertEquals(1, o.dpidOffset());
    }

    @Test
    void thePapersCommandLineParses() throws Exception {
        CbenchOptions o = options("-c", "localhost", "-p", "6633", "-m", "10000", "-l", "13", "-w", "3", "-M",
                "100000", "-t", "-i", "50", "-I", "5", "-s", "64");
        assertEquals(new CbenchOptions("localhost", 6633, 64, 10000, 13, 3, 0, 100_000, true, 0, 50, 5, true, 1,
                false, false), o);
    }

    @Test
    void groupedFlagsAttachedValuesAndLongOptions() throws Exception {
        CbenchOptions o = options("-tds8", "-m250", "--loops=4", "--cooldown", "1", "--learn-dst-macs=off",
                "-D", "20", "-o", "100", "-r", "--controller=127.0.0.1");
        assertTrue(o.throughput());
        assertTrue(o.debug());
        assertEquals(8, o.switches());
        assertEquals(250, o.msPerTest());
        assertEquals(4, o.loops());
        assertEquals(1, o.cooldown());
        assertEquals(false, o.learnDstMacs());
        assertEquals(20, o.delayMs());
        assertEquals(100, o.dpidOffset());
        assertTrue(o.ranged());
        assertEquals("127.0.0.1", o.controller());
    }

    @Test
    void helpIsACommandOfItsOwn() throws Exception {
        assertInstanceOf(CbenchOptions.Help.class, CbenchOptions.parse("-s", "4", "-h"));
        assertInstanceOf(CbenchOptions.Help.class, CbenchOptions.parse("--help"));
    }

    @Test
    void errorsNameTheOptionAndTheValue() {
        assertError("option -s (--switches) expects an integer, got 'many'", "-s", "many");
        assertError("option -s (--switches) must be at least 1, got 0", "-s", "0");
        assertError("option -p (--port) must be a TCP port (1-65535), got 70000", "-p", "70000");
        assertError("option -c (--controller) needs a value", "-c");
        assertError("option -m (--ms-per-test) needs a value", "--ms-per-test");
        assertError("unknown option -x", "-x");
        assertError("unknown option --frobnicate", "--frobnicate=1");
        assertError("option -t (--throughput) takes no value", "--throughput=yes");
        assertError("option -L (--learn-dst-macs) expects on or off, got 'maybe'", "--learn-dst-macs=maybe");
        assertError("unexpected argument 'localhost'", "localhost");
        assertError("warmup (3) + cooldown (1) must be less than the number of loops (4)", "-l", "4", "-w", "3",
                "-C", "1");
        assertError("option -w (--warmup) must be at least 0, got -1", "-w", "-1");
    }

    @Test
    void runReportsUsageErrorsWithExitStatusTwo() {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int status = Cbench.run(new String[] {"-s", "x"}, print(out), print(err));
        assertEquals(Cbench.EXIT_USAGE, status);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8)
                .startsWith("cbench: option -s (--switches) expects an integer, got 'x'"));
    }

    @Test
    void runPrintsUsageForHelp() {
        var out = new ByteArrayOutputStream();
        int status = Cbench.run(new String[] {"-h"}, print(out), print(new ByteArrayOutputStream()));
        assertEquals(Cbench.EXIT_OK, status);
        String usage = out.toString(StandardCharsets.UTF_8);
        assertTrue(usage.contains("-i/--connect-delay"), usage);
        assertTrue(usage.contains("-I/--connect-group-size"), usage);
    }

    private static CbenchOptions options(String... args) throws UsageException {
        return assertInstanceOf(CbenchOptions.Benchmark.class, CbenchOptions.parse(args)).options();
    }

    private static void assertError(String message, String... args) {
        var e = assertThrows(UsageException.class, () -> CbenchOptions.parse(args));
        assertEquals(message, e.getMessage());
    }

    private static PrintStream print(ByteArrayOutputStream sink) {
        return new PrintStream(sink, true, StandardCharsets.UTF_8);
    }
}
