package net.beaconcontroller.staticflowpusher.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.action.OFActions;
import net.beaconcontroller.web.floodlight.FlowFormatException;

/** A pushed flow as Floodlight's clients write it, checked whole. */
class FlowRequestTest {
    private static Map<String, String> body(String... kv) {
        var m = new HashMap<String, String>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void floodlightsExampleWithItsDefaults() {
        var f = FlowRequest.parse(body("switch", "00:00:00:00:00:00:00:01", "name", "f1", "in_port", "1",
                "eth_type", "0x800", "ipv4_dst", "10.0.0.2", "active", "true", "actions", "output=2"));
        assertEquals("f1", f.name());
        assertEquals(1, f.dpid());
        assertEquals(OFMatch.parse("in_port=1,ip,nw_dst=10.0.0.2"), f.match());
        assertEquals(OFActions.parse("output:2"), f.actions());
        assertEquals(FlowRequest.DEFAULT_PRIORITY, f.priority());
        assertEquals(FlowRequest.COOKIE, f.cookie());
        assertEquals(0, f.idleTimeout());
        assertTrue(f.active());
        var g = FlowRequest.parse(body("switch", "2", "name", "g", "priority", "7", "cookie", "0xff",
                "idle_timeout", "30", "hard_timeout", "60", "active", "FALSE", "table", "0"));
        assertEquals(7, g.priority());
        assertEquals(0xff, g.cookie());
        assertEquals(30, g.idleTimeout());
        assertEquals(60, g.hardTimeout());
        assertFalse(g.active());
        assertTrue(g.actions().isEmpty());
        assertEquals(OFMatch.ALL, g.match());
    }

    @Test
    void everyMistakeIsNamed() {
        var ok = body("switch", "1", "name", "f");
        String[][] cases = {
            {"name", null, "name"}, {"switch", null, "switch"}, {"switch", "0x1g", "DPID"},
            {"ingress-port", "1", "ingress-port"}, {"instruction_apply_actions", "output=1", "OpenFlow 1.1"},
            {"priority", "65536", "priority"}, {"priority", "high", "priority"}, {"idle_timeout", "-1", "idle_timeout"},
            {"table", "1", "table"}, {"active", "yes", "active"}, {"cookie", "many", "cookie"},
            {"actions", "output=0", "output"}, {"ipv4_src", "10.0.0.1", "eth_type"},
            // Issue 28, finding 5: empty values, a name the file would read as a comment, a FLOW_MOD over 64 KiB.
            {"in_port", "", "in_port"}, {"eth_type", " ", "eth_type"}, {"actions", ",", "actions"},
            {"actions", "output=1,,", "empty action"}, {"actions", "", "actions"}, {"priority", "", "priority"},
            {"name", "#x", "#"}, {"actions", "output=1,".repeat(9000) + "output=1", "65535"}};
        for (var c : cases) {
            var b = new HashMap<>(ok);
            if (c[1] == null) {
                b.remove(c[0]);
            } else {
                b.put(c[0], c[1]);
            }
            var e = assertThrows(FlowFormatException.class, () -> FlowRequest.parse(b), String.join(" ", c[0],
                    String.valueOf(c[1])));
            assertTrue(e.getMessage().contains(c[2]), e.getMessage());
        }
    }
}
