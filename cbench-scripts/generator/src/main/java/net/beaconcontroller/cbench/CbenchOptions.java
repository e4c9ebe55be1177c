package net.beaconcontroller.cbench;

import java.util.Arrays;
import java.util.Locale;

/**
 * The generator's settings, with cbench's option letters, long names and defaults.
 *
 * @param controller       host of the controller ({@code -c})
 * @param port             controller TCP port ({@code -p})
 * @param switches         number of emulated switches ({@code -s})
 * @param msPerTest        length of one test loop in ms ({@code -m})
 * @param loops            test loops ({@code -l})
 * @param warmup           first loops left out of the result ({@code -w})
 * @param cooldown         last loops left out of the result ({@code -C})
 * @param macs             distinct source MACs per switch ({@code -M})
 * @param throughput       throughput mode ({@code -t}); latency mode otherwise
 * @param delayMs          wait after FEATURES_REPLY before a switch starts its learn phase ({@code -D})
 * @param connectDelayMs   pause between groups of connecting switches ({@code -i})
 * @param connectGroupSize switches per connection group ({@code -I})
 * @param learnDstMacs     announce the destination hosts before testing ({@code -L})
 * @param dpidOffset       DPID of the first switch ({@code -o})
 * @param ranged           test 1, 2, ... n switches instead of n only ({@code -r})
 * @param debug            print protocol events on stderr ({@code -d})
 */
public record CbenchOptions(String controller, int port, int switches, int msPerTest, int loops, int warmup,
        int cooldown, int macs, boolean throughput, int delayMs, int connectDelayMs, int connectGroupSize,
        boolean learnDstMacs, long dpidOffset, boolean ranged, boolean debug) {

    /** What a command line asks for. */
    public sealed interface Command permits Benchmark, Help {
    }

    /** Run the benchmark with these options. */
    public record Benchmark(CbenchOptions options) implements Command {
    }

    /** Print the usage text. */
    public record Help() implements Command {
    }

    /** cbench's defaults: localhost:6633, 16 switches, 16 loops of 1000 ms, 1 warm-up, 100000 MACs, latency mode. */
    public static CbenchOptions defaults() {
        return new CbenchOptions("localhost", 6633, 16, 1000, 16, 1, 0, 100_000, false, 0, 0, 1, true, 1, false,
                false);
    }

    private enum Option {
        CONTROLLER('c', "controller", Arg.REQUIRED, "hostname of the controller to connect to", "localhost"),
        DEBUG('d', "debug", Arg.FLAG, "print protocol events on stderr", "off"),
        HELP('h', "help", Arg.NONE, "print this message", null),
        LOOPS('l', "loops", Arg.REQUIRED, "test loops", "16"),
        MACS('M', "mac-addresses", Arg.REQUIRED, "unique source MAC addresses per switch", "100000"),
        MS_PER_TEST('m', "ms-per-test", Arg.REQUIRED, "length of one test loop in ms", "1000"),
        PORT('p', "port", Arg.REQUIRED, "controller port", "6633"),
        RANGED('r', "ranged-test", Arg.FLAG, "test with 1..n switches, not only n", "off"),
        SWITCHES('s', "switches", Arg.REQUIRED, "number of emulated switches", "16"),
        THROUGHPUT('t', "throughput", Arg.NONE, "test throughput instead of latency", null),
        WARMUP('w', "warmup", Arg.REQUIRED, "first loops left out of the result (warm-up)", "1"),
        COOLDOWN('C', "cooldown", Arg.REQUIRED, "last loops left out of the result (cool-down)", "0"),
        DELAY('D', "delay", Arg.REQUIRED, "ms to wait after FEATURES_REPLY before testing", "0"),
        CONNECT_DELAY('i', "connect-delay", Arg.REQUIRED, "ms to pause between groups of connecting switches",
                "0"),
        CONNECT_GROUP_SIZE('I', "connect-group-size", Arg.REQUIRED, "switches per connection group", "1"),
        LEARN('L', "learn-dst-macs", Arg.FLAG, "announce destination MACs (gratuitous ARP) before testing", "on"),
        DPID_OFFSET('o', "dpid-offset", Arg.REQUIRED, "DPID of the first switch", "1");

        final char letter;
        final String longName;
        final Arg arg;
        final String description;
        final String defaultValue;

        Option(char letter, String longName, Arg arg, String description, String defaultValue) {
            this.letter = letter;
            this.longName = longName;
            this.arg = arg;
            this.description = description;
            this.defaultValue = defaultValue;
        }

        String display() {
            return "-" + letter + " (--" + longName + ")";
        }
    }

    /** As in cbench: flags take an optional value, and only in the long form ({@code --learn-dst-macs=off}). */
    private enum Arg {
        NONE, FLAG, REQUIRED
    }

    /**
     * Parses a cbench command line: short options may be grouped ({@code -td}) and may carry their value attached
     * ({@code -s64}) or as the next argument; long options take {@code --name=value} or {@code --name value}.
     *
     * @throws UsageException with a message naming the offending option and value
     */
    public static Command parse(String... args) throws UsageException {
        var b = new Builder();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.startsWith("--") && arg.length() > 2) {
                int eq = arg.indexOf('=');
                String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
                Option option = Arrays.stream(Option.values()).filter(o -> o.longName.equals(name)).findFirst()
                        .orElseThrow(() -> new UsageException("unknown option --" + name));
                String value = eq < 0 ? null : arg.substring(eq + 1);
                if (option.arg == Arg.NONE && value != null) {
                    throw new UsageException("option " + option.display() + " takes no value");
                }
                if (option.arg == Arg.REQUIRED && value == null) {
                    if (i + 1 >= args.length) {
                        throw new UsageException("option " + option.display() + " needs a value");
                    }
                    value = args[++i];
                }
                if (b.apply(option, value)) {
                    return new Help();
                }
            } else if (arg.startsWith("-") && arg.length() > 1) {
                for (int j = 1; j < arg.length(); j++) {
                    char letter = arg.charAt(j);
                    Option option = Arrays.stream(Option.values()).filter(o -> o.letter == letter).findFirst()
                            .orElseThrow(() -> new UsageException("unknown option -" + letter));
                    String value = null;
                    if (option.arg == Arg.REQUIRED) {
                        if (j + 1 < arg.length()) {
                            value = arg.substring(j + 1);
                        } else if (i + 1 < args.length) {
                            value = args[++i];
                        } else {
                            throw new UsageException("option " + option.display() + " needs a value");
                        }
                        j = arg.length();
                    }
                    if (b.apply(option, value)) {
                        return new Help();
                    }
                }
            } else {
                throw new UsageException("unexpected argument '" + arg + "'");
            }
        }
        return new Benchmark(b.build());
    }

    /** The usage text, one line per option with its default. */
    public static String usage() {
        var sb = new StringBuilder("usage: cbench [option]...   (cbench-compatible OpenFlow 1.0 load generator)\n");
        for (Option o : Option.values()) {
            String kind = o.arg == Arg.REQUIRED ? (o == Option.CONTROLLER ? "<str>" : "<int>") : "";
            String dflt = o.defaultValue == null ? "" : " (" + o.defaultValue + ")";
            sb.append(String.format(Locale.ROOT, "   -%c/--%-20s %-6s %s%s%n", o.letter, o.longName, kind,
                    o.description, dflt));
        }
        sb.append("Exit status: 0 done, 1 connection or protocol failure, 2 bad option, "
                + "3 some switch never completed the handshake.\n");
        return sb.toString();
    }

    /** Mutable state while parsing; validation happens once at the end so messages name the final values. */
    private static final class Builder {
        private final CbenchOptions d = defaults();
        String controller = d.controller;
        int port = d.port;
        int switches = d.switches;
        int msPerTest = d.msPerTest;
        int loops = d.loops;
        int warmup = d.warmup;
        int cooldown = d.cooldown;
        int macs = d.macs;
        boolean throughput = d.throughput;
        int delayMs = d.delayMs;
        int connectDelayMs = d.connectDelayMs;
        int connectGroupSize = d.connectGroupSize;
        boolean learn = d.learnDstMacs;
        long dpidOffset = d.dpidOffset;
        boolean ranged = d.ranged;
        boolean debug = d.debug;

        /** Applies one option; returns true when help was asked for. */
        boolean apply(Option option, String value) throws UsageException {
            switch (option) {
                case CONTROLLER -> {
                    if (value.isBlank()) {
                        throw new UsageException("option " + option.display() + " needs a host name");
                    }
                    controller = value;
                }
                case DEBUG -> debug = flag(option, value);
                case HELP -> {
                    return true;
                }
                case LOOPS -> loops = integer(option, value, 1);
                case MACS -> macs = integer(option, value, 1);
                case MS_PER_TEST -> msPerTest = integer(option, value, 1);
                case PORT -> {
                    port = integer(option, value, 1);
                    if (port > 65535) {
                        throw new UsageException("option " + option.display() + " must be a TCP port (1-65535), got "
                                + port);
                    }
                }
                case RANGED -> ranged = flag(option, value);
                case SWITCHES -> switches = integer(option, value, 1);
                case THROUGHPUT -> throughput = true;
                case WARMUP -> warmup = integer(option, value, 0);
                case COOLDOWN -> cooldown = integer(option, value, 0);
                case DELAY -> delayMs = integer(option, value, 0);
                case CONNECT_DELAY -> connectDelayMs = integer(option, value, 0);
                case CONNECT_GROUP_SIZE -> connectGroupSize = integer(option, value, 1);
                case LEARN -> learn = flag(option, value);
                case DPID_OFFSET -> dpidOffset = integer(option, value, 0);
            }
            return false;
        }

        CbenchOptions build() throws UsageException {
            if ((long) warmup + cooldown >= loops) {
                throw new UsageException("warmup (" + warmup + ") + cooldown (" + cooldown
                        + ") must be less than the number of loops (" + loops + ")");
            }
            return new CbenchOptions(controller, port, switches, msPerTest, loops, warmup, cooldown, macs, throughput,
                    delayMs, connectDelayMs, connectGroupSize, learn, dpidOffset, ranged, debug);
        }

        private static int integer(Option option, String value, int min) throws UsageException {
            int parsed;
            try {
                parsed = Integer.parseInt(value.trim());
            } catch (NumberFormatException e) {
                throw new UsageException("option " + option.display() + " expects an integer, got '" + value + "'");
            }
            if (parsed < min) {
                throw new UsageException("option " + option.display() + " must be at least " + min + ", got "
                        + parsed);
            }
            return parsed;
        }

        private static boolean flag(Option option, String value) throws UsageException {
            if (value == null) {
                return true;
            }
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "true", "on", "1", "yes" -> true;
                case "false", "off", "0", "no" -> false;
                default -> throw new UsageException("option " + option.display() + " expects on or off, got '"
                        + value + "'");
            };
        }
    }
}
