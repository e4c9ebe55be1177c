package net.beaconcontroller.maple.internal;

import java.util.List;

/**
 * The fields of an OpenFlow 1.0 match as a policy reads them. {@link #IN_PORT} is the packet's network ingress (a
 * {@code SwitchPort}); every other field's value is a {@code Long}.
 */
enum Field {
    IN_PORT, DL_SRC, DL_DST, DL_VLAN, DL_VLAN_PCP, DL_TYPE, NW_TOS, NW_PROTO, NW_SRC, NW_DST, TP_SRC, TP_DST;

    static final int ETH_IPV4 = 0x0800;
    static final int ETH_ARP = 0x0806;
    static final int ETH_RARP = 0x8035;
    static final int VLAN_NONE = 0xffff;

    /** Whether the field is an IPv4 address that prefix tests apply to. */
    boolean isAddress() {
        return this == NW_SRC || this == NW_DST;
    }

    /**
     * Whether a switch matches this field for a packet with these link and network types: OpenFlow 1.0's
     * prerequisites as Open vSwitch applies them ({@code OFMatch.normalized}). A field that does not apply reads 0
     * and is never part of a rule.
     */
    static boolean applies(Field f, int dlVlan, int dlType, int nwProto) {
        boolean ipv4 = dlType == ETH_IPV4;
        return switch (f) {
            case DL_VLAN_PCP -> dlVlan != VLAN_NONE;
            case NW_TOS -> ipv4;
            case NW_PROTO, NW_SRC, NW_DST -> ipv4 || dlType == ETH_ARP || dlType == ETH_RARP;
            case TP_SRC, TP_DST -> ipv4 && (nwProto == 1 || nwProto == 6 || nwProto == 17 || nwProto == 132);
            default -> true;
        };
    }

    /** The fields whose values decide whether this one applies, in the order they must be read. */
    List<Field> prerequisites() {
        return switch (this) {
            case DL_VLAN_PCP -> List.of(DL_VLAN);
            case NW_TOS, NW_PROTO, NW_SRC, NW_DST -> List.of(DL_TYPE);
            case TP_SRC, TP_DST -> List.of(DL_TYPE, NW_PROTO);
            default -> List.of();
        };
    }
}
