package net.beaconcontroller.acl.web;

import java.util.LinkedHashMap;
import java.util.Map;

import net.beaconcontroller.acl.AclRule;

/** A rule as Floodlight's ACL lists it (the Jackson bean getters of its ACLRule), keys in that order. */
final class AclJson {
    private AclJson() {
    }

    /**
     * {@code nw_src}/{@code nw_dst} as given ({@code "10.0.0.1/32"}, null when unset); the prefixes as signed 32-bit
     * ints (10.0.0.1 is 167772161); {@code nw_proto} and {@code tp_dst} 0 for any. UDP is 17 (v1.2 wrote 11, a bug
     * its master fixed).
     */
    static Map<String, Object> toJson(AclRule r) {
        var m = new LinkedHashMap<String, Object>();
        m.put("id", r.id());
        m.put("nw_src", r.nwSrc() == null ? null : r.nwSrc().toString());
        m.put("nw_dst", r.nwDst() == null ? null : r.nwDst().toString());
        m.put("nw_src_prefix", r.nwSrc() == null ? 0 : r.nwSrc().address());
        m.put("nw_src_maskbits", r.nwSrc() == null ? 0 : r.nwSrc().bits());
        m.put("nw_dst_prefix", r.nwDst() == null ? 0 : r.nwDst().address());
        m.put("nw_dst_maskbits", r.nwDst() == null ? 0 : r.nwDst().bits());
        m.put("nw_proto", r.nwProto());
        m.put("tp_dst", r.tpDst());
        m.put("action", r.action().name());
        return m;
    }
}
