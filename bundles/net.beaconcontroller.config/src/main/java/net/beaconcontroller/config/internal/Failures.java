package net.beaconcontroller.config.internal;

import java.util.function.Function;
import java.util.regex.Pattern;

import net.beaconcontroller.config.SettingException;

/**
 * Turns Declarative Services' failure text (the stack trace of what {@code @Activate} threw) into the one line users
 * see: a {@link SettingException} becomes the usual setting line with the key's source in front; anything else names
 * the component and the innermost cause.
 */
final class Failures {
    private static final Pattern SETTING = Pattern.compile(
            "(?m)^(?:Caused by: )?" + Pattern.quote(SettingException.class.getName())
                    + ": (\\S+) = '(.*)' is not allowed: (.*)$");
    private static final Pattern CAUSE = Pattern.compile("(?m)^Caused by: (.*)$");

    private Failures() {
    }

    /** @param sourceOf where the value of a key came from (its message prefix) */
    static String line(String component, String failure, Function<String, String> sourceOf) {
        String text = failure == null ? "" : failure;
        var m = SETTING.matcher(text);
        if (m.find()) {
            return new Problem(sourceOf.apply(m.group(1)), m.group(1), m.group(2), m.group(3).strip()).line();
        }
        String cause = text.lines().findFirst().orElse("unknown failure");
        var c = CAUSE.matcher(text);
        while (c.find()) {
            cause = c.group(1);
        }
        return "component " + component + " failed to activate: " + cause.strip();
    }
}
