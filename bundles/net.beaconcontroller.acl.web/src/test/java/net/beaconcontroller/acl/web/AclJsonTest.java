package net.beaconcontroller.acl.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.acl.AclRules;

/** A rule as Floodlight's ACL lists it: its bean keys in order, prefixes as given and as signed ints. */
class AclJsonTest {
    @Test
    void floodlightsKeysAndValues() {
        var rule = AclRules.parse(Map.of("src-ip", "10.0.0.1/32", "nw-proto", "UDP", "tp-dst", "53")).withId(3);
        var json = AclJson.toJson(rule);
        assertEquals(List.of("id", "nw_src", "nw_dst", "nw_src_prefix", "nw_src_maskbits", "nw_dst_prefix",
                "nw_dst_maskbits", "nw_proto", "tp_dst", "action"), List.copyOf(json.keySet()));
        assertEquals(3, json.get("id"));
        assertEquals("10.0.0.1/32", json.get("nw_src"));
        assertNull(json.get("nw_dst"), "unset is null, as Floodlight's bean");
        assertEquals(167772161, json.get("nw_src_prefix"), "10.0.0.1 as Floodlight's int");
        assertEquals(32, json.get("nw_src_maskbits"));
        assertEquals(17, json.get("nw_proto"));
        assertEquals(53, json.get("tp_dst"));
        assertEquals("DENY", json.get("action"));
        assertEquals(-1062731519, AclJson.toJson(AclRules.parse(Map.of("dst-ip", "192.168.1.1/24")).withId(1))
                .get("nw_dst_prefix"), "a signed 32-bit int, as Floodlight's");
    }
}
