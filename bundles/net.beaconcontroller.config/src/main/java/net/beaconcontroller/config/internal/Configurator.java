package net.beaconcontroller.config.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import net.beaconcontroller.config.ISettings;
import net.beaconcontroller.config.Setting;

/**
 * The settings logic, free of OSGi: which PIDs the installed bundles declare, the values given for them, feeding
 * valid configurations to a {@link ConfigSink}, and the {@code beacon:config} commands.
 */
final class Configurator {
    /** What listings and answers show for a password that is set. */
    static final String HIDDEN = "(hidden)";
    private final Path file;
    private final SettingStore store;
    private final ConfigSink sink;
    private final ComponentWatch watch;
    private final Duration timeout;
    /** PID → its spec, and bundle id → the PIDs it declares; guarded by {@code this}. */
    private final Map<String, PidSpec> specs = new LinkedHashMap<>();
    private final Map<Long, List<String>> pidsByBundle = new HashMap<>();

    Configurator(Path file, SettingStore store, ConfigSink sink, ComponentWatch watch, Duration timeout) {
        this.file = file;
        this.store = store;
        this.sink = sink;
        this.watch = watch;
        this.timeout = timeout;
    }

    /** Takes the file's current contents for the bundles configured from now on. */
    void reloadFile(List<RawSetting> now) {
        store.replaceFile(now);
    }

    /** A bundle's PIDs appeared (installed, resolved or updated): configure each. */
    synchronized List<Problem> addBundle(long bundleId, List<PidSpec> pids) {
        var problems = new ArrayList<Problem>();
        pidsByBundle.put(bundleId, pids.stream().map(PidSpec::pid).toList());
        for (var spec : pids) {
            specs.put(spec.pid(), spec);
            problems.addAll(feed(spec));
        }
        return problems;
    }

    /** A bundle went away: its keys are no longer known (its configurations stay, for an update). */
    synchronized void removeBundle(long bundleId) {
        var pids = pidsByBundle.remove(bundleId);
        if (pids != null) {
            pids.forEach(specs::remove);
        }
    }

    private List<Problem> feed(PidSpec spec) {
        var v = Validation.of(spec, store.forPid(spec.pid(), spec));
        try {
            if (v.valid()) {
                sink.apply(spec.pid(), v.properties());
            } else {
                sink.remove(spec.pid());
            }
        } catch (IOException e) {
            throw new IllegalStateException("configuration admin failed for " + spec.pid() + ": " + e.getMessage(), e);
        }
        return v.problems();
    }

    /** The configuration a PID's components should have now (for waiting until they have it). */
    synchronized Map<String, Object> expected(String pid) {
        return specs.containsKey(pid) ? validate(pid).asMap() : Map.of();
    }

    private synchronized Validation validate(String pid) {
        var spec = specs.get(pid);
        return Validation.of(spec, store.forPid(pid, spec));
    }

    synchronized List<String> pids(long bundleId) {
        return pidsByBundle.getOrDefault(bundleId, List.of());
    }

    synchronized List<String> allPids() {
        return List.copyOf(specs.keySet());
    }

    /** Every key the metatypes declare, {@code <pid>.<attribute>}. */
    synchronized List<String> knownKeys() {
        var keys = new ArrayList<String>();
        specs.values().forEach(s -> s.attributes().keySet().forEach(a -> keys.add(s.pid() + "." + a)));
        return keys;
    }

    private synchronized Optional<AttributeSpec> attribute(SettingKey key) {
        var spec = specs.get(key.pid());
        var attribute = spec == null ? null : spec.attribute(key.attribute());
        if (attribute == null || (key.isFamily() && !attribute.acceptsElements())) {
            return Optional.empty();
        }
        return Optional.of(attribute);
    }

    /** Warnings for the file's keys that no installed bundle declares. */
    List<String> unknownKeys() {
        var known = knownKeys();
        var warnings = new ArrayList<String>();
        for (var s : store.fileSettings()) {
            var key = SettingKey.parse(s.key());
            if (key.isEmpty() || attribute(key.get()).isEmpty()) {
                warnings.add(s.source().prefix() + ": unknown key '" + s.key() + "' is ignored"
                        + Suggestions.forKey(s.key(), known));
            }
        }
        return warnings;
    }

    /** Where a key's effective value came from (its message prefix); the file for a key left at its default. */
    synchronized String sourceOf(String key) {
        return effective(key).map(s -> s.source().prefix()).orElse(file.toString());
    }

    private synchronized Optional<RawSetting> effective(String key) {
        var k = SettingKey.parse(key);
        var spec = k.map(x -> specs.get(x.pid())).orElse(null);
        if (spec == null) {
            return Optional.empty();
        }
        return store.forPid(spec.pid(), spec).stream().filter(s -> s.key().equals(key)).findFirst();
    }

    /** Every declared setting, with its value, default and where the value came from; family keys by name. */
    synchronized List<Setting> settings() {
        var all = new ArrayList<Setting>();
        for (var spec : specs.values().stream().sorted(Comparator.comparing(PidSpec::pid)).toList()) {
            var given = store.forPid(spec.pid(), spec);
            for (var attribute : spec.attributes().values()) {
                String key = spec.pid() + "." + attribute.id();
                all.add(setting(key, attribute, given.stream().filter(s -> s.key().equals(key)).findFirst()));
                given.stream().filter(s -> s.key().startsWith(key + "[")).sorted(Comparator.comparing(RawSetting::key))
                        .forEach(s -> all.add(setting(s.key(), attribute, Optional.of(s))));
            }
        }
        return all;
    }

    /** What a listing or an answer shows for a value: a password's is hidden unless it is empty. */
    private static String shown(AttributeSpec attribute, String value) {
        return attribute.secret() && !value.isBlank() ? HIDDEN : value.trim();
    }

    /** One declared setting (a family key by its full name). */
    Optional<Setting> setting(String key) {
        return SettingKey.parse(key).flatMap(this::attribute).map(a -> setting(key, a, effective(key)));
    }

    private static Setting setting(String key, AttributeSpec attribute, Optional<RawSetting> given) {
        return new Setting(key, given.map(s -> shown(attribute, s.value())).orElse(attribute.defaultText()),
                attribute.defaultText(), given.map(s -> s.source().listing()).orElse(Source.DEFAULT.listing()),
                attribute.allowed(), attribute.description());
    }

    /** {@code beacon:config}: every declared setting, with its value, default and where the value came from. */
    synchronized String list() {
        var rows = new ArrayList<String[]>();
        rows.add(new String[] {"KEY", "VALUE", "DEFAULT", "SOURCE"});
        settings().forEach(s -> rows.add(new String[] {s.key(), s.value(), s.defaultValue(), s.source()}));
        return table(rows) + specs.size() + " configuration(s), " + (rows.size() - 1) + " setting(s)";
    }

    private static String table(List<String[]> rows) {
        int[] width = new int[rows.get(0).length];
        rows.forEach(r -> {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        });
        var sb = new StringBuilder();
        for (var r : rows) {
            for (int i = 0; i < r.length; i++) {
                sb.append(i == r.length - 1 ? r[i] : String.format("%-" + width[i] + "s  ", r[i]));
            }
            sb.append(System.lineSeparator());
        }
        return sb.toString();
    }

    /** {@code beacon:config get KEY}. */
    String get(String key) {
        return setting(key).map(s -> key + " = " + s.value() + " (" + s.source() + ", default " + s.defaultValue()
                + ", allowed: " + s.allowed() + ")").orElseGet(() -> unknown(key));
    }

    private String unknown(String key) {
        return Source.CONSOLE.prefix() + ": unknown key '" + key + "'" + Suggestions.forKey(key, knownKeys());
    }

    /**
     * {@code beacon:config set KEY VALUE [--save]}: checks the value, hands it to the component, waits until the
     * component took it, and with {@code save} writes it into the file. A value the component rejects is undone.
     */
    ISettings.Outcome set(String key, String value, boolean save) throws InterruptedException {
        var k = SettingKey.parse(key);
        if (k.flatMap(this::attribute).isEmpty()) {
            return refused(unknown(key));
        }
        String pid = k.get().pid();
        var attribute = k.flatMap(this::attribute).get();
        var previous = store.setConsole(key, value);
        var problems = validate(pid).problems();
        if (!problems.isEmpty()) {
            // Checked before anything is applied: the component keeps its configuration.
            store.restoreConsole(key, previous);
            return refused(problems.stream().filter(p -> p.key().equals(key)).findFirst().orElse(problems.get(0))
                    .line());
        }
        apply(pid);
        var outcome = watch.await(pid, expected(pid), timeout);
        String result = switch (outcome.result()) {
            case APPLIED -> outcome.modifiable() ? "applied live"
                    : "applied by restarting component " + outcome.component();
            case NO_COMPONENT -> "stored; no enabled component uses " + pid + " now";
            case TIMEOUT -> "stored; component " + outcome.component() + " did not take it within "
                    + timeout.toSeconds() + " s";
            case FAILED -> null;
        };
        if (result == null) {
            String line = Failures.line(outcome.component(), outcome.failure(), this::sourceOf);
            store.restoreConsole(key, previous);
            apply(pid);
            watch.await(pid, expected(pid), timeout);
            return refused(line + System.lineSeparator() + key + " is back to "
                    + effective(key).map(s -> "'" + shown(attribute, s.value()) + "'").orElse("its default"));
        }
        if (save) {
            try {
                result += "; saved to " + file + ":" + SettingsFile.save(file, key, value);
            } catch (IOException e) {
                result += "; NOT saved: " + file + ": " + e.getMessage();
            }
        }
        return new ISettings.Outcome(true, key + " = " + shown(attribute, value) + ": " + result);
    }

    private static ISettings.Outcome refused(String why) {
        return new ISettings.Outcome(false, why);
    }

    private synchronized List<Problem> apply(String pid) {
        return feed(specs.get(pid));
    }
}
