package net.beaconcontroller.config.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The raw values in their layers, later ones winning: the file, then {@code -Dkey=value} system properties (only for
 * keys a metatype declares: the JVM's own properties are not settings), then values set on the console.
 */
final class SettingStore {
    private volatile List<RawSetting> file;
    private final Map<String, RawSetting> systemProperties = new LinkedHashMap<>();
    private final Map<String, RawSetting> console = new ConcurrentHashMap<>();

    SettingStore(List<RawSetting> file, Properties system) {
        this.file = List.copyOf(file);
        for (String key : system.stringPropertyNames().stream().sorted().toList()) {
            if (SettingKey.parse(key).isPresent()) {
                systemProperties.put(key, new RawSetting(key, system.getProperty(key), Source.systemProperty(key)));
            }
        }
    }

    List<RawSetting> fileSettings() {
        return file;
    }

    /** The file as it reads now: a bundle installed later takes its keys from the file as it is then. */
    void replaceFile(List<RawSetting> now) {
        file = List.copyOf(now);
    }

    /** The effective value of every key given for {@code pid}, whatever its layer. */
    List<RawSetting> forPid(String pid, PidSpec spec) {
        var byKey = new LinkedHashMap<String, RawSetting>();
        for (var s : file) {
            if (belongs(s.key(), pid)) {
                byKey.put(s.key(), s);
            }
        }
        for (var s : systemProperties.values()) {
            if (belongs(s.key(), pid) && spec.attribute(SettingKey.parse(s.key()).orElseThrow().attribute()) != null) {
                byKey.put(s.key(), s);
            }
        }
        for (var s : console.values()) {
            if (belongs(s.key(), pid)) {
                byKey.put(s.key(), s);
            }
        }
        return new ArrayList<>(byKey.values());
    }

    private static boolean belongs(String key, String pid) {
        return SettingKey.parse(key).map(k -> k.pid().equals(pid)).orElse(false);
    }

    /** Sets (or with {@code null}, forgets) a console value; returns the one it replaced. */
    Optional<RawSetting> setConsole(String key, String value) {
        RawSetting old = value == null ? console.remove(key)
                : console.put(key, new RawSetting(key, value, Source.CONSOLE));
        return Optional.ofNullable(old);
    }

    /** Restores a console value as {@link #setConsole} returned it. */
    void restoreConsole(String key, Optional<RawSetting> previous) {
        previous.ifPresentOrElse(p -> console.put(key, p), () -> console.remove(key));
    }
}
