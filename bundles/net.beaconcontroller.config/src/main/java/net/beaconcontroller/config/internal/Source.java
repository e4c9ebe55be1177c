package net.beaconcontroller.config.internal;

import java.nio.file.Path;

/**
 * Where a value came from. {@code prefix} starts every message about the value ("the file path", "system property
 * -Dkey", "console"); {@code listing} is the short form {@code beacon:config} shows ("beacon.properties:12", "-D").
 */
record Source(String prefix, String listing) {
    static final Source DEFAULT = new Source("default", "default");
    static final Source CONSOLE = new Source("console", "console");

    static Source file(Path file, int line) {
        return new Source(file.toString(), file.getFileName() + ":" + line);
    }

    static Source systemProperty(String key) {
        return new Source("system property -D" + key, "-D");
    }
}
