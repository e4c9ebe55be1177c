package net.beaconcontroller.util;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

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
}
