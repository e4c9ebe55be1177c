package net.beaconcontroller.firewall.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.firewall.FirewallRules;

/** A rule as Floodlight v1.2's FirewallRuleSerializer lists it: its keys in its order, wildcards as zeros. */
class RuleJsonTest {
    @Test
    void floodlightsKeysInItsOrder() {
        var rule = FirewallRules.parse(Map.of("src-ip", "10.0.0.1", "nw-proto", "TCP", "tp-dst", "22",
                "switchid", "00:00:00:00:00:00:00:02", "action", "deny", "priority", "3")).withId(42);
        var json = RuleJson.toJson(rule);
        assertEquals(List.of("ruleid", "dpid", "in_port", "dl_src", "dl_dst", "dl_type", "nw_src_prefix",
                "nw_src_maskbits", "nw_dst_prefix", "nw_dst_maskbits", "nw_proto", "tp_src", "tp_dst", "any_dpid",
                "any_in_port", "any_dl_src", "any_dl_dst", "any_dl_type", "any_nw_src", "any_nw_dst", "any_nw_proto",
                "any_tp_src", "any_tp_dst", "priority", "action"), List.copyOf(json.keySet()));
        assertEquals(42, json.get("ruleid"));
        assertEquals("00:00:00:00:00:00:00:02", json.get("dpid"));
        assertEquals(false, json.get("any_dpid"));
        assertEquals(0, json.get("in_port"));
        assertEquals(true, json.get("any_in_port"));
        assertEquals(2048, json.get("dl_type"));
        assertEquals("10.0.0.1", json.get("nw_src_prefix"));
        assertEquals(32, json.get("nw_src_maskbits"));
        assertEquals("0.0.0.0", json.get("nw_dst_prefix"));
        assertEquals(0, json.get("nw_dst_maskbits"));
        assertEquals(true, json.get("any_nw_dst"));
        assertEquals(6, json.get("nw_proto"));
        assertEquals(22, json.get("tp_dst"));
        assertEquals(true, json.get("any_tp_src"));
        assertEquals(3, json.get("priority"));
        assertEquals("DROP", json.get("action"), "a DENY rule lists as DROP");
    }
}
