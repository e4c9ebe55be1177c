package net.beaconcontroller.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.HexFormat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/** Shared helpers for the OFMatch tests: hex vectors, byte round trips and random matches. */
final class OFMatchFixtures {
    private OFMatchFixtures() {
    }

    /** Bytes from hex digits; spaces and line breaks are ignored so vectors can be laid out by field. */
    static byte[] hex(String digits) {
        return HexFormat.of().parseHex(digits.replaceAll("\\s+", ""));
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    static byte[] bytes(OFMatch m) {
        var buf = ByteBuffer.allocate(OFMatch.LENGTH);
        m.writeTo(buf);
        assertEquals(OFMatch.LENGTH, buf.position(), "writeTo moves the position by 40");
        return buf.array();
    }

    static OFMatch read(byte[] b) throws OFParseException {
        var buf = ByteBuffer.wrap(b);
        OFMatch m = OFMatch.readFrom(buf);
        assertEquals(OFMatch.LENGTH, buf.position(), "readFrom moves the position by 40");
        return m;
    }

    /** Compares every accessor, not the packet-set equality of {@link OFMatch#equals}. */
    static void assertSameFields(OFMatch expected, OFMatch actual) {
        assertEquals(expected.toString(), actual.toString());
        assertEquals(Integer.toHexString(expected.wildcards()), Integer.toHexString(actual.wildcards()), "wildcards");
        assertEquals(expected.inPort(), actual.inPort(), "in_port");
        assertEquals(Long.toHexString(expected.dlSrc()), Long.toHexString(actual.dlSrc()), "dl_src");
        assertEquals(Long.toHexString(expected.dlDst()), Long.toHexString(actual.dlDst()), "dl_dst");
        assertEquals(expected.dlVlan(), actual.dlVlan(), "dl_vlan");
        assertEquals(expected.dlVlanPcp(), actual.dlVlanPcp(), "dl_vlan_pcp");
        assertEquals(Integer.toHexString(expected.dlType()), Integer.toHexString(actual.dlType()), "dl_type");
        assertEquals(expected.nwTos(), actual.nwTos(), "nw_tos");
        assertEquals(expected.nwProto(), actual.nwProto(), "nw_proto");
        assertEquals(Integer.toHexString(expected.nwSrc()), Integer.toHexString(actual.nwSrc()), "nw_src");
        assertEquals(Integer.toHexString(expected.nwDst()), Integer.toHexString(actual.nwDst()), "nw_dst");
        assertEquals(expected.tpSrc(), actual.tpSrc(), "tp_src");
        assertEquals(expected.tpDst(), actual.tpDst(), "tp_dst");
    }

    static Arbitrary<Long> macs() {
        return Arbitraries.longs().between(0, 0xffff_ffff_ffffL).edgeCases(c -> c.add(0xffff_ffff_ffffL));
    }

    static Arbitrary<Integer> u16() {
        return Arbitraries.integers().between(0, 0xffff);
    }

    static Arbitrary<Integer> vlans() {
        return Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(OFMatch.VLAN_NONE)),
                Tuple.of(4, Arbitraries.integers().between(0, 4095)));
    }

    /**
     * Matches built through the builder with every field set in range, then a random set of fields wildcarded
     * again (their values stay, as on the wire), and random nw prefixes.
     */
    static Arbitrary<OFMatch> matches() {
        Arbitrary<OFMatch.Builder> link = Combinators.combine(u16(), macs(), macs(), vlans(),
                Arbitraries.integers().between(0, 7), u16())
                .as((in, src, dst, vlan, pcp, type) -> OFMatch.builder().inPort(in).dlSrc(src).dlDst(dst)
                        .dlVlan(vlan).dlVlanPcp(pcp).dlType(type));
        Arbitrary<Integer> ips = Arbitraries.integers();
        Arbitrary<Integer> prefixes = Arbitraries.integers().between(0, 32);
        return Combinators.combine(link, Arbitraries.integers().between(0, 63), Arbitraries.integers().between(0, 255),
                ips, prefixes, ips, prefixes, Arbitraries.integers())
                .as((b, dscp, proto, nwSrc, srcLen, nwDst, dstLen, ports) -> b.nwTos(dscp << 2).nwProto(proto)
                        .nwSrc(nwSrc, srcLen).nwDst(nwDst, dstLen).tpSrc(ports & 0xffff).tpDst(ports >>> 16))
                .flatMap(b -> Arbitraries.integers().between(0, OFMatch.OFPFW_ALL)
                        .map(w -> b.wildcard(w & ~(OFMatch.OFPFW_NW_SRC_MASK | OFMatch.OFPFW_NW_DST_MASK)).build()));
    }

    /**
     * Random bytes behind a plausible Ethernet header (every kind of tag, LLC/SNAP, ARP, IPv4 with any IHL and a
     * transport protocol), so that every path of the frame parsing is reached with garbage.
     */
    static Arbitrary<byte[]> packetFrames() {
        Arbitrary<Integer> types = Arbitraries.of(0x0800, 0x0806, 0x8035, 0x8100, 0x88a8, 0x86dd, 0x0026, 0x05ff,
                0x0600);
        Arbitrary<byte[]> rest = Arbitraries.bytes().array(byte[].class).ofMaxSize(100);
        Arbitrary<Integer> vihl = Arbitraries.integers().between(0x40, 0x4f);
        return Combinators.combine(types, types, vihl, Arbitraries.of(0, 6, 17, 1, 132), rest)
                .as((outer, inner, ihl, proto, tail) -> {
                    var f = ByteBuffer.allocate(12 + 2 + 4 + 8 + 10 + tail.length);
                    f.position(12);
                    f.putShort(outer.shortValue());
                    if (outer == 0x8100 || outer == 0x88a8) {
                        f.putShort((short) 0x2005).putShort(inner.shortValue());
                    }
                    if (inner < 0x0600 || outer < 0x0600) {
                        f.put(new byte[] {(byte) 0xaa, (byte) 0xaa, 3, 0, 0, 0, 8, 0});
                    }
                    f.put(ihl.byteValue()).put((byte) 0).putShort((short) (tail.length + 10)).putInt(0)
                            .put((byte) 64).put(proto.byteValue());
                    f.put(tail, 0, Math.min(tail.length, f.remaining()));
                    return f.array();
                });
    }
}
