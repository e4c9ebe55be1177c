package net.beaconcontroller.packet;

import static net.beaconcontroller.packet.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import net.beaconcontroller.packet.Views.Kind;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;
import org.junit.jupiter.api.Test;

/**
 * {@link Frame} on every reference frame and on hand-made tagged, 802.3, cut and malformed ones, every field checked
 * byte-exact; each one that the packet library decodes is also compared with that decode.
 */
class FrameTest {
    private static final long HOST1 = MacAddress.parse("52:54:00:12:34:56");
    private static final long HOST2 = MacAddress.parse("52:54:00:ab:cd:ef");
    private static final long ROUTER = MacAddress.parse("52:54:00:00:00:fe");
    private static final long LLDP_GROUP = MacAddress.parse("01:80:c2:00:00:0e");
    private static final int IP1 = ip("10.0.0.1");
    private static final int IP2 = ip("10.0.0.2");
    private static final int NONE = Frame.VLAN_NONE;
    private static final int TCP = Ipv4.PROTOCOL_TCP;
    private static final int UDP = Ipv4.PROTOCOL_UDP;
    private static final int ICMP = Ipv4.PROTOCOL_ICMP;

    private final Frame f = new Frame();

    // ---- the reference frames --------------------------------------------------------------------------------

    @Test
    void arpRequest() {
        wrap(Vectors.ARP_REQUEST, 60);
        assertLink(MacAddress.BROADCAST, HOST1, NONE, 0, Ethernet.TYPE_ARP, 14);
        assertTrue(f.isBroadcast());
        assertTrue(f.isMulticast());
        assertArp(Arp.REQUEST, HOST1, IP1, 0, IP2);
        assertDecodes();
    }

    @Test
    void arpReply() {
        wrap(Vectors.ARP_REPLY, 42);
        assertLink(HOST1, HOST2, NONE, 0, Ethernet.TYPE_ARP, 14);
        assertFalse(f.isMulticast());
        assertArp(Arp.REPLY, HOST2, IP2, HOST1, IP1);
        assertDecodes();
    }

    /** A reference frame carrying IPv4, with every field Frame gives as scapy wrote it. */
    record Ipv4Vector(String name, String hex, int length, long dst, long src, int vlan, int pcp, int ipSrc,
            int ipDst, int proto, int tos, boolean fragment, int l4Offset, int transport, int tpSrc, int tpDst,
            boolean dhcp) {
    }

    @Test
    void everyIpv4ReferenceFrame() {
        int dns = ip("10.0.0.53");
        int mdns = ip("224.0.0.251");
        long mdnsMac = MacAddress.parse("01:00:5e:00:00:fb");
        int broadcast = ip("255.255.255.255");
        int router = ip("10.0.0.254");
        int client = ip("10.0.0.100");
        long all = MacAddress.BROADCAST;
        int echo = Icmp.ECHO_REQUEST;
        int reply = Icmp.ECHO_REPLY;
        for (var v : List.of(
                new Ipv4Vector("PING_REQUEST", Vectors.PING_REQUEST, 98, HOST2, HOST1, NONE, 0, IP1, IP2, ICMP, 0,
                        false, 34, ICMP, echo, 0, false),
                new Ipv4Vector("PING_REPLY", Vectors.PING_REPLY, 98, HOST1, HOST2, NONE, 0, IP2, IP1, ICMP, 0,
                        false, 34, ICMP, reply, 0, false),
                new Ipv4Vector("TCP_SYN", Vectors.TCP_SYN, 74, HOST2, HOST1, NONE, 0, IP1, IP2, TCP, 0x10,
                        false, 34, TCP, 43512, 80, false),
                new Ipv4Vector("TCP_SYNACK_DATA", Vectors.TCP_SYNACK_DATA, 85, HOST1, HOST2, NONE, 0, IP2, IP1, TCP, 0,
                        false, 34, TCP, 80, 43512, false),
                new Ipv4Vector("UDP_DNS", Vectors.UDP_DNS, 71, HOST2, HOST1, NONE, 0, IP1, dns, UDP, 0,
                        false, 34, UDP, 53421, 53, false),
                new Ipv4Vector("UDP_NOCSUM", Vectors.UDP_NOCSUM, 47, HOST2, HOST1, NONE, 0, IP1, IP2, UDP, 0,
                        false, 34, UDP, 5000, 6000, false),
                new Ipv4Vector("DHCP_DISCOVER", Vectors.DHCP_DISCOVER, 342, all, HOST1, NONE, 0, 0, broadcast, UDP,
                        0x10, false, 34, UDP, 68, 67, true),
                new Ipv4Vector("DHCP_REQUEST", Vectors.DHCP_REQUEST, 317, all, HOST1, NONE, 0, 0, broadcast, UDP,
                        0x10, false, 34, UDP, 68, 67, true),
                new Ipv4Vector("DHCP_ACK", Vectors.DHCP_ACK, 310, HOST1, ROUTER, NONE, 0, router, client, UDP, 0,
                        false, 34, UDP, 67, 68, true),
                new Ipv4Vector("VLAN_PING", Vectors.VLAN_PING, 54, HOST2, HOST1, 100, 5, IP1, IP2, ICMP, 0,
                        false, 38, ICMP, echo, 0, false),
                // a router alert option makes the header 24 bytes; IGMP has no transport fields in OpenFlow 1.0
                new Ipv4Vector("IGMP_RA", Vectors.IGMP_RA, 46, mdnsMac, HOST1, NONE, 0, IP1, mdns, 2, 0xc0,
                        false, 38, 0, 0, 0, false),
                // fragments carry no ports, the first included
                new Ipv4Vector("FRAG0", Vectors.FRAG0, 66, HOST2, HOST1, NONE, 0, IP1, IP2, UDP, 0,
                        true, 34, 0, 0, 0, false),
                new Ipv4Vector("FRAG1", Vectors.FRAG1, 66, HOST2, HOST1, NONE, 0, IP1, IP2, UDP, 0,
                        true, 34, 0, 0, 0, false),
                new Ipv4Vector("FRAG2", Vectors.FRAG2, 38, HOST2, HOST1, NONE, 0, IP1, IP2, UDP, 0,
                        true, 34, 0, 0, 0, false))) {
            wrap(v.hex(), v.length());
            try {
                assertLink(v.dst(), v.src(), v.vlan(), v.pcp(), Ethernet.TYPE_IPV4, v.vlan() == NONE ? 14 : 18);
                assertIpv4(v.ipSrc(), v.ipDst(), v.proto(), v.tos(), v.fragment(), v.l4Offset());
                assertTransport(v.transport(), v.tpSrc(), v.tpDst());
                assertEquals(v.dhcp(), f.isDhcp(), "dhcp");
                assertFalse(f.isLldp());
                assertDecodes();
            } catch (AssertionError e) {
                throw new AssertionError(v.name() + ": " + e.getMessage(), e);
            }
        }
    }

    @Test
    void spanningTreeBpduIsAnIeee8023FrameWithoutEtherType() {
        wrap(Vectors.STP_BPDU, 52);
        assertLink(MacAddress.parse("01:80:c2:00:00:00"), HOST1, NONE, 0, Frame.DL_TYPE_NOT_ETH_TYPE, 14);
        assertTrue(f.isMulticast());
        assertFalse(f.isBroadcast());
        assertNothingAboveTheLinkLayer();
        assertDecodes();
    }

    @Test
    void lldp() {
        wrap(Vectors.LLDP_LLDPD, 165);
        assertLink(LLDP_GROUP, HOST1, NONE, 0, Ethernet.TYPE_LLDP, 14);
        assertTrue(f.isLldp());
        assertNothingAboveTheLinkLayer();
        assertDecodes();
        wrap(Vectors.LLDP_IFNAME, 64);
        assertTrue(f.isLldp());
        assertDecodes();
    }

    @Test
    void onlyLldpIsLldp() {
        for (String v : new String[] {Vectors.ARP_REPLY, Vectors.TCP_SYN, Vectors.STP_BPDU, Vectors.VLAN_PING}) {
            wrap(v, hex(v).length);
            assertFalse(f.isLldp(), v);
        }
    }

    // ---- link layers the library does not know -----------------------------------------------------------------

    @Test
    void anEightZeroTwoDotOneAdTagIsTakenLikeAnEightZeroTwoDotOneQTag() {
        byte[] frame = retag(hex(Vectors.VLAN_PING), 0x88a8);
        wrapBytes(frame);
        assertLink(HOST2, HOST1, 100, 5, Ethernet.TYPE_IPV4, 18);
        assertIpv4(IP1, IP2, ICMP, 0, false, 38);
        assertTransport(ICMP, Icmp.ECHO_REQUEST, 0);
    }

    @Test
    void anInnerTagIsJustTheEtherType() {
        byte[] frame = concat(Arrays.copyOf(hex(Vectors.VLAN_PING), 16), hex("8100" + "0007"),
                Arrays.copyOfRange(hex(Vectors.VLAN_PING), 16, 54));
        wrapBytes(frame);
        assertLink(HOST2, HOST1, 100, 5, Ethernet.TYPE_VLAN, 18);
        assertNothingAboveTheLinkLayer();
        assertDecodes();
    }

    @Test
    void llcSnapCarryingIpv4IsReadThrough() {
        byte[] ping = hex(Vectors.PING_REQUEST);
        byte[] ip = Arrays.copyOfRange(ping, 14, ping.length);
        byte[] snap = hex("aaaa03" + "000000" + "0800");
        byte[] frame = concat(Arrays.copyOf(ping, 12), u16(snap.length + ip.length), snap, ip);
        wrapBytes(frame);
        assertLink(HOST2, HOST1, NONE, 0, Ethernet.TYPE_IPV4, 22);
        assertIpv4(IP1, IP2, ICMP, 0, false, 42);
        assertTransport(ICMP, Icmp.ECHO_REQUEST, 0);
        assertDecodes();
    }

    @Test
    void llcSnapWithAnOrganisationCodeOrASmallTypeIsNotAnEtherType() {
        for (String snap : new String[] {"aaaa03" + "00000c" + "2000", "aaaa03" + "000000" + "05ff",
            "aaaa03" + "000000" + "08"}) {
            wrapBytes(hex("525400abcdef" + "525400123456" + "0008" + snap));
            assertLink(HOST2, HOST1, NONE, 0, Frame.DL_TYPE_NOT_ETH_TYPE, 14);
            assertNothingAboveTheLinkLayer();
        }
    }

    @Test
    void rarpIsReadLikeArp() {
        byte[] frame = hex(Vectors.ARP_REPLY);
        frame[12] = (byte) 0x80;
        frame[13] = 0x35;
        wrapBytes(frame);
        assertLink(HOST1, HOST2, NONE, 0, 0x8035, 14);
        assertArp(Arp.REPLY, HOST2, IP2, HOST1, IP1);
    }

    @Test
    void arpForOtherHardwareOrProtocolsOrAWideOpcode() {
        byte[] ieee802 = hex(Vectors.ARP_REPLY);
        ieee802[15] = 6;
        wrapBytes(ieee802);
        assertNothingAboveTheLinkLayer();
        assertDecodes();

        byte[] wideOpcode = hex(Vectors.ARP_REPLY);
        wideOpcode[20] = 1;
        wrapBytes(wideOpcode);
        assertArp(0x0102, HOST2, IP2, HOST1, IP1);
        assertDecodes();
    }

    // ---- cut and malformed frames --------------------------------------------------------------------------

    @Test
    void framesShorterThanAnEthernetHeaderHaveNothing() {
        for (int n : new int[] {0, 1, 13}) {
            wrapBytes(Arrays.copyOf(hex(Vectors.TCP_SYN), n));
            assertFalse(f.isEthernet());
            assertLink(0, 0, NONE, 0, 0, 0);
            assertNothingAboveTheLinkLayer();
            assertThrows(PacketParseException.class, f::decode);
        }
        wrapBytes(Arrays.copyOf(hex(Vectors.TCP_SYN), 14));
        assertTrue(f.isEthernet());
        assertLink(HOST2, HOST1, NONE, 0, Ethernet.TYPE_IPV4, 14);
        assertNothingAboveTheLinkLayer();
    }

    @Test
    void aTagCutOffLeavesTheTpidAndNoVlan() {
        for (int n = 14; n < 18; n++) {
            wrapBytes(Arrays.copyOf(hex(Vectors.VLAN_PING), n));
            assertLink(HOST2, HOST1, NONE, 0, Ethernet.TYPE_VLAN, 14);
            assertNothingAboveTheLinkLayer();
        }
    }

    @Test
    void truncatedArpHasOnlyTheLinkLayer() {
        wrapBytes(Arrays.copyOf(hex(Vectors.ARP_REPLY), 41));
        assertLink(HOST1, HOST2, NONE, 0, Ethernet.TYPE_ARP, 14);
        assertNothingAboveTheLinkLayer();
    }

    @Test
    void aTruncatedOrInconsistentIpv4HeaderHasOnlyTheLinkLayer() {
        wrapBytes(Arrays.copyOf(hex(Vectors.TCP_SYN), 14 + 19));
        assertNothingAboveTheLinkLayer();
        byte[] ihl4 = hex(Vectors.TCP_SYN);
        ihl4[14] = 0x44;
        wrapBytes(ihl4);
        assertNothingAboveTheLinkLayer();
        byte[] optionsCut = Arrays.copyOf(hex(Vectors.IGMP_RA), 14 + 23);
        wrapBytes(optionsCut);
        assertNothingAboveTheLinkLayer();
        byte[] totalBelowHeader = hex(Vectors.IGMP_RA);
        totalBelowHeader[17] = 23;
        wrapBytes(totalBelowHeader);
        assertNothingAboveTheLinkLayer();
    }

    @Test
    void aFrameCutByMissSendLenStillGivesThePortsItHolds() {
        wrapBytes(Arrays.copyOf(hex(Vectors.TCP_SYN), 34 + 4));
        assertIpv4(IP1, IP2, TCP, 0x10, false, 34);
        assertTransport(TCP, 43512, 80);
        assertThrows(PacketParseException.class, f::decode);

        wrapBytes(Arrays.copyOf(hex(Vectors.TCP_SYN), 34 + 3));
        assertIpv4(IP1, IP2, TCP, 0x10, false, 34);
        assertTransport(0, 0, 0);

        wrapBytes(Arrays.copyOf(hex(Vectors.PING_REQUEST), 34 + 2));
        assertTransport(ICMP, Icmp.ECHO_REQUEST, 0);
        wrapBytes(Arrays.copyOf(hex(Vectors.PING_REQUEST), 34 + 1));
        assertTransport(0, 0, 0);
    }

    @Test
    void aDatagramTooShortForItsTransportHeaderHasNoPorts() {
        byte[] udp = hex(Vectors.UDP_NOCSUM);
        udp[17] = 20 + 7; // total length: 7 bytes of UDP, the rest of the frame is padding
        wrapBytes(udp);
        assertIpv4(IP1, IP2, UDP, 0, false, 34);
        assertTransport(0, 0, 0);
        assertFalse(f.isDhcp());
    }

    // ---- the view and its lifetime ---------------------------------------------------------------------------

    @Test
    void theViewIsPositionToLimitAndTheBufferIsLeftAsItWas() {
        byte[] frame = hex(Vectors.VLAN_PING);
        for (Kind kind : Kind.values()) {
            ByteBuffer buf = Views.embedded(frame, kind, (byte) 0xff);
            int position = buf.position();
            byte[] before = Views.all(buf);
            f.wrap(buf);
            assertEquals(position, f.offset());
            assertEquals(frame.length, f.length());
            assertEquals(position + 38, f.l4Offset());
            assertLink(HOST2, HOST1, 100, 5, Ethernet.TYPE_IPV4, position + 18);
            assertTransport(ICMP, Icmp.ECHO_REQUEST, 0);
            assertEquals(new Frame().wrap(ByteBuffer.wrap(frame)).toString(), f.toString());
            assertEquals(position, buf.position());
            assertEquals(position + frame.length, buf.limit());
            assertArrayEquals(before, Views.all(buf));
            assertDecodes();
        }
    }

    @Test
    void aLittleEndianBufferIsReadThroughABigEndianDuplicate() {
        ByteBuffer little = ByteBuffer.wrap(hex(Vectors.ARP_REPLY)).order(ByteOrder.LITTLE_ENDIAN);
        f.wrap(little);
        assertNotSame(little, f.buffer());
        assertEquals(ByteOrder.LITTLE_ENDIAN, little.order());
        assertArp(Arp.REPLY, HOST2, IP2, HOST1, IP1);
        ByteBuffer big = ByteBuffer.wrap(hex(Vectors.ARP_REPLY));
        assertSame(big, f.wrap(big).buffer());
    }

    @Test
    void wrapForgetsThePreviousFrame() {
        wrap(Vectors.TCP_SYN, 74);
        assertTransport(TCP, 43512, 80);
        wrap(Vectors.ARP_REQUEST, 60);
        assertArp(Arp.REQUEST, HOST1, IP1, 0, IP2);
        assertTransport(0, 0, 0);
        assertFalse(f.isIpv4());
        wrapBytes(new byte[3]);
        assertLink(0, 0, NONE, 0, 0, 0);
        assertNothingAboveTheLinkLayer();
    }

    @Test
    void aNewFrameIsAnEmptyView() throws Exception {
        var empty = new Frame();
        assertEquals(0, empty.length());
        assertFalse(empty.isEthernet());
        assertEquals(Frame.VLAN_NONE, empty.vlanId());
        assertFalse(empty.isIpv4() || empty.isArp());
        assertThrows(PacketParseException.class, empty::decode);
        assertEquals("Frame[0 bytes, no Ethernet header]", empty.toString());
    }

    @Test
    void toStringShowsTheLinkLayer() {
        wrap(Vectors.VLAN_PING, 54);
        assertEquals("Frame[52:54:00:12:34:56 > 52:54:00:ab:cd:ef, vlan 100, type 0x0800, 54 bytes]", f.toString());
    }

    @Test
    void wrapAndTheGettersAllocateNothing() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ByteBuffer[] frames = PacketArbitraries.referenceFrames().stream()
                .map(b -> ByteBuffer.allocateDirect(b.length).put(b).flip()).toArray(ByteBuffer[]::new);
        long sum = readAll(frames); // first calls load classes
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 1000; i++) {
            sum += readAll(frames);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 1024, allocated + " bytes allocated (checksum " + sum + ")");
    }

    private long readAll(ByteBuffer[] frames) {
        long sum = 0;
        for (ByteBuffer b : frames) {
            f.wrap(b);
            sum += f.dlDst() + f.dlSrc() + f.vlanId() + f.etherType() + f.ipv4Src() + f.ipv4Dst() + f.tpSrc()
                    + f.tpDst() + f.arpSenderMac() + f.arpTargetIp() + (f.isDhcp() ? 1 : 0) + (f.isMulticast() ? 1 : 0);
        }
        return sum;
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    private void wrap(String vector, int expectedLength) {
        wrapBytes(hex(vector));
        assertEquals(expectedLength, f.length());
    }

    private void wrapBytes(byte[] frame) {
        assertSame(f, f.wrap(ByteBuffer.wrap(frame)));
        assertEquals(0, f.offset());
        assertEquals(frame.length, f.length());
    }

    private void assertLink(long dst, long src, int vlan, int pcp, int etherType, int l3Offset) {
        assertEquals(Long.toHexString(dst), Long.toHexString(f.dlDst()), "dl_dst");
        assertEquals(Long.toHexString(src), Long.toHexString(f.dlSrc()), "dl_src");
        assertEquals(dst == MacAddress.BROADCAST, f.isBroadcast());
        assertEquals(MacAddress.isMulticast(dst), f.isMulticast());
        assertEquals(vlan, f.vlanId(), "vlan");
        assertEquals(pcp, f.vlanPcp(), "pcp");
        assertEquals(Integer.toHexString(etherType), Integer.toHexString(f.etherType()), "ether type");
        assertEquals(l3Offset, f.l3Offset(), "l3 offset");
    }

    private void assertArp(int opcode, long senderMac, int senderIp, long targetMac, int targetIp) {
        assertTrue(f.isArp());
        assertEquals(opcode, f.arpOpcode());
        assertEquals(senderMac, f.arpSenderMac());
        assertEquals(senderIp, f.arpSenderIp());
        assertEquals(targetMac, f.arpTargetMac());
        assertEquals(targetIp, f.arpTargetIp());
        assertFalse(f.isIpv4());
        assertEquals(0, f.ipv4Src());
        assertEquals(0, f.ipProto());
        assertTransport(0, 0, 0);
    }

    private void assertIpv4(int src, int dst, int proto, int tos, boolean fragment, int l4Offset) {
        assertTrue(f.isIpv4());
        assertFalse(f.isArp());
        assertEquals(0, f.arpSenderIp());
        assertEquals(0, f.arpTargetMac());
        assertEquals(IPv4Address.toString(src), IPv4Address.toString(f.ipv4Src()));
        assertEquals(IPv4Address.toString(dst), IPv4Address.toString(f.ipv4Dst()));
        assertEquals(proto, f.ipProto());
        assertEquals(tos, f.ipTos());
        assertEquals(fragment, f.isFragment());
        assertEquals(l4Offset, f.l4Offset());
    }

    /** {@code protocol} 0: no transport fields. */
    private void assertTransport(int protocol, int tpSrc, int tpDst) {
        assertEquals(protocol == TCP, f.isTcp(), "tcp");
        assertEquals(protocol == UDP, f.isUdp(), "udp");
        assertEquals(protocol == ICMP, f.isIcmp(), "icmp");
        assertEquals(tpSrc, f.tpSrc(), "tp_src");
        assertEquals(tpDst, f.tpDst(), "tp_dst");
    }

    private void assertNothingAboveTheLinkLayer() {
        assertFalse(f.isArp());
        assertEquals(0, f.arpOpcode());
        assertEquals(0, f.arpSenderMac());
        assertEquals(0, f.arpSenderIp());
        assertEquals(0, f.arpTargetMac());
        assertEquals(0, f.arpTargetIp());
        assertFalse(f.isIpv4());
        assertEquals(0, f.ipv4Src());
        assertEquals(0, f.ipv4Dst());
        assertEquals(0, f.ipProto());
        assertEquals(0, f.ipTos());
        assertFalse(f.isFragment());
        assertEquals(0, f.l4Offset());
        assertTransport(0, 0, 0);
        assertFalse(f.isDhcp());
    }

    private void assertDecodes() {
        assertTrue(FrameAgreement.check(f), "the packet library decodes it");
    }

    private static int ip(String text) {
        return IPv4Address.parse(text);
    }

    private static byte[] retag(byte[] frame, int tpid) {
        frame[12] = (byte) (tpid >>> 8);
        frame[13] = (byte) tpid;
        return frame;
    }

    private static byte[] u16(int v) {
        return new byte[] {(byte) (v >>> 8), (byte) v};
    }

    private static byte[] concat(byte[]... parts) {
        var out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
