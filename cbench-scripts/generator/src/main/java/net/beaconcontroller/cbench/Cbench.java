package net.beaconcontroller.cbench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * cbench-compatible OpenFlow 1.0 controller benchmark: emulates {@code -s} switches, sends PACKET_INs and counts the
 * controller's FLOW_MOD ADD / non-LLDP PACKET_OUT answers, printing cbench's per-loop and RESULT lines plus a
 * machine-readable SUMMARY line.
 *
 * <p>One thread and one selector drive every switch (see {@link FakeSwitch} for the allocation-free hot path). A run
 * always ends by itself: connects time out after 3 s and every phase is bounded by the clock.
 */
public final class Cbench {
    /** Exit status of a completed run. */
    public static final int EXIT_OK = 0;
    /** Exit status when connecting failed or the controller closed a connection or broke the protocol. */
    public static final int EXIT_FAILURE = 1;
    /** Exit status for a bad command line. */
    public static final int EXIT_USAGE = 2;
    /** Exit status when some switch never received FEATURES_REQUEST. */
    public static final int EXIT_INCOMPLETE_HANDSHAKE = 3;

    private static final int CONNECT_TIMEOUT_MS = 3000;
    /** cbench lets answers settle this long after each loop before reading the counters. */
    private static final long SETTLE_NANOS = 100_000_000L;
    private static final long TIMER_GRANULARITY_NANOS = 5_000_000L;

    private final CbenchOptions options;
    private final PrintStream out;
    private final PrintStream err;
    private final List<FakeSwitch> switches = new ArrayList<>();
    private final Consumer<SelectionKey> dispatch = this::dispatch;
    private Selector selector;

    private Cbench(CbenchOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /** Command-line entry point; exits with one of the {@code EXIT_*} statuses. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Parses {@code args}, runs, prints to {@code out}/{@code err}, and returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        CbenchOptions options;
        try {
            CbenchOptions.Command command = CbenchOptions.parse(args);
            if (command instanceof CbenchOptions.Benchmark benchmark) {
                options = benchmark.options();
            } else {
                out.print(CbenchOptions.usage());
                return EXIT_OK;
            }
        } catch (UsageException e) {
            err.println("cbench: " + e.getMessage());
            err.println("cbench: try 'cbench -h' for the list of options");
            return EXIT_USAGE;
        }
        try {
            CbenchReport report = benchmark(options, out, err);
            if (!report.allHandshakesCompleted()) {
                err.printf("cbench: %d of %d switches never received FEATURES_REQUEST%n",
                        report.switches() - report.handshakesCompleted(), report.switches());
                return EXIT_INCOMPLETE_HANDSHAKE;
            }
            return EXIT_OK;
        } catch (IOException e) {
            err.println("cbench: " + e.getMessage());
            return EXIT_FAILURE;
        }
    }

    /**
     * Runs the benchmark described by {@code options}: prints cbench's banner on {@code err} and its per-loop,
     * RESULT and SUMMARY lines on {@code out}.
     *
     * @throws IOException when a switch cannot connect, or the controller closes a connection or sends a malformed
     *                     stream; the message names the switch
     */
    public static CbenchReport benchmark(CbenchOptions options, PrintStream out, PrintStream err) throws IOException {
        return new Cbench(options, out, err).execute();
    }

    private CbenchReport execute() throws IOException {
        printBanner();
        var address = new InetSocketAddress(options.controller(), options.port());
        if (address.isUnresolved()) {
            throw new IOException("cannot resolve controller host '" + options.controller() + "'");
        }
        List<CbenchReport.Result> results = new ArrayList<>();
        try (Selector s = Selector.open()) {
            selector = s;
            int delay = options.delayMs();
            int n = options.switches();
            for (int i = 0; i < n; i++) {
                if (options.connectDelayMs() != 0 && i != 0 && i % options.connectGroupSize() == 0) {
                    debug("pausing " + options.connectDelayMs() + " ms before connecting switch " + (i + 1));
                    serviceUntil(System.nanoTime() + options.connectDelayMs() * 1_000_000L);
                }
                connect(address, i);
                if (!options.ranged() && i + 1 != n) {
                    continue;
                }
                results.add(testSwitches(delay));
                delay = 0; // like cbench, only the very first loop waits for -D
            }
        } catch (SwitchFailure f) {
            throw f.getCause();
        } finally {
            switches.forEach(FakeSwitch::close);
        }
        int handshakes = (int) switches.stream().filter(FakeSwitch::handshakeDone).count();
        return new CbenchReport(results, switches.size(), handshakes);
    }

    private void connect(InetSocketAddress address, int index) throws IOException {
        long dpid = options.dpidOffset() + index;
        debug("connecting switch " + (index + 1) + " (dpid " + dpid + ")");
        SocketChannel channel = SocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.socket().connect(address, CONNECT_TIMEOUT_MS);
            switches.add(new FakeSwitch(index + 1, dpid, channel, selector, options, debugStream()));
        } catch (IOException e) {
            channel.close();
            throw new IOException("switch " + (index + 1) + " cannot connect to " + options.controller() + ":"
                    + options.port() + ": " + e.getMessage(), e);
        }
    }

    private CbenchReport.Result testSwitches(int firstDelayMs) throws IOException {
        int loops = options.loops();
        long[] responses = new long[loops];
        double[] elapsedMs = new double[loops];
        double[] perSecond = new double[loops];
        long[] cpuNanos = new long[loops];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        boolean cpuKnown = threads.isCurrentThreadCpuTimeSupported();
        for (int j = 0; j < loops; j++) {
            int delay = j == 0 ? firstDelayMs : 0;
            long cpuStart = cpuKnown ? threads.getCurrentThreadCpuTime() : 0;
            long start = System.nanoTime();
            setTesting(true);
            serviceUntil(start + (options.msPerTest() + (long) delay) * 1_000_000L);
            long end = System.nanoTime();
            setTesting(false);
            cpuNanos[j] = cpuKnown ? threads.getCurrentThreadCpuTime() - cpuStart : 0;
            LocalTime clock = LocalTime.now();
            var line = new StringBuilder(String.format(Locale.ROOT, "%02d:%02d:%02d.%03d %-3d switches: flows/sec:  ",
                    clock.getHour(), clock.getMinute(), clock.getSecond(), clock.getNano() / 1_000_000,
                    switches.size()));
            for (FakeSwitch fs : switches) {
                long count = fs.takeResponses();
                responses[j] += count;
                line.append(count).append("  ");
            }
            elapsedMs[j] = (end - start) / 1e6 - delay;
            double perMs = responses[j] / elapsedMs[j];
            perSecond[j] = perMs * 1000.0;
            line.append(String.format(Locale.ROOT, " total = %f per ms ", perMs));
            out.println(line);
            out.flush();
            serviceUntil(System.nanoTime() + SETTLE_NANOS);
        }
        int first = options.warmup();
        int last = loops - options.cooldown(); // exclusive
        int tests = last - first;
        double min = Double.MAX_VALUE;
        double max = 0;
        double sum = 0;
        long counted = 0;
        double countedMs = 0;
        long countedCpuNanos = 0;
        for (int j = first; j < last; j++) {
            min = Math.min(min, perSecond[j]);
            max = Math.max(max, perSecond[j]);
            sum += perSecond[j];
            counted += responses[j];
            countedMs += elapsedMs[j];
            countedCpuNanos += cpuNanos[j];
        }
        double cpuPercent = cpuKnown ? countedCpuNanos / 1e4 / countedMs : -1;
        double avg = sum / tests;
        double squares = 0;
        for (int j = first; j < last; j++) {
            squares += (perSecond[j] - avg) * (perSecond[j] - avg);
        }
        double stdev = Math.sqrt(squares / tests);
        var result = new CbenchReport.Result(switches.size(), tests, min, max, avg, stdev, counted, countedMs,
                cpuPercent);
        out.printf(Locale.ROOT, "RESULT: %d switches %d tests min/max/avg/stdev = %.2f/%.2f/%.2f/%.2f responses/s%n",
                result.switches(), tests, min, max, avg, stdev);
        int handshakes = (int) switches.stream().filter(FakeSwitch::handshakeDone).count();
        out.printf(Locale.ROOT, "SUMMARY mode=%s switches=%d tests=%d responses=%d elapsed_ms=%.1f per_s=%.2f "
                + "min=%.2f max=%.2f stdev=%.2f handshakes=%d/%d generator_cpu_pct=%.0f%n",
                options.throughput() ? "throughput" : "latency", result.switches(), tests, counted, countedMs, avg, min,
                max, stdev, handshakes, switches.size(), cpuPercent);
        out.flush();
        return result;
    }

    private void setTesting(boolean testing) throws IOException {
        for (FakeSwitch fs : switches) {
            try {
                fs.setTesting(testing);
            } catch (IOException e) {
                throw failure(fs, e);
            }
        }
    }

    /** Runs the selector loop until {@code deadline}, waking early for switches ending their {@code -D} wait. */
    private void serviceUntil(long deadline) throws IOException {
        boolean timers = options.delayMs() > 0;
        for (;;) {
            long now = System.nanoTime();
            if (deadline - now <= 0) {
                return;
            }
            long wake = deadline;
            if (timers) {
                // a switch may start waiting inside select, so keep the selector's naps short while -D is in use
                wake = Math.min(deadline - now, TIMER_GRANULARITY_NANOS) + now;
                for (FakeSwitch fs : switches) {
                    try {
                        if (fs.tick(now) && fs.readyAtNanos() - wake < 0) {
                            wake = fs.readyAtNanos();
                        }
                    } catch (IOException e) {
                        throw failure(fs, e);
                    }
                }
            }
            long remaining = wake - now;
            if (remaining <= 0) {
                selector.selectNow(dispatch);
            } else {
                selector.select(dispatch, Math.max(1, (remaining + 999_999) / 1_000_000));
            }
        }
    }

    private void dispatch(SelectionKey key) {
        FakeSwitch fs = (FakeSwitch) key.attachment();
        try {
            fs.onSelected();
        } catch (IOException e) {
            throw failure(fs, e);
        }
    }

    private static SwitchFailure failure(FakeSwitch fs, IOException cause) {
        String what = cause instanceof java.nio.channels.ClosedChannelException
                ? "the controller closed the connection"
                : cause.getMessage() == null ? cause.toString() : cause.getMessage();
        return new SwitchFailure(new IOException("switch " + fs.number + " (dpid " + fs.dpid + "): " + what, cause));
    }

    private void printBanner() {
        var o = options;
        err.printf(Locale.ROOT, """
                cbench: controller benchmarking tool (Beacon's cbench-compatible generator)
                   running in mode %s
                   connecting to controller at %s:%d
                   faking%s %d switches offset %d :: %d tests each; %d ms per test
                   with %d unique source MACs per switch
                   %s destination mac addresses before the test
                   starting test with %d ms delay after features_reply
                   ignoring first %d "warmup" and last %d "cooldown" loops
                   connection delay of %dms per %d switch(es)
                   debugging info is %s
                """, o.throughput() ? "'throughput'" : "'latency'", o.controller(), o.port(),
                o.ranged() ? " from 1 to" : "", o.switches(), o.dpidOffset(), o.loops(), o.msPerTest(), o.macs(),
                o.learnDstMacs() ? "learning" : "NOT learning", o.delayMs(), o.warmup(), o.cooldown(),
                o.connectDelayMs(), o.connectGroupSize(), o.debug() ? "on" : "off");
        err.flush();
    }

    private PrintStream debugStream() {
        return options.debug() ? err : null;
    }

    private void debug(String message) {
        if (options.debug()) {
            err.println("cbench: " + message);
        }
    }

    /** Carries a switch's I/O failure out of the selector callback, which cannot throw checked exceptions. */
    private static final class SwitchFailure extends UncheckedIOException {
        private static final long serialVersionUID = 1L;

        SwitchFailure(IOException cause) {
            super(cause);
        }
    }
}
