package net.beaconcontroller.cbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class GeneratorAgainstResponderTest {
    private static final Pattern LOOP_LINE = Pattern.compile(
            "\\d\\d:\\d\\d:\\d\\d\\.\\d{3} 2   switches: flows/sec:  (\\d+)  (\\d+)   total = \\d+\\.\\d{6} per ms ");
    private static final Pattern RESULT_LINE = Pattern.compile(
            "RESULT: 2 switches 2 tests min/max/avg/stdev = [\\d.]+/[\\d.]+/[\\d.]+/[\\d.]+ responses/s");
    private static final Pattern SUMMARY_LINE = Pattern.compile("SUMMARY mode=(\\w+) switches=2 tests=2 "
            + "responses=(\\d+) elapsed_ms=[\\d.]+ per_s=([\\d.]+) min=[\\d.]+ max=[\\d.]+ stdev=[\\d.]+ "
            + "handshakes=2/2 generator_cpu_pct=\\d+");

    private TrivialResponder responder;
    private Thread responderThread;

    @BeforeEach
    void startResponder() throws IOException {
        responder = new TrivialResponder(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false);
        responderThread = new Thread(() -> {
            try {
                responder.run(20_000);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }, "responder");
        responderThread.start();
    }

    @AfterEach
    void stopResponder() throws InterruptedException {
        responder.close();
        responderThread.join(5000);
    }

    @Test
    void throughputModeCountsAnswersAndPrintsCbenchLines() {
        var run = run("-t");
        assertEquals(Cbench.EXIT_OK, run.status(), run.err());
        var summary = checkOutput(run.out(), "throughput");
        assertTrue(summary.responses > 1000, "responses: " + summary.responses);
    }

    @Test
    void latencyModeCountsAnswersAndPrintsCbenchLines() {
        var run = run();
        assertEquals(Cbench.EXIT_OK, run.status(), run.err());
        var summary = checkOutput(run.out(), "latency");
        assertTrue(summary.responses > 0, "responses: " + summary.responses);
    }

    @Test
    void refusedConnectionEndsWithStatusOne() throws IOException {
        int freePort;
        try (var probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            freePort = probe.getLocalPort();
        }
        var run = Runs.cbench("-c", "127.0.0.1", "-p", String.valueOf(freePort), "-s", "1", "-l", "1", "-w", "0");
        assertEquals(Cbench.EXIT_FAILURE, run.status());
        assertTrue(run.err().contains("cbench: switch 1 cannot connect to 127.0.0.1:" + freePort), run.err());
    }

    private Runs.Run run(String... extra) {
        var args = new java.util.ArrayList<>(List.of("-c", "127.0.0.1", "-p", String.valueOf(responder.port()),
                "-s", "2", "-l", "3", "-w", "1", "-m", "200", "-M", "10"));
        args.addAll(List.of(extra));
        return Runs.cbench(args.toArray(String[]::new));
    }

    private record Summary(long responses, double perSecond) {
    }

    private static Summary checkOutput(String out, String mode) {
        List<String> lines = out.lines().toList();
        assertEquals(5, lines.size(), out);
        long loopTotal = 0;
        for (int i = 0; i < 3; i++) {
            var m = LOOP_LINE.matcher(lines.get(i));
            assertTrue(m.matches(), lines.get(i));
            if (i > 0) {
                loopTotal += Long.parseLong(m.group(1)) + Long.parseLong(m.group(2));
            }
        }
        assertTrue(RESULT_LINE.matcher(lines.get(3)).matches(), lines.get(3));
        var s = SUMMARY_LINE.matcher(lines.get(4));
        assertTrue(s.matches(), lines.get(4));
        assertEquals(mode, s.group(1));
        long responses = Long.parseLong(s.group(2));
        assertEquals(loopTotal, responses, "the summary adds up the counted loops");
        return new Summary(responses, Double.parseDouble(s.group(3)));
    }
}
