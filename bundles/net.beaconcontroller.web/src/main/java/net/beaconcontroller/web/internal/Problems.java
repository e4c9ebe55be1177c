package net.beaconcontroller.web.internal;

/** The problem detail (RFC 9457) written where Spring's {@link Errors} cannot: by the guard and Jetty's error pages. */
final class Problems {
    static final String TYPE = "application/problem+json";

    private Problems() {
    }

    static String json(int status, String detail) {
        return "{\"type\":\"about:blank\",\"status\":" + status + ",\"detail\":\"" + escape(detail) + "\"}";
    }

    private static String escape(String s) {
        var sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }
}
