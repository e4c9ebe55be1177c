package net.beaconcontroller.firewall.web;

import java.util.LinkedHashMap;
import java.util.Map;

import net.beaconcontroller.firewall.FirewallRule;
import net.beaconcontroller.util.Dpids;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;

/** The JSON of Floodlight's firewall: rules as its FirewallRuleSerializer writes them. */
final class RuleJson {
    private RuleJson() {
    }

    /** Floodlight's keys in its order; a wildcarded field holds 0 (an address 0.0.0.0/0) and its any_* is true. */
    static Map<String, Object> toJson(FirewallRule r) {
        var m = new LinkedHashMap<String, Object>();
        m.put("ruleid", r.id());
        m.put("dpid", Dpids.toString(r.dpid().orElse(0)));
        m.put("in_port", r.inPort().orElse(0));
        m.put("dl_src", MacAddress.toString(r.dlSrc().orElse(0)));
        m.put("dl_dst", MacAddress.toString(r.dlDst().orElse(0)));
        m.put("dl_type", r.dlType().orElse(0));
        m.put("nw_src_prefix", IPv4Address.toString(r.nwSrc().address()));
        m.put("nw_src_maskbits", r.nwSrc().bits());
        m.put("nw_dst_prefix", IPv4Address.toString(r.nwDst().address()));
        m.put("nw_dst_maskbits", r.nwDst().bits());
        m.put("nw_proto", r.nwProto().orElse(0));
        m.put("tp_src", r.tpSrc().orElse(0));
        m.put("tp_dst", r.tpDst().orElse(0));
        m.put("any_dpid", r.dpid().isEmpty());
        m.put("any_in_port", r.inPort().isEmpty());
        m.put("any_dl_src", r.dlSrc().isEmpty());
        m.put("any_dl_dst", r.dlDst().isEmpty());
        m.put("any_dl_type", r.dlType().isEmpty());
        m.put("any_nw_src", r.nwSrc().isAny());
        m.put("any_nw_dst", r.nwDst().isAny());
        m.put("any_nw_proto", r.nwProto().isEmpty());
        m.put("any_tp_src", r.tpSrc().isEmpty());
        m.put("any_tp_dst", r.tpDst().isEmpty());
        m.put("priority", r.priority());
        m.put("action", r.action().name());
        return m;
    }
}
