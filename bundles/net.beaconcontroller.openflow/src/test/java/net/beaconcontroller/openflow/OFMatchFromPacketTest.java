package net.beaconcontroller.openflow;

import static net.beaconcontroller.openflow.OFMatchFixtures.assertSameFields;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

/**
 * {@link OFMatch#fromPacket} on hand-built frames of every kind, asserting every field of the result. Frames are
 * built field by field here rather than with the packet bundle so the expected values are plain to see.
 */
class OFMatchFromPacketTest {
    private static final int IN_PORT = 7;
    /** Top bits set on purpose: MACs and IPs must come out unsigned. */
    private static final long SRC_MAC = 0xf0e1d2c3b4a5L;
    private static final long DST_MAC = 0x0a0b0c0d0e0fL;
    private static final int SRC_IP = 0xc0a80a01; // 192.168.10.1
    private static final int DST_IP = 0x0a000002; // 10.0.0.2
    private static final int VLAN_NONE = OFMatch.VLAN_NONE;

    // ---- ARP -------------------------------------------------------------------------------------------------

    @Test
    void arpRequest() {
        byte[] f = eth(0xffffffffffffL, SRC_MAC, 0x0806, arp(1, SRC_MAC, SRC_IP, 0, DST_IP));
        check(f, expect(0xffffffffffffL, SRC_MAC, VLAN_NONE, 0, 0x0806, 0, 1, SRC_IP, DST_IP, 0, 0));
    }

    @Test
    void arpReply() {
        byte[] f = eth(DST_MAC, SRC_MAC, 0x0806, arp(2, SRC_MAC, SRC_IP, DST_MAC, DST_IP));
        check(f, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0806, 0, 2, SRC_IP, DST_IP, 0, 0));
    }

    @Test
    void arpOpcodeThatDoesNotFitEightBitsGivesProtocolZero() {
        byte[] f = eth(DST_MAC, SRC_MAC, 0x0806, arp(0x0101, SRC_MAC, SRC_IP, DST_MAC, DST_IP));
        check(f, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0806, 0, 0, SRC_IP, DST_IP, 0, 0));
    }

    @Test
    void arpForAnotherHardwareOrProtocolGivesOnlyLinkFields() {
        byte[] body = arp(1, SRC_MAC, SRC_IP, 0, DST_IP);
        body[1] = 6; // hardware type IEEE 802
        check(eth(DST_MAC, SRC_MAC, 0x0806, body), expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0806, 0, 0, 0, 0, 0, 0));
        body = arp(1, SRC_MAC, SRC_IP, 0, DST_IP);
        body[5] = 16; // protocol address length of IPv6
        check(eth(DST_MAC, SRC_MAC, 0x0806, body), expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0806, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void truncatedArpGivesOnlyLinkFields() {
        byte[] f = eth(DST_MAC, SRC_MAC, 0x0806, Arrays.copyOf(arp(1, SRC_MAC, SRC_IP, 0, DST_IP), 27));
        check(f, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0806, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void rarpIsReadLikeArpAsOpenVSwitchDoes() {
        byte[] f = eth(DST_MAC, SRC_MAC, 0x8035, arp(4, SRC_MAC, SRC_IP, DST_MAC, DST_IP));
        check(f, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x8035, 0, 4, SRC_IP, DST_IP, 0, 0));
    }

    @Test
    void taggedArp() {
        byte[] f = tagged(DST_MAC, SRC_MAC, 0x8100, 0x6064, 0x0806, arp(1, SRC_MAC, SRC_IP, 0, DST_IP));
        check(f, expect(DST_MAC, SRC_MAC, 100, 3, 0x0806, 0, 1, SRC_IP, DST_IP, 0, 0));
    }

    // ---- IPv4 --------------------------------------------------------------------------------------------------

    @Test
    void untaggedTcpWithEcnBitsCleared() {
        byte[] f = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(5, 0xbb, 6, 0, tcp(50000, 443)));
        check(f, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0xb8, 6, SRC_IP, DST_IP, 50000, 443));
    }

    @Test
    void taggedUdpWithTopVlanAndPriority() {
        // PCP 5, DEI 1, VID 4095: DEI must not leak into either field
        byte[] f = tagged(DST_MAC, SRC_MAC, 0x8100, 0xbfff, 0x0800, ipv4(5, 0x20, 17, 0, udp(53, 65535, 4)));
        check(f, expect(DST_MAC, SRC_MAC, 4095, 5, 0x0800, 0x20, 17, SRC_IP, DST_IP, 53, 65535));
    }

    @Test
    void priorityTaggedFrameHasVlanZero() {
        byte[] f = tagged(DST_MAC, SRC_MAC, 0x8100, 0xe000, 0x0800, ipv4(5, 0, 17, 0, udp(1, 2, 0)));
        check(f, expect(DST_MAC, SRC_MAC, 0, 7, 0x0800, 0, 17, SRC_IP, DST_IP, 1, 2));
    }

    @Test
    void icmpTypeAndCodeGoToTheTransportFields() {
        byte[] echo = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(5, 0, 1, 0, icmp(8, 0)));
        check(echo, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 1, SRC_IP, DST_IP, 8, 0));
        byte[] unreachable = tagged(DST_MAC, SRC_MAC, 0x8100, 0x0005, 0x0800, ipv4(5, 0, 1, 0, icmp(3, 13)));
        check(unreachable, expect(DST_MAC, SRC_MAC, 5, 0, 0x0800, 0, 1, SRC_IP, DST_IP, 3, 13));
        byte[] highType = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(5, 0, 1, 0, icmp(200, 255)));
        check(highType, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 1, SRC_IP, DST_IP, 200, 255));
    }

    @Test
    void ipOptionsAreSkippedUsingTheHeaderLength() {
        byte[] six = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(6, 0, 6, 0, tcp(1234, 80)));
        check(six, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 6, SRC_IP, DST_IP, 1234, 80));
        byte[] fifteen = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(15, 0, 17, 0, udp(67, 68, 0)));
        check(fifteen, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 17, SRC_IP, DST_IP, 67, 68));
    }

    @Test
    void firstFragmentCarriesNoPortsInOpenFlow10() {
        byte[] f = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(5, 0, 6, 0x2000, tcp(1234, 80)));
        check(f, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 6, SRC_IP, DST_IP, 0, 0));
    }

    @Test
    void laterFragmentsCarryNoPorts() {
        byte[] middle = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(5, 0, 17, 0x2000 | 185, udp(1234, 80, 8)));
        check(middle, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 17, SRC_IP, DST_IP, 0, 0));
        byte[] last = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(5, 0, 1, 370, icmp(8, 0)));
        check(last, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 1, SRC_IP, DST_IP, 0, 0));
    }

    @Test
    void dontFragmentIsNotAFragment() {
        byte[] f = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(5, 0, 6, 0x4000, tcp(1234, 80)));
        check(f, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 6, SRC_IP, DST_IP, 1234, 80));
    }

    @Test
    void sctpPortsAreReadAsOpenVSwitchDoes() {
        byte[] f = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(5, 0, 132, 0, bytes(0x0b, 0x59, 0x0b, 0x5a, 0, 0, 0, 1,
                0, 0, 0, 0)));
        check(f, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 132, SRC_IP, DST_IP, 2905, 2906));
    }

    @Test
    void otherIpProtocolsHaveNoTransportFields() {
        byte[] gre = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(5, 0, 47, 0, tcp(1, 2)));
        check(gre, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 47, SRC_IP, DST_IP, 0, 0));
    }

    @Test
    void aTransportHeaderShorterThanTheProtocolsGivesNoPorts() {
        // total length leaves 10 bytes for TCP (20 needed); the rest of the 60-byte frame is Ethernet padding
        byte[] ip = ipv4(5, 0, 6, 0, Arrays.copyOf(tcp(1234, 80), 10));
        byte[] f = eth(DST_MAC, SRC_MAC, 0x0800, concat(ip, new byte[16]));
        check(f, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 6, SRC_IP, DST_IP, 0, 0));
        byte[] shortUdp = eth(DST_MAC, SRC_MAC, 0x0800, concat(ipv4(5, 0, 17, 0, new byte[7]), new byte[19]));
        check(shortUdp, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 17, SRC_IP, DST_IP, 0, 0));
        byte[] shortIcmp = eth(DST_MAC, SRC_MAC, 0x0800, concat(ipv4(5, 0, 1, 0, new byte[] {8, 0, 0, 0}),
                new byte[22]));
        check(shortIcmp, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 1, SRC_IP, DST_IP, 0, 0));
    }

    @Test
    void ethernetPaddingAfterACompleteDatagramIsIgnored() {
        byte[] f = eth(DST_MAC, SRC_MAC, 0x0800, concat(ipv4(5, 0, 17, 0, udp(5000, 5001, 0)), new byte[18]));
        assertEquals(60, f.length);
        check(f, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 17, SRC_IP, DST_IP, 5000, 5001));
    }

    @Test
    void aFrameCutByMissSendLenStillGivesThePortsItHolds() {
        byte[] full = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(5, 0, 6, 0, tcp(40000, 22)));
        byte[] cut = Arrays.copyOf(full, 14 + 20 + 4);
        check(cut, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 6, SRC_IP, DST_IP, 40000, 22));
        byte[] cutIcmp = Arrays.copyOf(eth(DST_MAC, SRC_MAC, 0x0800, ipv4(5, 0, 1, 0, icmp(3, 1))), 14 + 20 + 2);
        check(cutIcmp, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 1, SRC_IP, DST_IP, 3, 1));
    }

    @Test
    void portsCutInHalfAreLeftZero() {
        byte[] full = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(5, 0, 17, 0, udp(40000, 22, 0)));
        check(Arrays.copyOf(full, 14 + 20 + 3), expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 17, SRC_IP, DST_IP,
                0, 0));
        byte[] icmp = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(5, 0, 1, 0, icmp(3, 1)));
        check(Arrays.copyOf(icmp, 14 + 20 + 1), expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 1, SRC_IP, DST_IP,
                0, 0));
    }

    @Test
    void aTruncatedIpHeaderGivesOnlyLinkFields() {
        byte[] full = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(5, 0, 6, 0, tcp(1, 2)));
        check(Arrays.copyOf(full, 14 + 19), expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 0, 0, 0, 0, 0));
        byte[] options = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(8, 0, 6, 0, tcp(1, 2)));
        check(Arrays.copyOf(options, 14 + 31), expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void aHeaderLengthBelowFiveOrATotalLengthBelowTheHeaderGivesOnlyLinkFields() {
        byte[] ihl4 = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(5, 0, 6, 0, tcp(1, 2)));
        ihl4[14] = 0x44;
        check(ihl4, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 0, 0, 0, 0, 0));
        byte[] totalLength = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(6, 0, 6, 0, tcp(1, 2)));
        totalLength[16] = 0;
        totalLength[17] = 23;
        check(totalLength, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 0, 0, 0, 0, 0));
    }

    // ---- other link layers ----------------------------------------------------------------------------------

    @Test
    void llcFrameGetsTypeNotEthType() {
        // 802.3 length 38, LLC DSAP/SSAP 0x42 (spanning tree BPDU)
        byte[] f = eth(0x0180c2000000L, SRC_MAC, 38, concat(bytes(0x42, 0x42, 0x03), new byte[35]));
        check(f, expect(0x0180c2000000L, SRC_MAC, VLAN_NONE, 0, 0x05ff, 0, 0, 0, 0, 0, 0));
        check(eth(DST_MAC, SRC_MAC, 0x05ff, new byte[0]), expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x05ff, 0, 0, 0, 0,
                0, 0));
        check(eth(DST_MAC, SRC_MAC, 0, bytes(0xaa, 0xaa, 0x03, 0, 0, 0, 0x08)), expect(DST_MAC, SRC_MAC, VLAN_NONE,
                0, 0x05ff, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void snapFrameCarryingIpv4IsParsedThrough() {
        byte[] snap = bytes(0xaa, 0xaa, 0x03, 0, 0, 0, 0x08, 0x00);
        byte[] ip = ipv4(5, 0x10, 17, 0, udp(123, 123, 0));
        byte[] f = eth(DST_MAC, SRC_MAC, snap.length + ip.length, concat(snap, ip));
        check(f, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0x10, 17, SRC_IP, DST_IP, 123, 123));
    }

    @Test
    void snapWithANonZeroOrganisationOrASmallTypeIsNotEthType() {
        byte[] cisco = bytes(0xaa, 0xaa, 0x03, 0, 0, 0x0c, 0x20, 0x00);
        check(eth(DST_MAC, SRC_MAC, 8, cisco), expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x05ff, 0, 0, 0, 0, 0, 0));
        byte[] smallType = bytes(0xaa, 0xaa, 0x03, 0, 0, 0, 0x05, 0xff);
        check(eth(DST_MAC, SRC_MAC, 8, smallType), expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x05ff, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void taggedLlcFrame() {
        byte[] f = tagged(DST_MAC, SRC_MAC, 0x8100, 0x2007, 40, new byte[40]);
        check(f, expect(DST_MAC, SRC_MAC, 7, 1, 0x05ff, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void ipv6GivesOnlyLinkFields() {
        byte[] ip6 = new byte[40];
        ip6[0] = 0x60;
        ip6[6] = 6; // next header TCP
        byte[] f = eth(0x333300000001L, SRC_MAC, 0x86dd, concat(ip6, tcp(1, 2)));
        check(f, expect(0x333300000001L, SRC_MAC, VLAN_NONE, 0, 0x86dd, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void anEightZeroTwoDotOneAdTagIsTakenAsOpenVSwitchDoes() {
        byte[] f = tagged(DST_MAC, SRC_MAC, 0x88a8, 0x0064, 0x0800, ipv4(5, 0, 6, 0, tcp(1, 2)));
        check(f, expect(DST_MAC, SRC_MAC, 100, 0, 0x0800, 0, 6, SRC_IP, DST_IP, 1, 2));
    }

    @Test
    void anInnerTagIsJustTheType() {
        byte[] f = tagged(DST_MAC, SRC_MAC, 0x8100, 0x000a, 0x8100, concat(bytes(0, 20, 0x08, 0x00),
                ipv4(5, 0, 6, 0, tcp(1, 2))));
        check(f, expect(DST_MAC, SRC_MAC, 10, 0, 0x8100, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void aTagWithoutItsInnerTypeLeavesTheTagTypeAndNoVlan() {
        byte[] f = Arrays.copyOf(tagged(DST_MAC, SRC_MAC, 0x8100, 0x000a, 0x0800, new byte[0]), 17);
        check(f, expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x8100, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void framesShorterThanAnEthernetHeaderGiveOnlyThePort() {
        OFMatch none = expect(0, 0, VLAN_NONE, 0, 0, 0, 0, 0, 0, 0, 0);
        check(new byte[0], none);
        check(Arrays.copyOf(eth(DST_MAC, SRC_MAC, 0x0800, new byte[0]), 13), none);
        check(eth(DST_MAC, SRC_MAC, 0x0800, new byte[0]), expect(DST_MAC, SRC_MAC, VLAN_NONE, 0, 0x0800, 0, 0, 0, 0,
                0, 0));
    }

    // ---- buffer handling ----------------------------------------------------------------------------------

    @Test
    void readsOnlyBetweenPositionAndLimitAndChangesNothing() {
        byte[] frame = eth(DST_MAC, SRC_MAC, 0x0800, ipv4(5, 0, 6, 0, tcp(1000, 2000)));
        // surround the frame with bytes that would change the result if read
        byte[] all = concat(bytes(0xff, 0xff, 0xff), frame, bytes(0xee, 0xee, 0xee, 0xee));
        byte[] before = all.clone();
        var buf = ByteBuffer.wrap(all);
        buf.position(3).limit(3 + 14 + 20 + 2); // cut after the source port
        OFMatch m = OFMatch.fromPacket(buf, 1);
        assertEquals(3, buf.position());
        assertEquals(39, buf.limit());
        assertArrayEquals(before, all);
        assertSameFields(OFMatch.builder().wildcards(0).inPort(1).dlSrc(SRC_MAC).dlDst(DST_MAC).dlVlan(VLAN_NONE)
                .dlType(0x0800).nwProto(6).nwSrc(SRC_IP).nwDst(DST_IP).build(), m);
    }

    @Test
    void worksOnDirectAndReadOnlyBuffers() {
        byte[] frame = tagged(DST_MAC, SRC_MAC, 0x8100, 0x0100, 0x0800, ipv4(5, 0, 17, 0, udp(9, 10, 0)));
        OFMatch expected = expect(DST_MAC, SRC_MAC, 0x100, 0, 0x0800, 0, 17, SRC_IP, DST_IP, 9, 10);
        var direct = ByteBuffer.allocateDirect(frame.length).put(frame).flip();
        assertSameFields(expected, OFMatch.fromPacket(direct, IN_PORT));
        assertSameFields(expected, OFMatch.fromPacket(ByteBuffer.wrap(frame).asReadOnlyBuffer(), IN_PORT));
    }

    @Test
    void theResultIsAnExactMatchThatWritesAndReadsBack() throws Exception {
        OFMatch m = OFMatch.fromPacket(ByteBuffer.wrap(eth(DST_MAC, SRC_MAC, 0x0800,
                ipv4(5, 0, 6, 0, tcp(1, 2)))), OFPort.MAX);
        assertEquals(0, m.wildcards());
        assertEquals(m, OFMatchFixtures.read(OFMatchFixtures.bytes(m)));
        assertEquals(m, OFMatch.parse(m.toString()));
    }

    @Test
    void theInputPortMustBeSixteenBits() {
        var frame = ByteBuffer.allocate(0);
        assertThrows(IllegalArgumentException.class, () -> OFMatch.fromPacket(frame, 0x10000));
        assertThrows(IllegalArgumentException.class, () -> OFMatch.fromPacket(frame, -1));
        assertEquals(0xffff, OFMatch.fromPacket(frame, 0xffff).inPort());
    }

    // ---- helpers --------------------------------------------------------------------------------------------

    private static void check(byte[] frame, OFMatch expected) {
        byte[] before = frame.clone();
        var buf = ByteBuffer.wrap(frame);
        OFMatch m = OFMatch.fromPacket(buf, IN_PORT);
        assertSameFields(expected, m);
        assertEquals(0, buf.position());
        assertEquals(frame.length, buf.limit());
        assertArrayEquals(before, frame, "the frame is not modified");
    }

    /** The exact match fromPacket should give, in_port {@link #IN_PORT}. */
    private static OFMatch expect(long dlDst, long dlSrc, int vlan, int pcp, int type, int tos, int proto, int nwSrc,
            int nwDst, int tpSrc, int tpDst) {
        return OFMatch.builder().wildcards(0).inPort(IN_PORT).dlDst(dlDst).dlSrc(dlSrc).dlVlan(vlan).dlVlanPcp(pcp)
                .dlType(type).nwTos(tos).nwProto(proto).nwSrc(nwSrc).nwDst(nwDst).tpSrc(tpSrc).tpDst(tpDst).build();
    }

    static byte[] bytes(int... values) {
        var b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    static byte[] concat(byte[]... parts) {
        var out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    static byte[] eth(long dst, long src, int type, byte[] payload) {
        return ByteBuffer.allocate(14 + payload.length).putShort((short) (dst >>> 32)).putInt((int) dst)
                .putShort((short) (src >>> 32)).putInt((int) src).putShort((short) type).put(payload).array();
    }

    static byte[] tagged(long dst, long src, int tpid, int tci, int type, byte[] payload) {
        return eth(dst, src, tpid, concat(bytes(tci >>> 8, tci, type >>> 8, type), payload));
    }

    static byte[] arp(int op, long sha, int spa, long tha, int tpa) {
        return ByteBuffer.allocate(28).putShort((short) 1).putShort((short) 0x0800).put((byte) 6).put((byte) 4)
                .putShort((short) op).putShort((short) (sha >>> 32)).putInt((int) sha).putInt(spa)
                .putShort((short) (tha >>> 32)).putInt((int) tha).putInt(tpa).array();
    }

    /**
     * An IPv4 datagram from {@link #SRC_IP} to {@link #DST_IP} with {@code ihl} 32-bit words of header (options are
     * NOPs) and the right total length.
     */
    static byte[] ipv4(int ihl, int tos, int proto, int flagsAndOffset, byte[] payload) {
        var b = ByteBuffer.allocate(ihl * 4 + payload.length);
        b.put((byte) (0x40 | ihl)).put((byte) tos).putShort((short) (ihl * 4 + payload.length))
                .putShort((short) 0x1234).putShort((short) flagsAndOffset).put((byte) 64).put((byte) proto)
                .putShort((short) 0).putInt(SRC_IP).putInt(DST_IP);
        while (b.position() < ihl * 4) {
            b.put((byte) 1);
        }
        return b.put(payload).array();
    }

    static byte[] tcp(int sport, int dport) {
        return ByteBuffer.allocate(20).putShort((short) sport).putShort((short) dport).putInt(1).putInt(0)
                .put((byte) 0x50).put((byte) 0x02).putShort((short) 1024).array();
    }

    static byte[] udp(int sport, int dport, int dataLength) {
        return ByteBuffer.allocate(8 + dataLength).putShort((short) sport).putShort((short) dport)
                .putShort((short) (8 + dataLength)).array();
    }

    static byte[] icmp(int type, int code) {
        return bytes(type, code, 0, 0, 0, 1, 0, 1);
    }
}
