package net.beaconcontroller.config.internal;

import java.util.function.Function;
import java.util.regex.Pattern;

import net.beaconcontroller.config.SettingException;

/**
 * Turns Declarative Services' failure text (the stack trace of what {@code @Activate} threw) into the one line users
 * see: a {@link SettingException} becomes the usual setting line with the key's source in front; anything else names
 * the component and the first message in the chain that says more than the name of the exception it wraps.
 */
final class Failures {
    private static final Pattern SETTING = Pattern.compile(
            "(?m)^(?:Caused by: )?" + Pattern.quote(SettingException.class.getName())
                    + ": (\\S+) = '(.*)' is not allowed: (.*)$");
    /** The first line of a trace and each "Caused by:" line: an exception class and its message. */
    private static final Pattern EXCEPTION = Pattern.compile("(?m)^(?:Caused by: )?([\\w.$]+)(?:: (.*))?$");
    /** A message that only repeats a wrapped exception, as {@code new RuntimeException(cause)} makes. */
    private static final Pattern WRAPPER = Pattern.compile("[\\w.$]+(?:Exception|Error)(?:: .*)?");

    private Failures() {
    }

    /** @param sourceOf where the value of a key came from (its message prefix) */
    static String line(String component, String failure, Function<String, String> sourceOf) {
        String text = failure == null ? "" : failure;
        var m = SETTING.matcher(text);
        if (m.find()) {
            return new Problem(sourceOf.apply(m.group(1)), m.group(1), m.group(2), m.group(3).strip()).line();
        }
        String said = text.lines().findFirst().orElse("unknown failure").strip();
        var e = EXCEPTION.matcher(text);
        while (e.find()) {
            String message = e.group(2);
            if (message != null && !message.isBlank() && !WRAPPER.matcher(message.strip()).matches()) {
                said = message.strip();
                break;
            }
        }
        return "component " + component + " failed to activate: " + said;
    }
}
