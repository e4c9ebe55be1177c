package net.beaconcontroller.acl;

import net.beaconcontroller.util.IPv4Address;

/**
 * A rule of Floodlight's ACL: IPv4 traffic from {@code nwSrc} to {@code nwDst} (either may be absent, not both),
 * optionally of one IP protocol and, for TCP and UDP, to one destination port. Rules are ordered by id: an earlier
 * rule wins over a later one that overlaps it.
 *
 * @param id      1, 2, 3… in the order rules were added (0 before it is kept)
 * @param nwSrc   source prefix, or {@code null} for any source
 * @param nwDst   destination prefix, or {@code null} for any destination
 * @param nwProto IP protocol ({@link #ICMP}, {@link #TCP}, {@link #UDP}), 0 for any
 * @param tpDst   TCP/UDP destination port, 0 for any
 */
public record AclRule(int id, Prefix nwSrc, Prefix nwDst, int nwProto, int tpDst, Action action) {
    public static final int ICMP = 1;
    public static final int TCP = 6;
    public static final int UDP = 17;

    public enum Action { ALLOW, DENY }

    /**
     * An IPv4 prefix as the user wrote it: {@code address} keeps its host bits, as Floodlight lists them.
     *
     * @param bits 0..32
     */
    public record Prefix(int address, int bits) {
        public Prefix {
            if (bits < 0 || bits > 32) {
                throw new IllegalArgumentException("CIDR mask bits must be 0 <= value <= 32.");
            }
        }

        public int mask() {
            return bits == 0 ? 0 : -1 << (32 - bits);
        }

        public boolean matches(int ip) {
            return ((ip ^ address) & mask()) == 0;
        }

        /** Whether every address of {@code other} is one of this prefix's. */
        public boolean covers(Prefix other) {
            return bits <= other.bits && matches(other.address);
        }

        @Override
        public String toString() {
            return IPv4Address.toString(address) + "/" + bits;
        }
    }

    public AclRule {
        if (nwSrc == null && nwDst == null) {
            throw new IllegalArgumentException("Either nw_src or nw_dst must be specified.");
        }
        if (tpDst != 0 && nwProto != TCP && nwProto != UDP) {
            throw new IllegalArgumentException("tp-dst needs nw-proto TCP or UDP.");
        }
        if (tpDst < 0 || tpDst > 0xffff) {
            throw new IllegalArgumentException("tp-dst must be 0..65535.");
        }
        if (action == null) {
            throw new IllegalArgumentException("action must be specidied as (allow || deny).");
        }
    }

    public AclRule withId(int newId) {
        return new AclRule(newId, nwSrc, nwDst, nwProto, tpDst, action);
    }

    /**
     * Whether every packet this rule's fields match, {@code later}'s match too (Floodlight's ACLRule.match): then
     * {@code later} could never decide anything, and is refused. The action is not compared.
     */
    public boolean covers(AclRule later) {
        return covers(nwSrc, later.nwSrc) && covers(nwDst, later.nwDst)
                && (nwProto == 0 || nwProto == later.nwProto) && (tpDst == 0 || tpDst == later.tpDst);
    }

    private static boolean covers(Prefix mine, Prefix theirs) {
        return mine == null || theirs != null && mine.covers(theirs);
    }

    /** Whether a packet with these fields is one this rule is about. */
    public boolean matches(int src, int dst, int proto, int dstPort) {
        return (nwSrc == null || nwSrc.matches(src)) && (nwDst == null || nwDst.matches(dst))
                && (nwProto == 0 || nwProto == proto) && (tpDst == 0 || tpDst == dstPort);
    }
}
