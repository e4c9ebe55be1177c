package net.beaconcontroller.util;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.ObjIntConsumer;
import java.util.stream.Collectors;

/** Files in which applications keep their state across restarts (static flows, firewall rules). */
public final class StateFiles {
    private StateFiles() {
    }

    /**
     * The file to use: {@code setting} when the user gave one, else {@code name} in the OSGi configuration area
     * ({@code osgi.configuration.area}, a file: URL, which {@code -clean} keeps), else {@code name} in the working
     * directory.
     */
    public static Path resolve(String setting, String configurationArea, String name) {
        if (!setting.isEmpty()) {
            return Path.of(setting);
        }
        return configurationArea == null ? Path.of(name)
                : Path.of(URI.create(configurationArea.replace(" ", "%20"))).resolve(name);
    }

    /**
     * Writes {@code text} to a temporary file beside {@code path} that then replaces it, so a crash leaves either
     * the old content or the new.
     */
    public static void writeAtomically(Path path, CharSequence text) throws IOException {
        var dir = path.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        var tmp = Files.createTempFile(dir, "." + path.getFileName(), ".tmp");
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Gives {@code reader} every line of {@code path} but blank lines and {@code #} comments, in order, with its
     * number.
     *
     * @param reader throws IllegalArgumentException saying what is wrong with a line
     * @return false when there is no such file
     * @throws IOException when it cannot be read, or naming the file and line {@code reader} refused
     */
    public static boolean readLines(Path path, ObjIntConsumer<String> reader) throws IOException {
        if (!Files.exists(path)) {
            return false;
        }
        int n = 0;
        for (var line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
            n++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            try {
                reader.accept(line, n);
            } catch (IllegalArgumentException e) {
                throw new IOException(path + " line " + n + ": " + e.getMessage(), e);
            }
        }
        return true;
    }

    /** {@code key=value,key=value}: how the firewall and the ACL write a rule's request keys on one line. */
    public static String fields(Map<String, String> fields) {
        return fields.entrySet().stream().map(e -> e.getKey() + '=' + e.getValue()).collect(Collectors.joining(","));
    }

    /** The map {@link #fields(Map)} wrote. @throws IllegalArgumentException for an item that is not key=value */
    public static Map<String, String> fields(String text) {
        var fields = new LinkedHashMap<String, String>();
        for (var item : text.split(",")) {
            int eq = item.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("'" + item + "' is not key=value");
            }
            fields.put(item.substring(0, eq), item.substring(eq + 1));
        }
        return fields;
    }

    /** Writes a state file. */
    @FunctionalInterface
    public interface Write {
        void run() throws IOException;
    }

    /**
     * Writes a change made on this member, which is refused when it cannot be kept.
     *
     * @throws UncheckedIOException saying that {@code what} cannot be written to {@code path}; the caller then keeps
     *                              its state as it was
     */
    public static void writeOrRefuse(Write write, String what, Path path) {
        try {
            write.run();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + what + " to " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes a change another member of a cluster made: it is used even when it cannot be kept (the other members use
     * it), so the failure is returned for the caller to report, not thrown.
     */
    public static Optional<IOException> tryWrite(Write write) {
        try {
            write.run();
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(e);
        }
    }
}
