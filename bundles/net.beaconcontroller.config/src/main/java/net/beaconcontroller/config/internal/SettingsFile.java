package net.beaconcontroller.config.internal;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * {@code beacon.properties}: read with {@link Properties} semantics (escapes, continuations), remembering the line of
 * each key for {@code beacon:config}; and edited for {@code --save} line by line, so every comment stays.
 */
final class SettingsFile {
    /** System property naming the file; the {@code beacon} script sets it, {@code --config FILE} changes it. */
    static final String FILE_PROPERTY = "beacon.properties";

    /** A key line, possibly commented out: group 1 is the comment mark, group 2 the key. */
    private static final Pattern KEY_LINE = Pattern.compile("^\\s*(#\\s*)?([^\\s#!=:]+)\\s*[=:].*$");

    private SettingsFile() {
    }

    /** A file that cannot be used: the one line start-up prints. */
    static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable(String message) {
            super(message);
        }
    }

    static Path location() {
        return Path.of(System.getProperty(FILE_PROPERTY, "beacon.properties"));
    }

    static List<RawSetting> read(Path file) throws Unreadable {
        List<String> lines;
        var properties = new Properties();
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            properties.load(new StringReader(text));
            lines = text.lines().toList();
        } catch (NoSuchFileException e) {
            throw new Unreadable(file + ": file not found (set -D" + FILE_PROPERTY + "=FILE or --config FILE)");
        } catch (IOException | IllegalArgumentException e) {
            throw new Unreadable(file + ": cannot be read: " + e.getMessage());
        }
        var lineOf = new HashMap<String, Integer>();
        for (int i = 0; i < lines.size(); i++) {
            var m = KEY_LINE.matcher(lines.get(i));
            if (m.matches() && m.group(1) == null) {
                lineOf.put(m.group(2), i + 1);
            }
        }
        var result = new ArrayList<RawSetting>();
        for (String key : properties.stringPropertyNames().stream().sorted().toList()) {
            result.add(new RawSetting(key, properties.getProperty(key), Source.file(file, lineOf.getOrDefault(key, 0))));
        }
        return result;
    }

    /**
     * Writes {@code key=value} into the file: over the key's own line, else over its commented-out {@code #key=}
     * line, else at the end. Every other line stays as it was.
     *
     * @return the line number written
     */
    static int save(Path file, String key, String value) throws IOException {
        var lines = new ArrayList<>(Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of());
        String entry = key + "=" + escape(value);
        int at = find(lines, key, false);
        if (at < 0) {
            at = find(lines, key, true);
        }
        if (at < 0) {
            lines.add(entry);
            at = lines.size() - 1;
        } else {
            lines.set(at, entry);
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, lines, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return at + 1;
    }

    private static int find(List<String> lines, String key, boolean commented) {
        for (int i = 0; i < lines.size(); i++) {
            var m = KEY_LINE.matcher(lines.get(i));
            if (m.matches() && m.group(2).equals(key) && (m.group(1) != null) == commented) {
                return i;
            }
        }
        return -1;
    }

    /** Enough escaping that {@link Properties#load} reads the value back as given. */
    private static String escape(String value) {
        var sb = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case ' ' -> sb.append(i == 0 ? "\\ " : " ");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
