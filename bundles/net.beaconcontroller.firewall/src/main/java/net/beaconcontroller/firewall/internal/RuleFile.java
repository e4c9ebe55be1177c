package net.beaconcontroller.firewall.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.stream.Collectors;

import net.beaconcontroller.firewall.FirewallRules;
import net.beaconcontroller.firewall.internal.FirewallState.Stored;
import net.beaconcontroller.firewall.internal.FirewallState.Module;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.StateFiles;

/**
 * The firewall on disk: whether it is on, its subnet mask, and one line per rule in Floodlight's POST keys (readable,
 * and read back by the same parser as a REST request). Written whole and atomically. The lines are also what a cluster shares.
 */
final class RuleFile {
    private static final String HEADER = "# Beacon firewall (written by Beacon): the module line, then one rule per"
            + " line: id, when added (ms), the rule in Floodlight's POST keys";

    private final Path path;

    RuleFile(Path path) {
        this.path = path;
    }

    Path path() {
        return path;
    }

    /** What the file holds; {@link FirewallState#INITIAL} when there is none. @throws IOException naming the line */
    FirewallState read() throws IOException {
        if (!Files.exists(path)) {
            return FirewallState.INITIAL;
        }
        var module = FirewallState.INITIAL.module();
        var rules = new ArrayList<Stored>();
        int n = 0;
        for (var line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
            n++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            try {
                if (line.startsWith("module\t")) {
                    module = parseModule(line);
                } else {
                    rules.add(parseRule(line));
                }
            } catch (IllegalArgumentException e) {
                throw new IOException(path + " line " + n + ": " + e.getMessage(), e);
            }
        }
        return new FirewallState(module, rules);
    }

    void write(FirewallState state) throws IOException {
        var sb = new StringBuilder(HEADER).append('\n').append(line(state.module())).append('\n');
        for (var k : state.rules()) {
            sb.append(line(k)).append('\n');
        }
        StateFiles.writeAtomically(path, sb);
    }

    static String line(Module m) {
        return "module\tenabled=" + m.enabled() + "\tsubnet-mask=" + IPv4Address.toString(m.subnetMask());
    }

    static Module parseModule(String line) {
        var f = line.split("\t", -1);
        if (f.length != 3 || !f[0].equals("module") || !f[1].startsWith("enabled=")
                || !f[2].startsWith("subnet-mask=")) {
            throw new IllegalArgumentException("expected: module<TAB>enabled=true|false<TAB>subnet-mask=A.B.C.D");
        }
        var enabled = f[1].substring("enabled=".length());
        if (!enabled.equals("true") && !enabled.equals("false")) {
            throw new IllegalArgumentException("enabled is true or false, not '" + enabled + "'");
        }
        return new Module(Boolean.parseBoolean(enabled), IPv4Address.parse(f[2].substring("subnet-mask=".length())));
    }

    static String line(Stored k) {
        return "rule\t" + k.rule().id() + '\t' + k.added() + '\t' + k.rule().fields().entrySet().stream()
                .map(e -> e.getKey() + '=' + e.getValue()).collect(Collectors.joining(","));
    }

    static Stored parseRule(String line) {
        var f = line.split("\t", -1);
        if (f.length != 4 || !f[0].equals("rule")) {
            throw new IllegalArgumentException("expected: rule<TAB>id<TAB>added<TAB>key=value,...");
        }
        var fields = new LinkedHashMap<String, String>();
        for (var item : f[3].split(",")) {
            int eq = item.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("'" + item + "' is not key=value");
            }
            fields.put(item.substring(0, eq), item.substring(eq + 1));
        }
        int id;
        long added;
        try {
            id = Integer.parseInt(f[1]);
            added = Long.parseLong(f[2]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("rule id and time are numbers: " + e.getMessage(), e);
        }
        return new Stored(FirewallRules.parse(fields).withId(id), added);
    }
}
