package net.beaconcontroller.config.internal;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
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
    /** What Felix SCR says of a component whose static reference's service failed to activate. */
    private static final String MISSING_SERVICE = "Unable to get service for reference";

    private Failures() {
    }

    /**
     * The failure to tell when several components failed: one that rejected its settings first (the cause users can
     * act on), then any other, and last one that only could not get a service, since that is what the failure of the
     * component providing the service looks like to those that use it.
     */
    static Optional<ComponentWatch.Failure> first(List<ComponentWatch.Failure> failures) {
        return failures.stream().min(Comparator.comparingInt(f -> rank(f.failure())));
    }

    private static int rank(String failure) {
        String text = failure == null ? "" : failure;
        if (SETTING.matcher(text).find()) {
            return 0;
        }
        return text.contains(MISSING_SERVICE) ? 2 : 1;
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
