package net.beaconcontroller.core.internal;

import java.util.Arrays;

/**
 * One key of {@code beacon.properties}: its type, default and allowed values. {@link #check} turns a raw text into
 * the value or a message saying what is allowed.
 */
record Setting(String key, Kind kind, String defaultValue, long min, long max, String description) {

    enum Kind { INT, BOOLEAN, HOST, LIST }

    static Setting ofInt(String key, int def, long min, long max, String description) {
        return new Setting(key, Kind.INT, Integer.toString(def), min, max, description);
    }

    static Setting ofBoolean(String key, boolean def, String description) {
        return new Setting(key, Kind.BOOLEAN, Boolean.toString(def), 0, 0, description);
    }

    static Setting ofHost(String key, String def, String description) {
        return new Setting(key, Kind.HOST, def, 0, 0, description);
    }

    static Setting ofList(String key, String def, String description) {
        return new Setting(key, Kind.LIST, def, 0, 0, description);
    }

    /** What a user may write, as the error message shows it. */
    String allowed() {
        return switch (kind) {
            case INT -> "an integer from " + min + " to " + max;
            case BOOLEAN -> "true or false";
            case HOST -> "an IP address or host name";
            case LIST -> "a comma-separated list of names";
        };
    }

    /** @return the value in canonical form, or {@code null} when {@code raw} is not allowed */
    String check(String raw) {
        String v = raw.trim();
        return switch (kind) {
            case INT -> {
                try {
                    long n = Long.parseLong(v);
                    yield n >= min && n <= max ? Long.toString(n) : null;
                } catch (NumberFormatException e) {
                    yield null;
                }
            }
            case BOOLEAN -> v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false") ? v.toLowerCase() : null;
            case HOST -> isHost(v) ? v : null;
            case LIST -> {
                var items = Arrays.stream(v.split(",")).map(String::trim).filter(n -> !n.isEmpty()).toList();
                yield items.stream().allMatch(Setting::isName) ? String.join(",", items) : null;
            }
        };
    }

    /** An IPv4 literal, an IPv6 literal, or a host name by RFC 1123 (letters, digits, inner hyphens). */
    private static boolean isHost(String s) {
        if (s.indexOf(':') >= 0) {
            return s.matches("[0-9A-Fa-f:.]+") && s.chars().filter(c -> c == ':').count() >= 2;
        }
        if (s.matches("[0-9.]+")) {
            var parts = s.split("\\.", -1);
            return parts.length == 4 && Arrays.stream(parts)
                    .allMatch(p -> !p.isEmpty() && p.length() <= 3 && Integer.parseInt(p) <= 255);
        }
        return s.length() <= 253 && Arrays.stream(s.split("\\.", -1))
                .allMatch(l -> l.matches("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"));
    }

    private static boolean isName(String s) {
        return s.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-');
    }
}
