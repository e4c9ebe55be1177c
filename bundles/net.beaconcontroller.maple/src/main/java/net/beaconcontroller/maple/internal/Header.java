package net.beaconcontroller.maple.internal;

import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.topology.SwitchPort;

/**
 * A concrete packet at its network ingress: the values a switch matches on. Build it with {@link #of}, which
 * zeroes the fields a switch ignores for this kind of packet, so a policy and a flow table see the same values.
 */
record Header(SwitchPort ingress, long dlSrc, long dlDst, int dlVlan, int dlVlanPcp, int dlType, int nwTos,
        int nwProto, int nwSrc, int nwDst, int tpSrc, int tpDst) {

    /** The header as a switch sees it; fields that do not apply to the packet's types become 0. */
    static Header of(SwitchPort ingress, long dlSrc, long dlDst, int dlVlan, int dlVlanPcp, int dlType, int nwTos,
            int nwProto, int nwSrc, int nwDst, int tpSrc, int tpDst) {
        boolean nw = Field.applies(Field.NW_PROTO, dlVlan, dlType, nwProto);
        int proto = nw ? nwProto : 0;
        boolean tp = Field.applies(Field.TP_SRC, dlVlan, dlType, proto);
        return new Header(ingress, dlSrc, dlDst, dlVlan, dlVlan == Field.VLAN_NONE ? 0 : dlVlanPcp, dlType,
                Field.applies(Field.NW_TOS, dlVlan, dlType, proto) ? nwTos & 0xfc : 0, proto, nw ? nwSrc : 0,
                nw ? nwDst : 0, tp ? tpSrc : 0, tp ? tpDst : 0);
    }

    /** The header of a packet the ingress switch reported, from its exact match ({@code OFMatch.fromFrame}). */
    static Header of(SwitchPort ingress, OFMatch exact) {
        return of(ingress, exact.dlSrc(), exact.dlDst(), exact.dlVlan(), exact.dlVlanPcp(), exact.dlType(),
                exact.nwTos(), exact.nwProto(), exact.nwSrc(), exact.nwDst(), exact.tpSrc(), exact.tpDst());
    }

    /** A header field's value; not for {@link Field#IN_PORT}. */
    long bits(Field f) {
        return switch (f) {
            case IN_PORT -> throw new IllegalArgumentException("the ingress is a SwitchPort, not bits");
            case DL_SRC -> dlSrc;
            case DL_DST -> dlDst;
            case DL_VLAN -> dlVlan;
            case DL_VLAN_PCP -> dlVlanPcp;
            case DL_TYPE -> dlType;
            case NW_TOS -> nwTos;
            case NW_PROTO -> nwProto;
            case NW_SRC -> nwSrc & 0xffff_ffffL;
            case NW_DST -> nwDst & 0xffff_ffffL;
            case TP_SRC -> tpSrc;
            case TP_DST -> tpDst;
        };
    }

    /** A field's value as the trace tree keys it: the ingress {@code SwitchPort}, or the bits as a {@code Long}. */
    Object value(Field f) {
        return f == Field.IN_PORT ? ingress : Long.valueOf(bits(f));
    }

    /** Whether the switch matches field {@code f} for this packet. */
    boolean applies(Field f) {
        return Field.applies(f, dlVlan, dlType, nwProto);
    }
}
