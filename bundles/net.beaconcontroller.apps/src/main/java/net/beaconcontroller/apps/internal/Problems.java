package net.beaconcontroller.apps.internal;

import java.util.Optional;
import java.util.regex.Pattern;

import org.osgi.framework.BundleException;

/**
 * The one line a user reads when an app jar cannot be installed or started. The framework's own text is several
 * lines long and its first line names only the module ("Could not resolve module: myapp [57]"); what the user can act
 * on is the requirement nobody provides, or what the activator threw.
 */
final class Problems {
    /** Equinox lists the first unresolved requirement of the bundle itself before those of what it depends on. */
    private static final Pattern UNRESOLVED = Pattern.compile("Unresolved requirement: ([\\w-]+): ([^\\r\\n]*)");

    private Problems() {
    }

    /** What went wrong with {@code e}, in one line, without the jar's name (the caller puts it in front). */
    static String of(BundleException e) {
        String message = firstLine(e.getMessage());
        switch (e.getType()) {
            case BundleException.RESOLVE_ERROR:
                return unresolved(e.getMessage()).orElse("cannot resolve: " + message);
            case BundleException.ACTIVATOR_ERROR:
                return "its activator failed: " + describe(root(e));
            case BundleException.DUPLICATE_BUNDLE_ERROR:
                return "another bundle has the same name and version: " + message;
            case BundleException.MANIFEST_ERROR:
                return "not a valid bundle: " + message;
            default:
                // The framework's own text here is generic ("Error occurred installing a bundle."): the cause says why.
                return e.getCause() != null ? describe(root(e)) : message;
        }
    }

    private static Optional<String> unresolved(String message) {
        var m = UNRESOLVED.matcher(message == null ? "" : message);
        if (!m.find()) {
            return Optional.empty();
        }
        String header = m.group(1);
        String requirement = m.group(2).strip();
        return Optional.of(switch (header) {
            case "Import-Package" -> "missing package " + requirement;
            case "Require-Bundle" -> "missing bundle " + requirement;
            default -> "unresolved " + header + ": " + requirement;
        });
    }

    private static Throwable root(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    static String describe(Throwable t) {
        String message = firstLine(t.getMessage());
        return message.isEmpty() ? t.getClass().getName() : t.getClass().getName() + ": " + message;
    }

    private static String firstLine(String text) {
        return text == null ? "" : text.strip().lines().findFirst().orElse("").strip();
    }
}
