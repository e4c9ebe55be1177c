package net.beaconcontroller.packet;

/**
 * Everything a {@link Frame} says about its frame, with the offsets relative to the view, so that two views of the
 * same bytes can be compared in one assertion (and a difference shows every field).
 */
record FrameFields(int length, boolean ethernet, String dlDst, String dlSrc, boolean broadcast, boolean multicast,
        int vlanId, int vlanPcp, String etherType, int l3Offset, boolean arp, int arpOpcode, long arpSenderMac,
        int arpSenderIp, long arpTargetMac, int arpTargetIp, boolean ipv4, int ipv4Src, int ipv4Dst, int ipProto,
        int ipTos, boolean fragment, int l4Offset, boolean tcp, boolean udp, boolean icmp, int tpSrc, int tpDst,
        boolean lldp, boolean dhcp) {

    static FrameFields of(Frame f) {
        return new FrameFields(f.length(), f.isEthernet(), Long.toHexString(f.dlDst()), Long.toHexString(f.dlSrc()),
                f.isBroadcast(), f.isMulticast(), f.vlanId(), f.vlanPcp(), Integer.toHexString(f.etherType()),
                relative(f, f.l3Offset()), f.isArp(), f.arpOpcode(), f.arpSenderMac(), f.arpSenderIp(),
                f.arpTargetMac(), f.arpTargetIp(), f.isIpv4(), f.ipv4Src(), f.ipv4Dst(), f.ipProto(), f.ipTos(),
                f.isFragment(), relative(f, f.l4Offset()), f.isTcp(), f.isUdp(), f.isIcmp(), f.tpSrc(), f.tpDst(),
                f.isLldp(), f.isDhcp());
    }

    /** An absolute index as an offset into the frame; 0, "absent", stays 0. */
    private static int relative(Frame f, int index) {
        return index == 0 ? 0 : index - f.offset();
    }
}
