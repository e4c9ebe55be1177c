package net.beaconcontroller.acl.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;

import net.beaconcontroller.acl.AclRule;
import net.beaconcontroller.acl.AclRules;
import net.beaconcontroller.util.StateFiles;

/**
 * The ACL on disk: the next id, then one line per rule in Floodlight's POST keys (readable, and read back by the
 * parser of a REST request, so a file edited by hand is checked as a request is). Written whole and atomically. A
 * rule's line is also what a cluster shares.
 */
final class AclFile {
    private static final String HEADER = "# Beacon ACL (written by Beacon): the next rule id, then one rule per line:"
            + " id, the rule in Floodlight's POST keys";

    private final Path path;

    AclFile(Path path) {
        this.path = path;
    }

    Path path() {
        return path;
    }

    /** What the file holds; no rules when there is none. @throws IOException naming the line */
    AclState read() throws IOException {
        var next = new int[] {1};
        var rules = new ArrayList<AclRule>();
        StateFiles.readLines(path, (line, n) -> {
            if (line.startsWith("next\t")) {
                next[0] = Integer.parseInt(line.substring("next\t".length()).trim());
            } else {
                rules.add(parseRule(line));
            }
        });
        return new AclState(rules, next[0]);
    }

    void write(AclState state) throws IOException {
        var sb = new StringBuilder(HEADER).append('\n').append("next\t").append(state.nextId()).append('\n');
        for (var r : state.rules()) {
            sb.append(line(r)).append('\n');
        }
        StateFiles.writeAtomically(path, sb);
    }

    static String line(AclRule r) {
        return "rule\t" + r.id() + '\t' + StateFiles.fields(AclRules.fields(r));
    }

    static AclRule parseRule(String line) {
        var f = line.split("\t", -1);
        if (f.length != 3 || !f[0].equals("rule")) {
            throw new IllegalArgumentException("expected: rule<TAB>id<TAB>key=value,...");
        }
        int id = Integer.parseInt(f[1]);
        if (id < 1) {
            throw new IllegalArgumentException("a rule id is 1 or more, not " + id);
        }
        return AclRules.parse(StateFiles.fields(f[2])).withId(id);
    }
}
