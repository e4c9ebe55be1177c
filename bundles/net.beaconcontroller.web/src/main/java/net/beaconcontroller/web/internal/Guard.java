package net.beaconcontroller.web.internal;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Decides whether a request may go on, before any controller sees it: the {@code Host} it names (a name of this
 * server only: a page on a rebinding domain cannot reach the API through the browser), the form of the request (a
 * query that decodes as UTF-8, a charset Java knows, multipart bodies only where a jar is uploaded: what Spring and
 * Jetty would otherwise fail on deep inside with a 500), the declared body size (uploads have their own limit; the
 * bytes actually read are counted by {@link Front}), the same-origin rule for requests that change something, and,
 * when the server is reachable from other machines, HTTP Basic authentication for those requests and for bundle
 * management. A request changes something
 * when its method is not GET, HEAD or OPTIONS, or when it is one of Floodlight's GETs that clear (static flows, ACL
 * rules), which are refused unless {@code getClear} (web.floodlightGetClear) lets Floodlight's scripts use them.
 *
 * @param hosts       the host names and addresses this server answers to, lower case, IPv6 without brackets;
 *                    empty for any
 * @param credentials the user name and password hash; {@code null} when bound to loopback only, where no one
 *                    but local users can connect
 */
record Guard(long maxBody, long maxUpload, Credentials credentials, Set<String> hosts, boolean getClear) {
    record Credentials(String user, PasswordHash password) {
    }

    /** Why a request is refused: an HTTP status and a message for the user. */
    record Refusal(int status, String message) {
    }

    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS");
    /** Floodlight's GETs that change state: the static flow pusher's clear and the ACL's. */
    private static final List<String> GET_CLEARS = List.of("/wm/staticflowpusher/clear/", "/wm/acl/clear/");
    /** The only endpoints that take a multipart body: a bundle's jar, installed or updated. */
    private static final String UPLOADS = "/wm/beacon/bundles/";

    /** @return the refusal, or {@code null} to let the request through */
    Refusal check(HttpServletRequest req) {
        var host = hostName(req.getServerName());
        if (!hosts.isEmpty() && !hosts.contains(host)) {
            return new Refusal(403, "Host '" + req.getServerName() + "' is not a name of this server (web.hostNames):"
                    + " refused, as a page on another domain could be reaching it through DNS rebinding");
        }
        var malformed = malformed(req);
        if (malformed != null) {
            return malformed;
        }
        long length = req.getContentLengthLong();
        boolean upload = isMultipart(req);
        long limit = upload ? maxUpload : maxBody;
        if (length > limit) {
            return new Refusal(413, "request body of " + length + " bytes is over the limit of " + limit
                    + (upload ? " (web.maxUploadMiB)" : " (web.maxRequestKiB)"));
        }
        boolean getClear = SAFE.contains(req.getMethod())
                && GET_CLEARS.stream().anyMatch(req.getRequestURI()::startsWith);
        if (getClear && !this.getClear) {
            return new Refusal(405, "GET " + req.getRequestURI() + " would change state: use POST or DELETE (or set"
                    + " web.floodlightGetClear=true for Floodlight's scripts)");
        }
        boolean mutating = !SAFE.contains(req.getMethod()) || getClear;
        if (mutating) {
            var crossSite = crossSite(req);
            if (crossSite != null) {
                return new Refusal(403, crossSite);
            }
        }
        if (credentials != null && (mutating || req.getRequestURI().startsWith("/wm/beacon/bundles"))
                && !authenticated(req.getHeader("Authorization"))) {
            return new Refusal(401, "authentication required (HTTP Basic, user set by web.user)");
        }
        return null;
    }

    static boolean isMultipart(HttpServletRequest req) {
        var type = req.getHeader("Content-Type");
        return type != null && type.strip().regionMatches(true, 0, "multipart/", 0, 10);
    }

    /** A request Spring or Jetty could not read: its query, its body's charset, a multipart body where none belongs. */
    private static Refusal malformed(HttpServletRequest req) {
        var query = req.getQueryString();
        if (query != null && !decodes(query)) {
            return new Refusal(400, "malformed query string: expected percent-encoded UTF-8 (%XX with two hex digits)");
        }
        var type = req.getHeader("Content-Type");
        if (type == null) {
            return null;
        }
        var charset = charset(type);
        if (charset != null && !supported(charset)) {
            return new Refusal(415, "unknown charset '" + charset + "' in Content-Type: send UTF-8");
        }
        if (isMultipart(req) && !req.getRequestURI().startsWith(UPLOADS)) {
            return new Refusal(415, "a multipart body is taken only by bundle uploads (" + UPLOADS + "...):"
                    + " send JSON here");
        }
        return null;
    }

    /** The charset parameter of a Content-Type, without quotes; {@code null} when there is none. */
    private static String charset(String contentType) {
        for (var param : contentType.split(";")) {
            int eq = param.indexOf('=');
            if (eq > 0 && param.substring(0, eq).strip().equalsIgnoreCase("charset")) {
                var value = param.substring(eq + 1).strip();
                return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                        ? value.substring(1, value.length() - 1) : value;
            }
        }
        return null;
    }

    private static boolean supported(String charset) {
        try {
            return Charset.isSupported(charset);
        } catch (IllegalCharsetNameException e) {
            return false;
        }
    }

    /** Whether every {@code %XX} is two hex digits and the bytes they make are UTF-8. */
    static boolean decodes(String query) {
        var bytes = ByteBuffer.allocate(query.length());
        for (int i = 0; i < query.length(); i++) {
            char c = query.charAt(i);
            if (c != '%') {
                if (c > 0x7f) {
                    return false;
                }
                bytes.put((byte) c);
                continue;
            }
            if (i + 2 >= query.length() || !HexFormat.isHexDigit(query.charAt(i + 1))
                    || !HexFormat.isHexDigit(query.charAt(i + 2))) {
                return false;
            }
            bytes.put((byte) HexFormat.fromHexDigits(query, i + 1, i + 3));
            i += 2;
        }
        try {
            StandardCharsets.UTF_8.newDecoder().decode(bytes.flip());
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /**
     * Browsers send {@code Origin} (and {@code Sec-Fetch-Site}) with every cross-site POST, PUT and DELETE; scripts
     * such as curl send neither, so they pass.
     */
    private String crossSite(HttpServletRequest req) {
        if ("cross-site".equals(req.getHeader("Sec-Fetch-Site"))) {
            return "cross-site request refused";
        }
        var origin = req.getHeader("Origin");
        if (origin == null) {
            return null;
        }
        try {
            var uri = URI.create(origin);
            int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
            // The page's own server: one of its names (not merely what Host says, which a rebinding page sets) and
            // the port the request came in on.
            if (uri.getHost() != null && (hosts.isEmpty() ? hostName(uri.getHost()).equals(hostName(req.getServerName()))
                    : hosts.contains(hostName(uri.getHost()))) && port == req.getLocalPort()) {
                return null;
            }
        } catch (IllegalArgumentException e) {
            // An Origin that is no URI is no origin of ours.
        }
        return "cross-site request refused: Origin " + origin + " is not this server";
    }

    /** Lower case, an IPv6 literal without its brackets. */
    static String hostName(String host) {
        var h = host.toLowerCase(java.util.Locale.ROOT);
        return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
    }

    private boolean authenticated(String header) {
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return false;
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
        int colon = decoded.indexOf(':');
        return colon > 0 && decoded.substring(0, colon).equals(credentials.user())
                && credentials.password().matches(decoded.substring(colon + 1).toCharArray());
    }
}
