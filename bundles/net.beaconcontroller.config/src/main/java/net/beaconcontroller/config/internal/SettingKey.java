package net.beaconcontroller.config.internal;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A {@code beacon.properties} key split the way Configuration Admin needs it: {@code <pid>.<attribute>} or the
 * indexed family form {@code <pid>.<attribute>[<element>]}, which supplies one element {@code "<element>=<value>"} of a
 * multi-valued text attribute. The PID is the part before the first dot, so a bundle owns every key under its prefix.
 *
 * @param element the family index, or {@code null} for a plain key
 */
record SettingKey(String pid, String attribute, String element) {
    private static final Pattern PID = Pattern.compile("[A-Za-z_][\\w-]*");
    private static final Pattern KEY =
            Pattern.compile("([A-Za-z_][\\w-]*)\\.([A-Za-z_][\\w.$-]*?)(?:\\[([\\w.-]+)\\])?");

    static Optional<SettingKey> parse(String key) {
        var m = KEY.matcher(key);
        return m.matches() ? Optional.of(new SettingKey(m.group(1), m.group(2), m.group(3))) : Optional.empty();
    }

    /** Whether keys can name this PID: it must be a key prefix, without dots. */
    static boolean addressable(String pid) {
        return PID.matcher(pid).matches();
    }

    boolean isFamily() {
        return element != null;
    }

    /** {@code <pid>.<attribute>}, without a family index: the key the metatype declares. */
    String declared() {
        return pid + "." + attribute;
    }

    @Override
    public String toString() {
        return isFamily() ? declared() + "[" + element + "]" : declared();
    }
}
