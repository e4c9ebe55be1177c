package net.beaconcontroller.firewall;

import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import net.beaconcontroller.firewall.FirewallRule.Action;
import net.beaconcontroller.firewall.FirewallRule.Prefix;
import net.beaconcontroller.util.Dpids;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;

/**
 * Floodlight's firewall rule syntax ({@code POST /wm/firewall/rules/json}): keys any case, values strings, an empty
 * value as if the key were absent, {@code ANY} for a MAC or IP wildcarded, action ALLOW by default, priority 0.
 *
 * <p>Unlike Floodlight v1.2, which logs what it cannot read and adds what it could, a rule is taken whole or refused
 * naming the key: an unknown key or value, or fields the rule's matching would ignore (IPv4 fields with dl-type ARP,
 * ports without nw-proto TCP or UDP), since such a rule would match more than it says.
 */
public final class FirewallRules {
    private static final Set<String> KEYS = Set.of("switchid", "src-inport", "src-mac", "dst-mac", "dl-type",
            "src-ip", "dst-ip", "nw-proto", "tp-src", "tp-dst", "priority", "action", "ruleid");

    private FirewallRules() {
    }

    /**
     * The rule the request describes, with id 0. {@code ruleid} is accepted and ignored, as by Floodlight.
     *
     * @throws IllegalArgumentException saying which key is wrong and why
     */
    public static FirewallRule parse(Map<String, String> request) {
        var f = new TreeMap<String, String>();
        for (var e : request.entrySet()) {
            var key = e.getKey().toLowerCase(Locale.ROOT);
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown key \"" + e.getKey() + "\"; a rule has " + String.join(
                        ", ", new TreeSet<>(KEYS)));
            }
            var value = e.getValue() == null ? "" : e.getValue().trim();
            if (!value.isEmpty() && f.put(key, value) != null) {
                throw new IllegalArgumentException("\"" + key + "\" given twice");
            }
        }
        var dlType = optionalInt(f, "dl-type", v -> switch (v.toUpperCase(Locale.ROOT)) {
            case "ARP" -> FirewallRule.ARP;
            case "IPV4" -> FirewallRule.IPV4;
            default -> throw new IllegalArgumentException("must be ARP or IPv4");
        });
        var nwSrc = prefix(f, "src-ip");
        var nwDst = prefix(f, "dst-ip");
        var nwProto = optionalInt(f, "nw-proto", v -> switch (v.toUpperCase(Locale.ROOT)) {
            case "TCP" -> FirewallRule.TCP;
            case "UDP" -> FirewallRule.UDP;
            case "ICMP" -> FirewallRule.ICMP;
            default -> throw new IllegalArgumentException("must be TCP, UDP or ICMP");
        });
        boolean ipFields = !nwSrc.isAny() || !nwDst.isAny() || nwProto.isPresent();
        if (ipFields && dlType.isPresent() && dlType.getAsInt() != FirewallRule.IPV4) {
            throw new IllegalArgumentException("src-ip, dst-ip and nw-proto need dl-type IPv4 (or no dl-type), not"
                    + " ARP");
        }
        if (ipFields) {
            dlType = OptionalInt.of(FirewallRule.IPV4);
        }
        var tpSrc = optionalInt(f, "tp-src", v -> number(v, 0, 0xffff));
        var tpDst = optionalInt(f, "tp-dst", v -> number(v, 0, 0xffff));
        if ((tpSrc.isPresent() || tpDst.isPresent()) && (nwProto.isEmpty()
                || nwProto.getAsInt() != FirewallRule.TCP && nwProto.getAsInt() != FirewallRule.UDP)) {
            throw new IllegalArgumentException("tp-src and tp-dst need nw-proto TCP or UDP");
        }
        var action = f.containsKey("action") ? value(f, "action", v -> switch (v.toUpperCase(Locale.ROOT)) {
            case "ALLOW", "ACCEPT" -> Action.ALLOW;
            case "DENY", "DROP" -> Action.DROP;
            default -> throw new IllegalArgumentException("must be ALLOW, ACCEPT, DENY or DROP");
        }) : Action.ALLOW;
        int priority = f.containsKey("priority") ? value(f, "priority",
                v -> number(v, Integer.MIN_VALUE, Integer.MAX_VALUE)) : 0;
        return new FirewallRule(0,
                f.containsKey("switchid") ? OptionalLong.of(value(f, "switchid", Dpids::parse)) : OptionalLong.empty(),
                optionalInt(f, "src-inport", v -> number(v, 0, 0xffff)),
                mac(f, "src-mac"), mac(f, "dst-mac"), dlType, nwSrc, nwDst, nwProto, tpSrc, tpDst, priority, action);
    }

    /**
     * Floodlight's id for a rule: a hash of everything it says, positive, so the same rule gets the same id on every
     * member of a cluster and after a restart. {@code attempt} > 0 gives the next candidates when another rule has it.
     */
    public static int id(FirewallRule rule, int attempt) {
        int h = (rule.withId(0).fields().toString().hashCode() + attempt) & 0x7fff_ffff;
        return h == 0 ? 1 : h;
    }

    private interface Parser<T> {
        T parse(String value);
    }

    private static <T> T value(Map<String, String> f, String key, Parser<T> parser) {
        var v = f.get(key);
        try {
            return parser.parse(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + " '" + v + "': " + e.getMessage(), e);
        }
    }

    private static OptionalInt optionalInt(Map<String, String> f, String key, Parser<Integer> parser) {
        return f.containsKey(key) ? OptionalInt.of(value(f, key, parser)) : OptionalInt.empty();
    }

    private static OptionalLong mac(Map<String, String> f, String key) {
        if (!f.containsKey(key) || f.get(key).equalsIgnoreCase("ANY")) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(value(f, key, MacAddress::parse));
    }

    private static Prefix prefix(Map<String, String> f, String key) {
        if (!f.containsKey(key) || f.get(key).equalsIgnoreCase("ANY")) {
            return Prefix.ANY;
        }
        return value(f, key, v -> {
            int slash = v.indexOf('/');
            int bits = slash < 0 ? 32 : number(v.substring(slash + 1), 0, 32);
            try {
                return new Prefix(IPv4Address.parse(slash < 0 ? v : v.substring(0, slash)), bits);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("not an IPv4 address A.B.C.D or prefix A.B.C.D/M", e);
            }
        });
    }

    private static int number(String v, int min, int max) {
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a whole number", e);
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException("must be " + min + ".." + max);
        }
        return (int) n;
    }
}
