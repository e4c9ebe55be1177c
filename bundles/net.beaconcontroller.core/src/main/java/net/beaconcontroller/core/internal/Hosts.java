package net.beaconcontroller.core.internal;

import java.util.Arrays;

/** What {@code controller.listenAddress} accepts; the metatype only knows it is a string. */
final class Hosts {
    private Hosts() {
    }

    /** An IPv4 literal, an IPv6 literal, or a host name by RFC 1123 (letters, digits, inner hyphens). */
    static boolean isHost(String s) {
        if (s.indexOf(':') >= 0) {
            return s.matches("[0-9A-Fa-f:.]+") && s.chars().filter(c -> c == ':').count() >= 2;
        }
        if (s.matches("[0-9.]+")) {
            var parts = s.split("\\.", -1);
            return parts.length == 4 && Arrays.stream(parts)
                    .allMatch(p -> !p.isEmpty() && p.length() <= 3 && Integer.parseInt(p) <= 255);
        }
        return !s.isEmpty() && s.length() <= 253 && Arrays.stream(s.split("\\.", -1))
                .allMatch(l -> l.matches("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"));
    }
}
