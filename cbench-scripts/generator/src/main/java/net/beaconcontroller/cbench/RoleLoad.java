package net.beaconcontroller.cbench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * ElastiCon's load (Dixit et al., HotSDN'13, Fig. 4 and 5): switches connected to every member of a Beacon cluster,
 * each answering role requests as Open vSwitch does and sending numbered, buffered PACKET_INs at a fixed rate. It
 * records when each was sent and every answer (FLOW_MOD or PACKET_OUT carrying its number), and each role request the
 * switches get, so that the caller can cut the run into phases and find the migrations.
 *
 * <p>Writes into {@code --out}: {@code packet-ins.csv} (one row per PACKET_IN), {@code roles.csv} (one row per role
 * request) and, while running, {@code masters.txt} (each switch's MASTER connection, rewritten on every change). Prints
 * {@code READY} once every switch has one MASTER and its other connections are SLAVE, and a {@code ROLELOAD} summary
 * line at the end.
 */
public final class RoleLoad {
    static final int EXIT_OK = 0;
    static final int EXIT_FAILURE = 1;
    static final int EXIT_USAGE = 2;
    /** How long answers may still arrive after the last PACKET_IN before the unanswered ones count as lost. */
    private static final long DRAIN_MS = 2000;

    private final RoleLoadOptions options;
    private final PrintStream out;
    private final List<SharedSwitch> switches = new ArrayList<>();
    private final List<SharedSwitch.RoleEvent> roleEvents = new CopyOnWriteArrayList<>();
    private final ResponseLog.Clock clock = ResponseLog.Clock.now();
    private volatile boolean sending = true;

    private RoleLoad(RoleLoadOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        RoleLoadOptions options;
        try {
            options = RoleLoadOptions.parse(args);
        } catch (UsageException e) {
            err.println("roleload: " + e.getMessage());
            err.print(RoleLoadOptions.USAGE);
            return EXIT_USAGE;
        }
        if (options == null) {
            out.print(RoleLoadOptions.USAGE);
            return EXIT_OK;
        }
        var load = new RoleLoad(options, out);
        try {
            return load.execute();
        } catch (IOException | UncheckedIOException e) {
            err.println("roleload: " + e.getMessage());
            return EXIT_FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("roleload: interrupted");
            return EXIT_FAILURE;
        } finally {
            load.switches.forEach(SharedSwitch::close);
        }
    }

    private int execute() throws IOException, InterruptedException {
        Files.createDirectories(options.out());
        var addresses = options.ports().stream()
                .map(p -> new InetSocketAddress(options.controller(), p)).toList();
        for (int i = 0; i < options.switches(); i++) {
            var sw = new SharedSwitch(options.dpidOffset() + i, addresses, roleEvents::add);
            switches.add(sw);
            sw.start();
        }
        if (!awaitMasters()) {
            out.println("roleload: not every switch had one MASTER within " + options.masterTimeout() + " s: "
                    + masters());
            return EXIT_FAILURE;
        }
        String written = masters();
        writeAtomically(options.out().resolve("masters.txt"), written.replace(' ', '\n') + "\n");
        out.println("READY " + written);
        long start = System.nanoTime();
        var senders = startSenders(start);
        long end = start + TimeUnit.SECONDS.toNanos(options.maxSeconds());
        while (!Files.exists(options.stopFile()) && System.nanoTime() < end && failure() == null) {
            String now = masters();
            if (!now.equals(written)) {
                writeAtomically(options.out().resolve("masters.txt"), now.replace(' ', '\n') + "\n");
                written = now;
            }
            Thread.sleep(50);
        }
        sending = false;
        for (var t : senders) {
            t.join();
        }
        Thread.sleep(DRAIN_MS);
        writeResults();
        return summary(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) - DRAIN_MS);
    }

    private boolean awaitMasters() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(options.masterTimeout());
        while (System.nanoTime() < deadline) {
            if (switches.stream().allMatch(s -> s.master(true) >= 0)) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    /** Each switch's MASTER connection as {@code dpid=index} (-1: none), space-separated. */
    private String masters() {
        var sb = new StringBuilder();
        for (var s : switches) {
            sb.append(sb.length() == 0 ? "" : " ").append(s.dpid).append('=').append(s.master(false));
        }
        return sb.toString();
    }

    /** One thread per switch, each at the fixed rate; the switches' phases are staggered over one period. */
    private List<Thread> startSenders(long start) {
        long period = TimeUnit.SECONDS.toNanos(1) / options.rate();
        var threads = new ArrayList<Thread>();
        for (int i = 0; i < switches.size(); i++) {
            var sw = switches.get(i);
            long first = start + period * i / switches.size();
            var t = new Thread(() -> paced(sw, first, period), "sender-" + sw.dpid);
            t.start();
            threads.add(t);
        }
        return threads;
    }

    private void paced(SharedSwitch sw, long first, long period) {
        long next = first;
        try {
            while (sending) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                    continue;
                }
                sw.sendPacketIn();
                next += period;
                // A sender descheduled for long does not make up in a burst: the rate stays what was asked.
                if (System.nanoTime() - next > TimeUnit.MILLISECONDS.toNanos(100)) {
                    next = System.nanoTime();
                }
            }
        } catch (UncheckedIOException e) {
            out.println("roleload: " + e.getMessage() + ": " + e.getCause().getMessage());
        }
    }

    private String failure() {
        return switches.stream().map(SharedSwitch::failure).filter(f -> f != null).findFirst().orElse(null);
    }

    private void writeResults() throws IOException {
        try (var w = Files.newBufferedWriter(options.out().resolve("packet-ins.csv"), StandardCharsets.UTF_8)) {
            w.write("dpid,number,sent_ms,copies,answers,member,rtt_us\n");
            for (var s : switches) {
                s.withLog(log -> {
                    try {
                        log.writeCsv(w, clock);
                        return null;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
        try (var w = Files.newBufferedWriter(options.out().resolve("roles.csv"), StandardCharsets.UTF_8)) {
            w.write("ms,dpid,member,role\n");
            for (var e : roleEvents) {
                w.write(String.format(Locale.ROOT, "%.3f,%d,%d,%s%n", clock.epochMillis(e.nanos()), e.dpid(),
                        e.connection(), e.role()));
            }
        }
    }

    private int summary(long ms) {
        long sent = 0, lost = 0, duplicated = 0, unsent = 0, unmatched = 0, refused = 0;
        for (var s : switches) {
            sent += s.withLog(ResponseLog::sentCount);
            lost += s.withLog(l -> l.count(0));
            duplicated += s.withLog(l -> l.count(2));
            unsent += s.withLog(ResponseLog::unsent);
            unmatched += s.withLog(ResponseLog::unmatched);
            refused += s.refused();
        }
        String failure = failure();
        out.printf(Locale.ROOT, "ROLELOAD switches=%d rate=%d ms=%d sent=%d lost=%d duplicated=%d"
                + " to_no_controller=%d unmatched_answers=%d refused_writes=%d%s%n", switches.size(), options.rate(),
                ms, sent, lost, duplicated, unsent, unmatched, refused, failure == null ? "" : " failure=" + failure);
        return failure == null ? EXIT_OK : EXIT_FAILURE;
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        var tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
