package net.beaconcontroller.firewall.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;

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
        var module = new Module[] {FirewallState.INITIAL.module()};
        var rules = new ArrayList<Stored>();
        StateFiles.readLines(path, (line, n) -> {
            if (line.startsWith("module\t")) {
                module[0] = parseModule(line);
            } else {
                rules.add(parseRule(line));
            }
        });
        return new FirewallState(module[0], rules);
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
        return "rule\t" + k.rule().id() + '\t' + k.added() + '\t' + StateFiles.fields(k.rule().fields());
    }

    static Stored parseRule(String line) {
        var f = line.split("\t", -1);
        if (f.length != 4 || !f[0].equals("rule")) {
            throw new IllegalArgumentException("expected: rule<TAB>id<TAB>added<TAB>key=value,...");
        }
        var fields = StateFiles.fields(f[3]);
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
