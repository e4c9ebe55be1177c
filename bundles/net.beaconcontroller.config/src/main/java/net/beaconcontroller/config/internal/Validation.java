package net.beaconcontroller.config.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks the keys given for one PID against its metatype and builds the dictionary for Configuration Admin. Keys
 * that are not set are left out, so the component's annotation defaults apply.
 *
 * @param properties the configuration, valid only when {@code problems} is empty
 */
record Validation(Hashtable<String, Object> properties, List<Problem> problems) {

    /** @param settings the effective raw values whose keys belong to {@code spec}'s PID (unknown ones are skipped) */
    static Validation of(PidSpec spec, List<RawSetting> settings) {
        var properties = new Hashtable<String, Object>();
        var problems = new ArrayList<Problem>();
        // Family elements are collected per attribute, ordered by element name, and join the plain list value.
        var families = new LinkedHashMap<String, TreeMap<String, RawSetting>>();
        for (var raw : settings.stream().sorted(Comparator.comparing(RawSetting::key)).toList()) {
            var key = SettingKey.parse(raw.key()).orElse(null);
            var attribute = key == null ? null : spec.attribute(key.attribute());
            if (attribute == null || !key.pid().equals(spec.pid())) {
                continue;
            }
            if (key.isFamily()) {
                if (attribute.acceptsElements()) {
                    families.computeIfAbsent(key.attribute(), a -> new TreeMap<>()).put(key.element(), raw);
                }
                continue;
            }
            attribute.convert(raw.value()).ifPresentOrElse(v -> properties.put(attribute.id(), v),
                    () -> problems.add(Problem.expected(raw.source(), raw.key(), raw.value(), attribute.allowed())));
        }
        for (var family : families.entrySet()) {
            var attribute = spec.attribute(family.getKey());
            var elements = new ArrayList<String>(plainElements(properties.get(attribute.id())));
            for (var element : family.getValue().entrySet()) {
                String item = element.getKey() + "=" + element.getValue().value().trim();
                if (attribute.convertElements(List.of(item)).isEmpty()) {
                    var raw = element.getValue();
                    problems.add(Problem.expected(raw.source(), raw.key(), raw.value(), attribute.allowed()));
                }
                elements.add(item);
            }
            attribute.convertElements(elements).ifPresent(v -> properties.put(attribute.id(), v));
        }
        return new Validation(properties, List.copyOf(problems));
    }

    private static List<String> plainElements(Object value) {
        return value instanceof String[] items ? List.of(items) : List.of();
    }

    boolean valid() {
        return problems.isEmpty();
    }

    /** The properties as a plain map, for comparing with what a component received. */
    Map<String, Object> asMap() {
        return Map.copyOf(properties);
    }
}
