package net.beaconcontroller.firewall;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;

import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.util.Dpids;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;

/**
 * One firewall rule with Floodlight v1.2's fields; an empty field matches anything. Made by
 * {@link FirewallRules#parse}, which refuses contradictions, so a rule never holds fields its matching would ignore:
 * IPv4 fields only with {@code dl_type} IPv4, ports only with TCP or UDP.
 *
 * @param id       Floodlight's rule id (a hash of the rule, so re-adding the same rule gives the same id); 0 until kept
 * @param priority the smaller number is looked at first
 */
public record FirewallRule(int id, OptionalLong dpid, OptionalInt inPort, OptionalLong dlSrc, OptionalLong dlDst,
        OptionalInt dlType, Prefix nwSrc, Prefix nwDst, OptionalInt nwProto, OptionalInt tpSrc, OptionalInt tpDst,
        int priority, Action action) {
    public static final int ARP = 0x0806;
    public static final int IPV4 = 0x0800;
    public static final int ICMP = 1;
    public static final int TCP = 6;
    public static final int UDP = 17;

    /** Floodlight lists a DENY rule as {@code DROP}, the name of its enum constant. */
    public enum Action { ALLOW, DROP }

    /** An IPv4 prefix; {@code bits} 0 matches every address. */
    public record Prefix(int address, int bits) {
        public static final Prefix ANY = new Prefix(0, 0);

        public Prefix {
            if (bits < 0 || bits > 32) {
                throw new IllegalArgumentException("a prefix length is 0..32, not " + bits);
            }
        }

        public boolean matches(int ip) {
            return bits == 0 || ((ip ^ address) & (-1 << (32 - bits))) == 0;
        }

        public boolean isAny() {
            return bits == 0;
        }

        @Override
        public String toString() {
            return IPv4Address.toString(address) + "/" + bits;
        }
    }

    /** The same rule kept under {@code newId}. */
    public FirewallRule withId(int newId) {
        return new FirewallRule(newId, dpid, inPort, dlSrc, dlDst, dlType, nwSrc, nwDst, nwProto, tpSrc, tpDst,
                priority, action);
    }

    /**
     * Whether a packet with {@code p}'s fields, arriving at switch {@code switchId} on {@code p.inPort()}, matches.
     * {@code p} is either a PACKET_IN's frame or an installed flow's match; ARP packets are matched by dl_type only.
     */
    public boolean matches(long switchId, OFMatch p) {
        if (dpid.isPresent() && dpid.getAsLong() != switchId
                || inPort.isPresent() && inPort.getAsInt() != p.inPort()
                || dlSrc.isPresent() && dlSrc.getAsLong() != p.dlSrc()
                || dlDst.isPresent() && dlDst.getAsLong() != p.dlDst()) {
            return false;
        }
        if (dlType.isEmpty()) {
            return true;
        }
        if (dlType.getAsInt() != p.dlType()) {
            return false;
        }
        if (dlType.getAsInt() != IPV4) {
            return true;
        }
        if (!nwSrc.matches(p.nwSrc()) || !nwDst.matches(p.nwDst())) {
            return false;
        }
        if (nwProto.isEmpty()) {
            return true;
        }
        return nwProto.getAsInt() == p.nwProto()
                && (tpSrc.isEmpty() || tpSrc.getAsInt() == p.tpSrc())
                && (tpDst.isEmpty() || tpDst.getAsInt() == p.tpDst());
    }

    /**
     * Floodlight's {@code isSameAs}: every field and the action equal, the priority not looked at; such a rule is not
     * added twice.
     */
    public boolean isSameAs(FirewallRule other) {
        return withPriority(0).equals(other.withPriority(0));
    }

    private FirewallRule withPriority(int p) {
        return new FirewallRule(0, dpid, inPort, dlSrc, dlDst, dlType, nwSrc, nwDst, nwProto, tpSrc, tpDst, p,
                action);
    }

    /**
     * The rule as the request that makes it, in Floodlight's POST keys: the fields set, then priority and action.
     * {@link FirewallRules#parse} reads it back to an equal rule (without the id).
     */
    public Map<String, String> fields() {
        var f = new LinkedHashMap<String, String>();
        dpid.ifPresent(v -> f.put("switchid", Dpids.toString(v)));
        inPort.ifPresent(v -> f.put("src-inport", Integer.toString(v)));
        dlSrc.ifPresent(v -> f.put("src-mac", MacAddress.toString(v)));
        dlDst.ifPresent(v -> f.put("dst-mac", MacAddress.toString(v)));
        dlType.ifPresent(v -> f.put("dl-type", v == ARP ? "ARP" : "IPv4"));
        if (!nwSrc.isAny()) {
            f.put("src-ip", nwSrc.toString());
        }
        if (!nwDst.isAny()) {
            f.put("dst-ip", nwDst.toString());
        }
        nwProto.ifPresent(v -> f.put("nw-proto", v == TCP ? "TCP" : v == UDP ? "UDP" : "ICMP"));
        tpSrc.ifPresent(v -> f.put("tp-src", Integer.toString(v)));
        tpDst.ifPresent(v -> f.put("tp-dst", Integer.toString(v)));
        f.put("priority", Integer.toString(priority));
        f.put("action", action.name());
        return f;
    }
}
