package net.beaconcontroller.openflow;

import static net.beaconcontroller.openflow.OFMatch.OFPFW_ALL;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_DL_TYPE;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_DL_VLAN;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_DL_VLAN_PCP;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_IN_PORT;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_NW_DST_ALL;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_NW_SRC_ALL;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_NW_SRC_MASK;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_NW_TOS;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_TP_DST;
import static net.beaconcontroller.openflow.OFMatch.OFPFW_TP_SRC;
import static net.beaconcontroller.openflow.OFMatchFixtures.bytes;
import static net.beaconcontroller.openflow.OFMatchFixtures.hex;
import static net.beaconcontroller.openflow.OFMatchFixtures.read;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

/** The 40-byte wire form, equality and the builder. */
class OFMatchTest {
    /** A TCP flow: nw_src /24, dl_vlan_pcp wildcarded; values with the top bit set test unsigned handling. */
    static final String TCP_VECTOR = """
            00100800
            0003
            fedcba987654
            66778899aabb
            0ffe 00 00
            0800
            b8 06 0000
            c0a80100
            0a000001
            c350 01bb
            """;

    /** An ARP flow from the switch's LOCAL port, untagged, transport fields and ToS wildcarded. */
    static final String ARP_VECTOR = """
            002000c0
            fffe
            000000000001
            ffffffffffff
            ffff 00 00
            0806
            00 01 0000
            0a000001
            0a000002
            0000 0000
            """;

    @Test
    void readsEveryFieldOfTheTcpVectorAndWritesTheSameBytes() throws Exception {
        byte[] wire = hex(TCP_VECTOR);
        OFMatch m = read(wire);
        assertEquals(0x00100800, m.wildcards());
        assertEquals(3, m.inPort());
        assertEquals(0xfedcba987654L, m.dlSrc());
        assertEquals(0x66778899aabbL, m.dlDst());
        assertEquals(4094, m.dlVlan());
        assertEquals(0, m.dlVlanPcp());
        assertEquals(0x0800, m.dlType());
        assertEquals(0xb8, m.nwTos());
        assertEquals(6, m.nwProto());
        assertEquals(0xc0a80100, m.nwSrc());
        assertEquals(24, m.nwSrcPrefixLength());
        assertEquals(0x0a000001, m.nwDst());
        assertEquals(32, m.nwDstPrefixLength());
        assertEquals(50000, m.tpSrc());
        assertEquals(443, m.tpDst());
        assertArrayEquals(wire, bytes(m));
    }

    @Test
    void readsEveryFieldOfTheArpVectorAndWritesTheSameBytes() throws Exception {
        byte[] wire = hex(ARP_VECTOR);
        OFMatch m = read(wire);
        assertEquals(OFPFW_NW_TOS | OFPFW_TP_SRC | OFPFW_TP_DST, m.wildcards());
        assertEquals(OFPort.LOCAL, m.inPort());
        assertEquals(1L, m.dlSrc());
        assertEquals(0xffffffffffffL, m.dlDst());
        assertEquals(OFMatch.VLAN_NONE, m.dlVlan());
        assertEquals(0, m.dlVlanPcp());
        assertEquals(0x0806, m.dlType());
        assertEquals(1, m.nwProto());
        assertEquals(0x0a000001, m.nwSrc());
        assertEquals(0x0a000002, m.nwDst());
        assertArrayEquals(wire, bytes(m));
    }

    @Test
    void theBuilderProducesTheVectorBytes() {
        OFMatch built = OFMatch.builder().inPort(3).dlSrc(0xfedcba987654L).dlDst(0x66778899aabbL).dlVlan(4094)
                .dlType(0x0800).nwTos(0xb8).nwProto(6).nwSrc(0xc0a801ff, 24).nwDst(0x0a000001).tpSrc(50000)
                .tpDst(443).build();
        assertArrayEquals(hex(TCP_VECTOR), bytes(built));
    }

    @Test
    void allWildcardsEveryFieldWithOfpfwAll() throws Exception {
        assertArrayEquals(hex("003fffff" + "00".repeat(36)), bytes(OFMatch.ALL));
        assertEquals(OFPFW_ALL, OFMatch.ALL.wildcards());
        assertEquals(0, OFMatch.ALL.nwSrcPrefixLength());
        assertEquals(0, OFMatch.ALL.nwDstPrefixLength());
        assertTrue(OFMatch.ALL.isWildcarded(OFPFW_ALL));
        assertEquals(OFMatch.ALL, read(hex("003fffff" + "00".repeat(36))));
    }

    @Test
    void readsAndWritesAtTheBufferPosition() throws Exception {
        byte[] wire = hex(TCP_VECTOR);
        var buf = ByteBuffer.allocate(50);
        buf.position(7);
        buf.put(wire);
        buf.position(7);
        OFMatch m = OFMatch.readFrom(buf);
        assertEquals(47, buf.position());
        var out = ByteBuffer.allocate(50);
        out.position(3);
        m.writeTo(out);
        assertEquals(43, out.position());
        assertArrayEquals(wire, java.util.Arrays.copyOfRange(out.array(), 3, 43));
    }

    @Test
    void aTruncatedMatchIsAParseErrorAndMovesNothing() {
        var buf = ByteBuffer.wrap(hex(TCP_VECTOR), 0, 39);
        var e = assertThrows(OFParseException.class, () -> OFMatch.readFrom(buf));
        assertTrue(e.getMessage().contains("39 bytes left"), e.getMessage());
        assertEquals(0, buf.position());
    }

    @Test
    void writingIntoTooSmallABufferWritesNothing() {
        var buf = ByteBuffer.allocate(39);
        assertThrows(BufferOverflowException.class, () -> OFMatch.ALL.writeTo(buf));
        assertEquals(0, buf.position());
    }

    @Test
    void paddingIsIgnoredOnReadAndZeroOnWrite() throws Exception {
        byte[] wire = hex(TCP_VECTOR);
        byte[] padded = wire.clone();
        padded[21] = 0x55;
        padded[26] = (byte) 0xaa;
        padded[27] = 0x01;
        assertArrayEquals(wire, bytes(read(padded)));
    }

    @Test
    void valuesOfWildcardedFieldsAreKeptOnTheWireButDoNotMatter() throws Exception {
        // every field wildcarded, every value non-zero: as old Beacon wrote matches built from a packet
        byte[] junk = hex("003fffff 0001 000000000002 000000000003 0004 05 00 0806 08 09 0000 0a0b0c0d 0e0f1011 "
                + "1213 1415");
        OFMatch m = read(junk);
        assertArrayEquals(junk, bytes(m), "the wire bytes survive");
        assertEquals(OFMatch.ALL, m);
        assertEquals(OFMatch.ALL.hashCode(), m.hashCode());
        assertEquals("*", m.toString());
    }

    @Test
    void nwWildcardCountsFrom32To63AllMeanTheWholeAddress() throws Exception {
        OFMatch ovsStyle = read(hex("003820ff" + "00".repeat(36)));
        OFMatch sixtyThree = read(hex("003fffff" + "00".repeat(36)));
        OFMatch fortyAndThirtyThree = read(hex("%08x".formatted(0x300000 | 33 << 14 | 40 << 8 | 0xff)
                + "00".repeat(36)));
        assertEquals(sixtyThree, ovsStyle);
        assertEquals(sixtyThree, fortyAndThirtyThree);
        assertEquals(sixtyThree.hashCode(), fortyAndThirtyThree.hashCode());
        assertEquals(0, fortyAndThirtyThree.nwSrcPrefixLength());
        assertEquals(0, fortyAndThirtyThree.nwDstPrefixLength());
        assertTrue(fortyAndThirtyThree.isWildcarded(OFPFW_NW_SRC_ALL | OFPFW_NW_DST_ALL));
    }

    @Test
    void wildcardBitsAbove21AreIgnored() throws Exception {
        OFMatch high = read(hex("ffc00000" + "00".repeat(36)));
        OFMatch exact = read(hex("00000000" + "00".repeat(36)));
        assertEquals(exact, high);
        assertEquals(exact.hashCode(), high.hashCode());
        assertEquals(0xffc00000, high.wildcards(), "kept as read");
    }

    @Test
    void hostBitsBeyondThePrefixDoNotMatter() {
        OFMatch a = OFMatch.builder().wildcards(OFPFW_ALL & ~OFPFW_NW_SRC_MASK | 8 << 8).build();
        OFMatch b = a.toBuilder().nwSrc(0x0a0000ff, 24).build();
        OFMatch c = a.toBuilder().nwSrc(0x0a000000, 24).build();
        assertEquals(b, c);
        assertEquals(0x0a000000, b.nwSrc(), "the builder clears host bits");
        assertNotEquals(c, c.toBuilder().nwSrc(0x0a000100, 24).build());
    }

    @Test
    void outOfRangeValuesCountByTheirFieldBitsAsASwitchReadsThem() throws Exception {
        String rest = "0000 000000000000 000000000000 %s %s 00 0000 %s 00 0000 00000000 00000000 0000 0000";
        OFMatch raw = read(hex("00000000" + rest.formatted("100a", "0d", "b9")));
        OFMatch canonical = read(hex("00000000" + rest.formatted("000a", "05", "b8")));
        assertEquals(canonical, raw);
        assertEquals(canonical.hashCode(), raw.hashCode());
        assertEquals(0x100a, raw.dlVlan(), "accessors give the wire value");
        assertEquals(canonical.toString(), raw.toString());
        OFMatch untagged = read(hex("00000000" + rest.formatted("ffff", "00", "00")));
        assertNotEquals(untagged, read(hex("00000000" + rest.formatted("0fff", "00", "00"))));
    }

    @Test
    void differentValuesOfAnExactFieldAreNotEqual() {
        OFMatch base = OFMatch.builder().inPort(1).build();
        assertNotEquals(base, OFMatch.builder().inPort(2).build());
        assertNotEquals(base, OFMatch.ALL);
        assertNotEquals(base, base.toBuilder().dlType(0x0800).build());
        assertFalse(base.equals("in_port=1"));
    }

    @Test
    void everyBuilderSetterClearsItsWildcardBit() {
        assertEquals(OFPFW_ALL & ~OFPFW_IN_PORT, OFMatch.builder().inPort(0).build().wildcards());
        assertEquals(OFPFW_ALL & ~OFMatch.OFPFW_DL_SRC, OFMatch.builder().dlSrc(0).build().wildcards());
        assertEquals(OFPFW_ALL & ~OFMatch.OFPFW_DL_DST, OFMatch.builder().dlDst(0).build().wildcards());
        assertEquals(OFPFW_ALL & ~OFPFW_DL_VLAN, OFMatch.builder().dlVlan(0).build().wildcards());
        assertEquals(OFPFW_ALL & ~OFPFW_DL_VLAN_PCP, OFMatch.builder().dlVlanPcp(0).build().wildcards());
        assertEquals(OFPFW_ALL & ~OFPFW_DL_TYPE, OFMatch.builder().dlType(0).build().wildcards());
        assertEquals(OFPFW_ALL & ~OFPFW_NW_TOS, OFMatch.builder().nwTos(0).build().wildcards());
        assertEquals(OFPFW_ALL & ~OFMatch.OFPFW_NW_PROTO, OFMatch.builder().nwProto(0).build().wildcards());
        assertEquals(OFPFW_ALL & ~OFPFW_NW_SRC_MASK, OFMatch.builder().nwSrc(0).build().wildcards());
        assertEquals(OFPFW_ALL & ~OFMatch.OFPFW_NW_DST_MASK, OFMatch.builder().nwDst(0).build().wildcards());
        assertEquals(OFPFW_ALL & ~OFPFW_TP_SRC, OFMatch.builder().tpSrc(0).build().wildcards());
        assertEquals(OFPFW_ALL & ~OFPFW_TP_DST, OFMatch.builder().tpDst(0).build().wildcards());
    }

    @Test
    void prefixLengthsMapToWildcardCounts() {
        OFMatch m = OFMatch.builder().nwSrc(0xffffffff, 1).nwDst(0xffffffff, 31).build();
        assertEquals(0x80000000, m.nwSrc());
        assertEquals(31 << 8, m.wildcards() & OFPFW_NW_SRC_MASK);
        assertEquals(1, m.nwSrcPrefixLength());
        assertEquals(0xfffffffe, m.nwDst());
        assertEquals(31, m.nwDstPrefixLength());
        OFMatch none = OFMatch.builder().nwSrc(0x01020304, 0).build();
        assertEquals(0, none.nwSrc());
        assertTrue(none.isWildcarded(OFPFW_NW_SRC_ALL));
        assertEquals(OFMatch.ALL, none);
    }

    @Test
    void wildcardOnlyEverWidensTheMatch() {
        OFMatch exact = OFMatch.builder().wildcards(0).nwSrc(0x0a000000, 8).nwDst(0x0a000000, 8).build();
        OFMatch wider = exact.toBuilder().wildcard(OFPFW_IN_PORT | 16 << 8 | OFPFW_NW_DST_ALL).build();
        assertEquals(OFPFW_IN_PORT | 24 << 8 | OFPFW_NW_DST_ALL, wider.wildcards(), "/8 stays /8, dst goes away");
        assertEquals(8, wider.nwSrcPrefixLength());
        assertEquals(0, wider.nwDstPrefixLength());
        assertEquals(8, exact.toBuilder().wildcard(8 << 8).build().nwSrcPrefixLength(),
                "a smaller count than the current one changes nothing");
    }

    @Test
    void toBuilderKeepsEverything() throws Exception {
        OFMatch m = read(hex(TCP_VECTOR));
        OFMatchFixtures.assertSameFields(m, m.toBuilder().build());
    }

    @Test
    void theBuilderRejectsOutOfRangeValuesNamingTheField() {
        var b = OFMatch.builder();
        assertMessage("inPort", assertThrows(IllegalArgumentException.class, () -> b.inPort(0x10000)));
        assertMessage("inPort", assertThrows(IllegalArgumentException.class, () -> b.inPort(-1)));
        assertMessage("dlSrc", assertThrows(IllegalArgumentException.class, () -> b.dlSrc(1L << 48)));
        assertMessage("dlDst", assertThrows(IllegalArgumentException.class, () -> b.dlDst(-1L)));
        assertMessage("dlVlan", assertThrows(IllegalArgumentException.class, () -> b.dlVlan(4096)));
        assertMessage("dlVlan", assertThrows(IllegalArgumentException.class, () -> b.dlVlan(0xfffe)));
        assertMessage("dlVlanPcp", assertThrows(IllegalArgumentException.class, () -> b.dlVlanPcp(8)));
        assertMessage("dlType", assertThrows(IllegalArgumentException.class, () -> b.dlType(0x10000)));
        assertMessage("nwTos", assertThrows(IllegalArgumentException.class, () -> b.nwTos(1)));
        assertMessage("nwTos", assertThrows(IllegalArgumentException.class, () -> b.nwTos(0x100)));
        assertMessage("nwProto", assertThrows(IllegalArgumentException.class, () -> b.nwProto(256)));
        assertMessage("nwSrc prefixLength", assertThrows(IllegalArgumentException.class, () -> b.nwSrc(0, 33)));
        assertMessage("nwDst prefixLength", assertThrows(IllegalArgumentException.class, () -> b.nwDst(0, -1)));
        assertMessage("tpSrc", assertThrows(IllegalArgumentException.class, () -> b.tpSrc(65536)));
        assertMessage("tpDst", assertThrows(IllegalArgumentException.class, () -> b.tpDst(-1)));
        assertEquals(OFMatch.ALL, b.build(), "rejected values leave the builder unchanged");
    }

    @Test
    void edgeValuesAreAccepted() {
        OFMatch m = OFMatch.builder().inPort(0xffff).dlSrc(0xffffffffffffL).dlVlan(OFMatch.VLAN_NONE).dlVlanPcp(7)
                .dlType(0xffff).nwTos(0xfc).nwProto(255).tpSrc(0xffff).tpDst(0xffff).build();
        assertEquals(0xffff, m.inPort());
        assertEquals(0xffffffffffffL, m.dlSrc());
        assertEquals(0xfc, m.nwTos());
    }

    @Test
    void normalizedDropsTheFieldsWhosePrerequisitesAreMissingAsOpenVSwitchDoes() {
        // No dl_type: no network or transport field counts.
        assertEquals(OFMatch.parse("in_port=1"), OFMatch.parse("in_port=1,nw_src=10.0.0.1").normalized());
        assertEquals(OFMatch.parse("*"), OFMatch.builder().nwProto(6).tpDst(80).nwTos(8).build().normalized());
        // IPv4 with a protocol that has no ports: the ports go, the addresses and the protocol stay.
        assertEquals(OFMatch.parse("ip,nw_proto=47,nw_dst=10.0.0.0/8"),
                OFMatch.parse("ip,nw_proto=47,nw_dst=10.0.0.0/8,tp_dst=80").normalized());
        // ARP: addresses and opcode stay, ToS goes.
        var arp = OFMatch.builder().dlType(0x0806).nwProto(1).nwSrc(0x0a000001).nwTos(4).build();
        assertEquals(OFMatch.builder().dlType(0x0806).nwProto(1).nwSrc(0x0a000001).build(), arp.normalized());
        // Untagged frames have no priority.
        assertEquals(OFMatch.builder().dlVlan(OFMatch.VLAN_NONE).build(),
                OFMatch.builder().dlVlan(OFMatch.VLAN_NONE).dlVlanPcp(3).build().normalized());
        // Complete matches are kept as they are.
        for (var text : new String[] {"tcp,nw_src=10.0.0.1,tp_dst=80", "udp,tp_src=53", "icmp,icmp_type=8",
                "dl_vlan=5,dl_vlan_pcp=3", "ip,nw_tos=32", "*"}) {
            var m = OFMatch.parse(text);
            assertTrue(m == m.normalized(), text);
        }
    }

    private static void assertMessage(String field, IllegalArgumentException e) {
        assertTrue(e.getMessage().startsWith(field + " "), e.getMessage());
    }
}
