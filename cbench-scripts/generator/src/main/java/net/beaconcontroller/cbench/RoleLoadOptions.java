package net.beaconcontroller.cbench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Settings of {@link RoleLoad}: switches connected to every member of a cluster, each sending numbered PACKET_INs at
 * a fixed rate.
 *
 * @param controller    host of every member
 * @param ports         one OpenFlow port per member; connection i of every switch goes to ports[i]
 * @param switches      emulated switches
 * @param rate          PACKET_INs per second per switch
 * @param dpidOffset    DPID of the first switch
 * @param out           directory for packet-ins.csv, roles.csv and masters.txt
 * @param stopFile      the load stops once this file exists
 * @param maxSeconds    the load stops after this long at the latest
 * @param masterTimeout seconds to wait for every switch to have a MASTER before the load starts
 */
public record RoleLoadOptions(String controller, List<Integer> ports, int switches, int rate, long dpidOffset,
        Path out, Path stopFile, int maxSeconds, int masterTimeout) {

    static final String USAGE = String.join(System.lineSeparator(),
            "usage: java -cp cbench.jar net.beaconcontroller.cbench.RoleLoad --ports P1,P2,... --out DIR"
                    + " --stop-file FILE [options]",
            "  --controller HOST     host of every member (default 127.0.0.1)",
            "  --ports P1,P2,...     one OpenFlow port per cluster member; every switch connects to all",
            "  --switches N          emulated switches (default 8)",
            "  --rate N              PACKET_INs per second per switch (default 250)",
            "  --dpid-offset N       DPID of the first switch (default 1)",
            "  --out DIR             where packet-ins.csv, roles.csv and masters.txt go",
            "  --stop-file FILE      the load stops once this file exists",
            "  --max-seconds N       the load stops after N s at the latest (default 600)",
            "  --master-timeout N    seconds to wait for every switch to have a MASTER (default 60)",
            "") + System.lineSeparator();

    /** Parses {@code --name value} or {@code --name=value} pairs; null for {@code -h}/{@code --help}. */
    static RoleLoadOptions parse(String... args) throws UsageException {
        String controller = "127.0.0.1";
        List<Integer> ports = null;
        int switches = 8;
        int rate = 250;
        long dpidOffset = 1;
        Path out = null;
        Path stopFile = null;
        int maxSeconds = 600;
        int masterTimeout = 60;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("-h") || arg.equals("--help")) {
                return null;
            }
            if (!arg.startsWith("--")) {
                throw new UsageException("unexpected argument '" + arg + "'");
            }
            String name = arg.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new UsageException("option --" + name + " needs a value");
            }
            switch (name) {
                case "controller" -> controller = value;
                case "ports" -> ports = portList(value);
                case "switches" -> switches = number(name, value, 1, 255);
                case "rate" -> rate = number(name, value, 1, 100_000);
                case "dpid-offset" -> dpidOffset = number(name, value, 1, Integer.MAX_VALUE);
                case "out" -> out = Path.of(value);
                case "stop-file" -> stopFile = Path.of(value);
                case "max-seconds" -> maxSeconds = number(name, value, 1, 86_400);
                case "master-timeout" -> masterTimeout = number(name, value, 1, 3600);
                default -> throw new UsageException("unknown option --" + name);
            }
        }
        if (ports == null) {
            throw new UsageException("--ports is required");
        }
        if (out == null || stopFile == null) {
            throw new UsageException("--out and --stop-file are required");
        }
        return new RoleLoadOptions(controller, ports, switches, rate, dpidOffset, out, stopFile, maxSeconds,
                masterTimeout);
    }

    private static List<Integer> portList(String value) throws UsageException {
        var ports = new ArrayList<Integer>();
        for (String p : value.split(",", -1)) {
            ports.add(number("ports", p.strip(), 1, 65_535));
        }
        if (ports.size() > 16) {
            throw new UsageException("--ports: at most 16 members");
        }
        return List.copyOf(ports);
    }

    private static int number(String option, String value, int min, int max) throws UsageException {
        int n;
        try {
            n = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new UsageException("--" + option + ": '" + value + "' is not a whole number");
        }
        if (n < min || n > max) {
            throw new UsageException("--" + option + ": " + n + " is not in " + min + ".." + max);
        }
        return n;
    }
}
