package net.beaconcontroller.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * {@code beacon.properties}, {@code docs/configuration.md} and {@link Settings#SCHEMA} must agree, so that the
 * shipped file and the reference cannot drift from what the controller accepts.
 */
class ConfigurationDocsTest {
    /** A property line, commented out or not: {@code #key=value}. Prose comments never start with a key and '='. */
    private static final Pattern KEY_LINE = Pattern.compile("^(#?)\\s*([A-Za-z][A-Za-z0-9_.]*(?:\\[[^\\]]*\\])?)\\s*=(.*)$");
    /** A row of the reference table: {@code | `key` | default | allowed | description |}. */
    private static final Pattern TABLE_ROW = Pattern.compile("^\\|\\s*`([^`]+)`\\s*\\|(.*)\\|(.*)\\|(.*)\\|\\s*$");
    private static final String FAMILY_EXAMPLE_PREFIX = "controller.callbackOrdering[";

    /** The repository root: the nearest directory up from the working directory that holds {@code beacon.target}. */
    static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("beacon.target"))) {
                return p;
            }
        }
        return fail("no directory containing beacon.target above " + Path.of("").toAbsolutePath()
                + ": run the tests from inside the repository");
    }

    private record KeyLine(int lineNo, boolean commented, String key, String value, String comment) { }

    private static List<KeyLine> keyLines(Path file) throws IOException {
        var lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        var result = new ArrayList<KeyLine>();
        var comment = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            var m = KEY_LINE.matcher(line);
            if (m.matches()) {
                result.add(new KeyLine(i + 1, !m.group(1).isEmpty(), m.group(2), m.group(3).strip(),
                        comment.toString().strip()));
                comment.setLength(0);
            } else if (line.startsWith("#") && !line.startsWith("##")) {
                comment.append(' ').append(line.substring(1).strip());
            } else {
                comment.setLength(0);
            }
        }
        return result;
    }

    private static String normalized(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }

    @Test
    void beaconPropertiesListsEverySchemaKeyWithItsDefaultAndNothingElse() throws IOException {
        Path file = repositoryRoot().resolve("beacon.properties");
        assertTrue(Files.isRegularFile(file), file + " is missing");
        var problems = new ArrayList<String>();
        var byKey = new LinkedHashMap<String, KeyLine>();
        for (var kl : keyLines(file)) {
            String where = file.getFileName() + ":" + kl.lineNo() + ": ";
            Setting s = Settings.find(kl.key());
            if (s == null) {
                problems.add(where + "'" + kl.key() + "' is not a key Beacon knows");
                continue;
            }
            if (!kl.commented()) {
                problems.add(where + kl.key() + " is set: the shipped file keeps every key commented out at its default");
            }
            String schemaKey = s.key();
            if (byKey.putIfAbsent(schemaKey, kl) != null) {
                problems.add(where + schemaKey + " is listed twice");
            }
            if (s.check(kl.value()) == null) {
                problems.add(where + kl.key() + "=" + kl.value() + " is not a valid value (" + s.allowed() + ")");
            } else if (!schemaKey.equals(Settings.ORDERING_FAMILY) && !kl.value().equals(s.defaultValue())) {
                problems.add(where + kl.key() + " shows " + kl.value() + " but the default is " + s.defaultValue());
            }
            if (!normalized(kl.comment()).contains(normalized(s.description()))) {
                problems.add(where + "the comment above " + kl.key() + " does not carry the schema's description '"
                        + s.description() + "'");
            }
        }
        for (var s : Settings.SCHEMA) {
            if (!byKey.containsKey(s.key())) {
                problems.add(s.key().equals(Settings.ORDERING_FAMILY)
                        ? "no commented example line '#" + FAMILY_EXAMPLE_PREFIX + "PACKET_IN]=...' for " + s.key()
                        : "missing line '#" + s.key() + "=" + s.defaultValue() + "'");
            }
        }
        assertTrue(problems.isEmpty(), () -> "beacon.properties and Settings.SCHEMA disagree:\n  "
                + String.join("\n  ", problems));
    }

    private record Row(String key, String defaultValue, String allowed, String description) { }

    @Test
    void configurationReferenceHasOneRowPerSchemaKeyThatMatchesTheSchema() throws IOException {
        Path doc = repositoryRoot().resolve("docs/configuration.md");
        if (!Files.isRegularFile(doc)) {
            fail(doc + " does not exist: the configuration reference must have a table row"
                    + " '| `key` | default | allowed | description |' for every key of Settings.SCHEMA");
        }
        var rows = new LinkedHashMap<String, Row>();
        var problems = new ArrayList<String>();
        for (String line : Files.readAllLines(doc, StandardCharsets.UTF_8)) {
            var m = TABLE_ROW.matcher(line.strip());
            if (!m.matches()) {
                continue;
            }
            var row = new Row(m.group(1).strip(), m.group(2).strip(), m.group(3).strip(), m.group(4).strip());
            if (rows.putIfAbsent(row.key(), row) != null) {
                problems.add("row for " + row.key() + " appears twice");
            }
        }
        Map<String, Setting> schema = new LinkedHashMap<>();
        Settings.SCHEMA.forEach(s -> schema.put(s.key(), s));
        for (var row : rows.values()) {
            if (!schema.containsKey(row.key())) {
                problems.add("row for '" + row.key() + "', which is not a key of Settings.SCHEMA");
            }
        }
        for (var s : schema.values()) {
            var row = rows.get(s.key());
            if (row == null) {
                problems.add("no row for " + s.key());
                continue;
            }
            if (!row.defaultValue().equals(s.defaultValue())) {
                problems.add(s.key() + ": default column '" + row.defaultValue() + "', schema default '"
                        + s.defaultValue() + "'");
            }
            if (!row.allowed().equals(s.allowed())) {
                problems.add(s.key() + ": allowed column '" + row.allowed() + "', schema says '" + s.allowed() + "'");
            }
            if (!normalized(row.description()).equals(normalized(s.description()))) {
                problems.add(s.key() + ": description column '" + row.description() + "', schema says '"
                        + s.description() + "'");
            }
        }
        assertTrue(problems.isEmpty(), () -> doc.getFileName() + " and Settings.SCHEMA disagree:\n  "
                + String.join("\n  ", problems));
        assertEquals(schema.keySet(), rows.keySet());
    }
}
