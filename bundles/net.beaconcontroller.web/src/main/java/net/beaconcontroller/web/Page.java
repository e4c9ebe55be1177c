package net.beaconcontroller.web;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A page of the web UI that a bundle contributes through {@link IWebManageable#pages()}: an entry in the navigation
 * and a JavaScript module that draws it. The module is a resource of the contributing bundle; it exports
 * {@code render(element, ui)} and may return a function that the UI calls when the user leaves the page. It talks to
 * Beacon only through the REST API and its server push, so whatever the page shows a script can read too.
 *
 * @param id     the page's address in the UI ({@code #/<id>}) and its module's ({@code /ui/pages/<id>.js}): lower-case
 *               letters, digits and dashes
 * @param title  the navigation entry
 * @param order  the entry's place: lower first (the platform's overview is 10, its bundles page 90)
 * @param script the module's path inside the contributing bundle, e.g. {@code ui/switches.js}
 */
public record Page(String id, String title, int order, String script) {
    private static final Pattern ID = Pattern.compile("[a-z][a-z0-9-]{0,31}");

    public Page {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(script, "script");
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("page id '" + id + "': expected lower-case letters, digits and dashes");
        }
    }
}
