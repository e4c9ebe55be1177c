package net.beaconcontroller.acl;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import net.beaconcontroller.acl.AclRule.Action;
import net.beaconcontroller.acl.AclRule.Prefix;

/**
 * Floodlight's ACL rule syntax ({@code POST /wm/acl/rules/json}, ACLRuleResource.jsonToRule): keys {@code src-ip},
 * {@code dst-ip} (CIDR, mask required), {@code nw-proto}, {@code tp-dst}, {@code action} (default deny), values
 * strings. Failures carry Floodlight's reason texts. Stricter than Floodlight, so that a typo is not a different rule:
 * an unknown key, and tp-dst without TCP or UDP (which Floodlight drops silently), are refused.
 */
public final class AclRules {
    private static final Set<String> KEYS = Set.of("src-ip", "dst-ip", "nw-proto", "tp-dst", "action");

    private AclRules() {
    }

    /**
     * The rule the request describes, with id 0.
     *
     * @throws IllegalArgumentException with the reason, in Floodlight's words where it has some
     */
    public static AclRule parse(Map<String, String> request) {
        for (var key : request.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown key \"" + key + "\"; a rule has "
                        + String.join(", ", new TreeSet<>(KEYS)) + ".");
            }
        }
        var src = prefix(request.get("src-ip"));
        var dst = prefix(request.get("dst-ip"));
        int proto = switch (value(request, "nw-proto").toUpperCase(Locale.ROOT)) {
            case "" -> 0;
            case "TCP" -> AclRule.TCP;
            case "UDP" -> AclRule.UDP;
            case "ICMP" -> AclRule.ICMP;
            default -> throw new IllegalArgumentException("nw-proto must be specified as (TCP || UDP || ICMP).");
        };
        int port = 0;
        var tp = value(request, "tp-dst");
        if (!tp.isEmpty()) {
            try {
                port = Integer.parseInt(tp);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("tp-dst must be specified as a number.", e);
            }
        }
        var action = switch (value(request, "action").toLowerCase(Locale.ROOT)) {
            case "", "deny" -> Action.DENY;
            case "allow" -> Action.ALLOW;
            default -> throw new IllegalArgumentException("action must be specidied as (allow || deny).");
        };
        return new AclRule(0, src, dst, proto, port, action);
    }

    /** The request that {@link #parse} reads back as this rule (id aside): how a rule is kept in a file. */
    public static Map<String, String> fields(AclRule rule) {
        var m = new LinkedHashMap<String, String>();
        if (rule.nwSrc() != null) {
            m.put("src-ip", rule.nwSrc().toString());
        }
        if (rule.nwDst() != null) {
            m.put("dst-ip", rule.nwDst().toString());
        }
        switch (rule.nwProto()) {
            case AclRule.TCP -> m.put("nw-proto", "TCP");
            case AclRule.UDP -> m.put("nw-proto", "UDP");
            case AclRule.ICMP -> m.put("nw-proto", "ICMP");
            default -> { }
        }
        if (rule.tpDst() != 0) {
            m.put("tp-dst", Integer.toString(rule.tpDst()));
        }
        m.put("action", rule.action().name().toLowerCase(Locale.ROOT));
        return m;
    }

    private static String value(Map<String, String> request, String key) {
        var v = request.get(key);
        return v == null ? "" : v.trim();
    }

    /** {@code A.B.C.D/M}, or null when absent or empty. */
    private static Prefix prefix(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        var v = text.trim();
        int slash = v.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("CIDR mask bits must be specified.");
        }
        int bits;
        try {
            bits = Integer.parseInt(v.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("CIDR mask bits must be specified as a number(0 ~ 32).", e);
        }
        if (bits < 0 || bits > 32) {
            throw new IllegalArgumentException("CIDR mask bits must be 0 <= value <= 32.");
        }
        var octets = v.substring(0, slash).split("\\.", -1);
        if (octets.length != 4) {
            throw new IllegalArgumentException("'" + v + "' is not an IPv4 prefix A.B.C.D/M.");
        }
        int address = 0;
        for (var o : octets) {
            int n;
            try {
                n = Integer.parseInt(o);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + v + "' is not an IPv4 prefix A.B.C.D/M.", e);
            }
            if (n < 0 || n > 255) {
                throw new IllegalArgumentException("Octet values in specified IPv4 address must be 0 <= value <="
                        + " 255");
            }
            address = address << 8 | n;
        }
        return new Prefix(address, bits);
    }
}
