package net.beaconcontroller.web.internal;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Decides whether a request may go on, before any controller sees it: the {@code Host} it names (a name of this
 * server only: a page on a rebinding domain cannot reach the API through the browser), the body-size limits (uploads
 * have their own), the same-origin rule for requests that change something, and, when the server is reachable from
 * other machines, HTTP Basic authentication for those requests and for bundle management. A request changes something
 * when its method is not GET, HEAD or OPTIONS, or when it is Floodlight's GET that clears static flows, which is
 * refused unless {@code getClear} (web.floodlightGetClear) lets Floodlight's scripts use it.
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
    /** Floodlight's one GET that changes state. */
    private static final String GET_CLEAR = "/wm/staticflowpusher/clear/";

    /** @return the refusal, or {@code null} to let the request through */
    Refusal check(HttpServletRequest req) {
        var host = hostName(req.getServerName());
        if (!hosts.isEmpty() && !hosts.contains(host)) {
            return new Refusal(403, "Host '" + req.getServerName() + "' is not a name of this server (web.hostNames):"
                    + " refused, as a page on another domain could be reaching it through DNS rebinding");
        }
        long length = req.getContentLengthLong();
        var type = req.getContentType();
        boolean upload = type != null && type.regionMatches(true, 0, "multipart/", 0, 10);
        long limit = upload ? maxUpload : maxBody;
        if (length > limit) {
            return new Refusal(413, "request body of " + length + " bytes is over the limit of " + limit
                    + (upload ? " (web.maxUploadMiB)" : " (web.maxRequestKiB)"));
        }
        boolean getClear = SAFE.contains(req.getMethod()) && req.getRequestURI().startsWith(GET_CLEAR);
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
