package net.beaconcontroller.staticflowpusher.web;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import net.beaconcontroller.staticflowpusher.StaticFlow;
import net.beaconcontroller.web.floodlight.FloodlightActions;
import net.beaconcontroller.web.floodlight.FloodlightMatch;
import net.beaconcontroller.web.floodlight.FlowFormatException;
import net.beaconcontroller.util.Dpids;

/**
 * A static flow as Floodlight's pusher takes it: a flat JSON object of strings ({@code switch}, {@code name},
 * {@code priority}, {@code cookie}, {@code active}, {@code idle_timeout}, {@code hard_timeout}, {@code actions} and
 * the match keys). Anything it does not understand, and any empty value, is refused with the key named, so a typo
 * never becomes a flow that matches more than meant.
 */
final class FlowRequest {
    /** Floodlight's default priority for pushed flows. */
    static final int DEFAULT_PRIORITY = 32768;
    /** The user's part of the cookie when none is given (the owner's part marks the flow as static anyway). */
    static final long COOKIE = 0;

    private static final Set<String> FLOW_KEYS = Set.of("switch", "name", "priority", "cookie", "active",
            "idle_timeout", "hard_timeout", "table", "actions");
    private static final Set<String> OF11_KEYS = Set.of("instruction_apply_actions", "instruction_write_actions",
            "instruction_clear_actions", "instruction_goto_table", "instruction_write_metadata",
            "instruction_goto_meter", "instruction_experimenter");

    private FlowRequest() {
    }

    /** @throws FlowFormatException saying what is wrong, in Floodlight's words where it has them */
    static StaticFlow parse(Map<String, String> body) {
        var name = body.get("name");
        if (name == null || name.isBlank()) {
            throw new FlowFormatException("Warning! Must specify a name for the flow (key \"name\").");
        }
        var dpidText = body.get("switch");
        if (dpidText == null) {
            throw new FlowFormatException("Warning! Must specify a switch DPID (key \"switch\").");
        }
        long dpid;
        try {
            dpid = Dpids.parse(dpidText);
        } catch (IllegalArgumentException e) {
            throw new FlowFormatException("Warning! Invalid switch DPID '" + dpidText + "': " + e.getMessage());
        }
        var unknown = new TreeSet<String>();
        var match = new HashMap<String, String>();
        for (var e : body.entrySet()) {
            var key = e.getKey();
            if (e.getValue() == null || e.getValue().isBlank()) {
                // Read as a wildcard or no action, an empty value would make a flow that does more than meant.
                throw new FlowFormatException("Warning! \"" + key + "\" is empty: leave the key out for its"
                        + " default. The flow has been discarded.");
            }
            if (OF11_KEYS.contains(key)) {
                throw new FlowFormatException("Warning! " + key + " needs OpenFlow 1.1 or later; Beacon speaks"
                        + " OpenFlow 1.0: use \"actions\".");
            } else if (FloodlightMatch.KEYS.contains(key)) {
                match.put(key, e.getValue());
            } else if (!FLOW_KEYS.contains(key)) {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            throw new FlowFormatException("Warning! Unknown key(s) " + unknown + "; the flow has been discarded.");
        }
        var table = body.get("table");
        if (table != null && number(table, "table", 0, 0xff) != 0) {
            throw new FlowFormatException("Warning! An OpenFlow 1.0 switch has one flow table: \"table\" must be 0.");
        }
        var active = body.getOrDefault("active", "true");
        if (!List.of("true", "false").contains(active.toLowerCase())) {
            throw new FlowFormatException("Warning! \"active\" must be true or false, not '" + active + "'.");
        }
        var cookie = body.get("cookie");
        try {
            return new StaticFlow(name, dpid, FloodlightMatch.fromMap(match),
                    FloodlightActions.parse(body.getOrDefault("actions", "")),
                    number(body.getOrDefault("priority", Integer.toString(DEFAULT_PRIORITY)), "priority", 0, 0xffff),
                    cookie == null ? COOKIE : parseCookie(cookie),
                    number(body.getOrDefault("idle_timeout", "0"), "idle_timeout", 0, 0xffff),
                    number(body.getOrDefault("hard_timeout", "0"), "hard_timeout", 0, 0xffff),
                    Boolean.parseBoolean(active));
        } catch (FlowFormatException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new FlowFormatException("Warning! " + e.getMessage());
        }
    }

    private static long parseCookie(String text) {
        try {
            var t = text.trim();
            return t.startsWith("0x") || t.startsWith("0X") ? Long.parseUnsignedLong(t.substring(2), 16)
                    : Long.parseUnsignedLong(t);
        } catch (NumberFormatException e) {
            throw new FlowFormatException("Warning! \"cookie\" must be a 64-bit number, not '" + text + "'.");
        }
    }

    private static int number(String text, String key, int min, int max) {
        int v;
        try {
            v = Integer.decode(text.trim());
        } catch (NumberFormatException e) {
            throw new FlowFormatException("Warning! \"" + key + "\" must be a number, not '" + text + "'.");
        }
        if (v < min || v > max) {
            throw new FlowFormatException("Warning! \"" + key + "\" must be " + min + ".." + max + ", not " + v + ".");
        }
        return v;
    }
}
