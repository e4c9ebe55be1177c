package net.beaconcontroller.core.internal;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;

import net.beaconcontroller.core.BeaconSettings;
import net.beaconcontroller.openflow.OFType;

/**
 * Every key of {@code beacon.properties}, and the loader that validates a file against them. One schema for all
 * bundles keeps the typo guard honest: a key nobody reads is reported, whichever bundle it was meant for.
 */
public final class Settings implements BeaconSettings {
    /** System property naming the file; the {@code beacon} script sets it, {@code --config FILE} overrides it. */
    public static final String FILE_PROPERTY = "beacon.properties";

    static final String ORDERING_FAMILY = "controller.callbackOrdering[TYPE]";

    public static final List<Setting> SCHEMA = List.of(
            Setting.ofHost("controller.listenAddress", "0.0.0.0", "Address the OpenFlow listener binds to."),
            Setting.ofInt("controller.listenPort", 6633, 0, 65535, "TCP port switches connect to (0: any free port)."),
            Setting.ofInt("controller.threadCount", 1, 1, 256,
                    "I/O threads; each switch is pinned to the least-loaded one and all its messages run there."),
            Setting.ofBoolean("controller.immediate", false,
                    "Write every message to the socket at once (lowest latency) instead of batching writes per loop."),
            Setting.ofBoolean("controller.noDelay", true, "Set TCP_NODELAY on switch connections."),
            Setting.ofBoolean("controller.deletePreExistingFlows", true,
                    "Delete all flows of a switch (and wait for a barrier) before it becomes active."),
            Setting.ofList(ORDERING_FAMILY, "",
                    "Listener names in the order they see messages of TYPE (an OpenFlow message type such as PACKET_IN);"
                            + " listeners not named follow in registration order."),
            Setting.ofInt("controller.echoInterval", 5, 1, 3600,
                    "Seconds without a message from a switch before an ECHO_REQUEST is sent."),
            Setting.ofInt("controller.echoTimeout", 10, 2, 3600,
                    "Seconds without a message (or an unfinished handshake) before a switch is disconnected."),
            Setting.ofInt("controller.outputBufferLimit", 4 << 20, 1 << 16, 1 << 30,
                    "Bytes queued for one switch before it is disconnected as not reading."),
            Setting.ofInt("learningswitch.idleTimeout", 5, 0, 65535, "Idle timeout (seconds) of the flows it installs."),
            Setting.ofInt("learningswitch.hardTimeout", 0, 0, 65535, "Hard timeout (seconds) of the flows it installs; 0 = none."),
            Setting.ofInt("learningswitch.tableSize", 1 << 20, 16, 1 << 24, "Most MAC addresses remembered per switch."),
            Setting.ofInt("learningswitch.macAge", 300, 1, 86400,
                    "Seconds a learned MAC address is kept without being seen again."));

    private final Map<String, String> values;
    private final String source;

    private Settings(Map<String, String> values, String source) {
        this.values = values;
        this.source = source;
    }

    /** The defaults only, for tests and tools. */
    public static Settings defaults() {
        try {
            return parse(new Properties(), new Properties(), "defaults", w -> { });
        } catch (SettingsException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Reads the file named by the {@value #FILE_PROPERTY} system property (or {@code beacon.properties} in the
     * working directory); system properties with a known key override the file's values.
     */
    public static Settings load(Consumer<String> warn) throws SettingsException {
        var file = Path.of(System.getProperty(FILE_PROPERTY, "beacon.properties"));
        var fromFile = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            fromFile.load(r);
        } catch (NoSuchFileException e) {
            throw new SettingsException(file + ": file not found (set -D" + FILE_PROPERTY + "=FILE or --config FILE)");
        } catch (IOException | IllegalArgumentException e) {
            throw new SettingsException(file + ": cannot be read: " + e.getMessage());
        }
        return parse(fromFile, System.getProperties(), file.toString(), warn);
    }

    static Settings parse(Properties file, Properties overrides, String source, Consumer<String> warn)
            throws SettingsException {
        var values = new LinkedHashMap<String, String>();
        for (String key : file.stringPropertyNames().stream().sorted().toList()) {
            put(values, key, file.getProperty(key), source, warn, true);
        }
        for (String key : overrides.stringPropertyNames().stream().sorted().toList()) {
            if (find(key) != null) {
                put(values, key, overrides.getProperty(key), "system property -D" + key, warn, false);
            }
        }
        int interval = Integer.parseInt(valueOf(values, "controller.echoInterval"));
        int timeout = Integer.parseInt(valueOf(values, "controller.echoTimeout"));
        if (timeout <= interval) {
            throw new SettingsException(source + ": controller.echoTimeout = '" + timeout
                    + "' is not allowed: it must be greater than controller.echoInterval (" + interval + ")");
        }
        return new Settings(values, source);
    }

    private static void put(Map<String, String> values, String key, String raw, String source, Consumer<String> warn,
            boolean typoGuard) throws SettingsException {
        Setting s = find(key);
        if (s == null) {
            if (typoGuard) {
                warn.accept(source + ": unknown key '" + key + "' is ignored" + suggestion(key));
            }
            return;
        }
        String v = s.check(raw);
        if (v == null) {
            throw new SettingsException(source + ": " + key + " = '" + raw.trim() + "' is not allowed: expected "
                    + s.allowed());
        }
        values.put(key, v);
    }

    /** The schema entry for a key, resolving the {@code controller.callbackOrdering[TYPE]} family. */
    static Setting find(String key) {
        for (Setting s : SCHEMA) {
            if (s.key().equals(key) && !key.equals(ORDERING_FAMILY)) {
                return s;
            }
        }
        if (key.startsWith("controller.callbackOrdering[") && key.endsWith("]")) {
            String type = key.substring("controller.callbackOrdering[".length(), key.length() - 1);
            if (Arrays.stream(OFType.values()).anyMatch(t -> t.name().equals(type))) {
                return SCHEMA.stream().filter(s -> s.key().equals(ORDERING_FAMILY)).findFirst().orElseThrow();
            }
        }
        return null;
    }

    private static String suggestion(String key) {
        String lower = key.toLowerCase(Locale.ROOT);
        var close = new ArrayList<String>();
        for (Setting s : SCHEMA) {
            String k = s.key();
            if (k.toLowerCase(Locale.ROOT).equals(lower) || distance(k.toLowerCase(Locale.ROOT), lower) <= 2) {
                close.add(k);
            }
        }
        return close.isEmpty() ? "" : " (did you mean " + String.join(" or ", close) + "?)";
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static String valueOf(Map<String, String> values, String key) {
        String v = values.get(key);
        if (v != null) {
            return v;
        }
        Setting s = find(key);
        if (s == null) {
            throw new IllegalArgumentException("no such setting: " + key);
        }
        return s.defaultValue();
    }

    @Override
    public int getInt(String key) {
        return Integer.parseInt(valueOf(values, key));
    }

    @Override
    public boolean getBoolean(String key) {
        return Boolean.parseBoolean(valueOf(values, key));
    }

    @Override
    public String getString(String key) {
        return valueOf(values, key);
    }

    @Override
    public List<String> getList(String key) {
        String v = valueOf(values, key);
        return v.isEmpty() ? List.of() : List.of(v.split(","));
    }

    @Override
    public String source() {
        return source;
    }
}
