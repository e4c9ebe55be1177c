package net.beaconcontroller.openflow;

import static net.beaconcontroller.openflow.OFMatchFixtures.assertSameFields;
import static net.beaconcontroller.openflow.OFMatchFromPacketTest.arp;
import static net.beaconcontroller.openflow.OFMatchFromPacketTest.bytes;
import static net.beaconcontroller.openflow.OFMatchFromPacketTest.concat;
import static net.beaconcontroller.openflow.OFMatchFromPacketTest.eth;
import static net.beaconcontroller.openflow.OFMatchFromPacketTest.icmp;
import static net.beaconcontroller.openflow.OFMatchFromPacketTest.ipv4;
import static net.beaconcontroller.openflow.OFMatchFromPacketTest.tagged;
import static net.beaconcontroller.openflow.OFMatchFromPacketTest.tcp;
import static net.beaconcontroller.openflow.OFMatchFromPacketTest.udp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import net.beaconcontroller.packet.Frame;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * {@link OFMatch#fromFrame} gives what {@code fromPacket} gave before {@link Frame} existed. The old algorithm is
 * kept below, in the tests only, as the oracle; one Frame is reused for every frame, as an I/O thread does, and the
 * frame is read both alone and as a view amid garbage.
 */
class OFMatchFromFrameTest {
    private static final long SRC = 0xf0e1d2c3b4a5L;
    private static final long DST = 0x0a0b0c0d0e0fL;
    private static final int SRC_IP = 0xc0a80a01;
    private static final int DST_IP = 0x0a000002;
    private static final byte[] SNAP_IPV4 = bytes(0xaa, 0xaa, 0x03, 0, 0, 0, 0x08, 0x00);

    /** A frame of every kind fromPacket tells apart, as seeds for mutation. */
    private static final List<byte[]> SEEDS = List.of(
            eth(0xffffffffffffL, SRC, 0x0806, arp(1, SRC, SRC_IP, 0, DST_IP)),
            eth(DST, SRC, 0x8035, arp(4, SRC, SRC_IP, DST, DST_IP)),
            tagged(DST, SRC, 0x8100, 0x6064, 0x0806, arp(2, SRC, SRC_IP, DST, DST_IP)),
            eth(DST, SRC, 0x0800, ipv4(5, 0xbb, 6, 0x4000, tcp(50000, 443))),
            tagged(DST, SRC, 0x8100, 0xbfff, 0x0800, ipv4(5, 0x20, 17, 0, udp(53, 65535, 4))),
            tagged(DST, SRC, 0x88a8, 0x0064, 0x0800, ipv4(6, 0, 1, 0, icmp(8, 0))),
            eth(DST, SRC, 0x0800, ipv4(15, 0, 17, 0, udp(68, 67, 12))),
            eth(DST, SRC, 0x0800, ipv4(5, 0, 132, 0, concat(tcp(2905, 2906), new byte[12]))),
            eth(DST, SRC, 0x0800, ipv4(5, 0, 6, 0x2000, tcp(1234, 80))),
            eth(DST, SRC, 0x0800, ipv4(5, 0, 17, 185, udp(1, 2, 8))),
            eth(DST, SRC, SNAP_IPV4.length + 28, concat(SNAP_IPV4, ipv4(5, 0x10, 17, 0, udp(123, 123, 0)))),
            eth(0x0180c2000000L, SRC, 38, concat(bytes(0x42, 0x42, 0x03), new byte[35])),
            tagged(DST, SRC, 0x8100, 0x000a, 0x8100, concat(bytes(0, 20, 0x08, 0x00), ipv4(5, 0, 6, 0, tcp(1, 2)))),
            eth(0x333300000001L, SRC, 0x86dd, new byte[60]));

    private final Frame frame = new Frame();

    @Test
    void everySeedGivesWhatTheOldAlgorithmGave() {
        for (byte[] seed : SEEDS) {
            for (int cut = 0; cut <= seed.length; cut++) {
                check(Arrays.copyOf(seed, cut), 0, cut, 7);
            }
        }
    }

    @Test
    void theInputPortMustBeSixteenBits() {
        frame.wrap(ByteBuffer.wrap(SEEDS.get(0)));
        assertThrows(IllegalArgumentException.class, () -> OFMatch.fromFrame(frame, 0x10000));
        assertThrows(IllegalArgumentException.class, () -> OFMatch.fromFrame(frame, -1));
        assertEquals(0xffff, OFMatch.fromFrame(frame, 0xffff).inPort());
    }

    @Provide
    Arbitrary<byte[]> seeds() {
        return Arbitraries.of(SEEDS).map(byte[]::clone);
    }

    @Property(tries = 3000)
    void mutatedFrames(@ForAll("seeds") byte[] seed,
            @ForAll @Size(min = 1, max = 6) List<@IntRange(max = 1 << 20) Integer> positions,
            @ForAll("interestingBytes") byte value, @ForAll @IntRange(max = 200) int cut,
            @ForAll @IntRange(max = 0xffff) int inPort) {
        for (int p : positions) {
            seed[p % seed.length] = value;
        }
        check(seed, 0, Math.min(cut, seed.length), inPort);
    }

    @Provide
    Arbitrary<Byte> interestingBytes() {
        return Arbitraries.oneOf(Arbitraries.of((byte) 0, (byte) 0x08, (byte) 0x20, (byte) 0x45, (byte) 0x81,
                (byte) 0x88, (byte) 0xaa, (byte) 0xff), Arbitraries.bytes());
    }

    @Provide
    Arbitrary<byte[]> frames() {
        return OFMatchFixtures.packetFrames();
    }

    @Property(tries = 3000)
    void randomBytesBehindPlausibleHeaders(@ForAll("frames") byte[] data, @ForAll @IntRange(max = 100) int cut) {
        check(data, 0, Math.max(0, data.length - cut), 1);
    }

    @Property(tries = 2000)
    void randomBytesAnywhereInABuffer(@ForAll @Size(max = 120) byte[] data, @ForAll @IntRange(max = 120) int a,
            @ForAll @IntRange(max = 120) int b) {
        check(data, Math.min(Math.min(a, b), data.length), Math.min(Math.max(a, b), data.length), 2);
    }

    /**
     * The frame between {@code position} and {@code limit} of {@code data}, through the reused Frame, alone and amid
     * garbage (a read outside the view would change the result or throw), against the oracle.
     */
    private void check(byte[] data, int position, int limit, int inPort) {
        var buf = ByteBuffer.wrap(data).limit(limit).position(position);
        OFMatch expected = oldFromPacket(buf, inPort);
        assertSameFields(expected, OFMatch.fromFrame(frame.wrap(buf), inPort));
        assertSameFields(expected, OFMatch.fromPacket(buf, inPort));
        assertEquals(position, buf.position());
        assertEquals(limit, buf.limit());

        var amid = ByteBuffer.allocateDirect(limit - position + 64);
        while (amid.hasRemaining()) {
            amid.put((byte) 0x45);
        }
        amid.put(32, data, position, limit - position).limit(32 + limit - position).position(32);
        assertSameFields(expected, OFMatch.fromFrame(frame.wrap(amid), inPort));
    }

    // ---- the oracle: OFMatch.fromPacket as it was before it was built on Frame ---------------------------------

    private static OFMatch oldFromPacket(ByteBuffer frame, int inPort) {
        int p = frame.position();
        final int end = frame.limit();
        if (end - p < 14) {
            return exact(inPort, 0, 0, OFMatch.VLAN_NONE, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        long dlDst = mac(frame, p);
        long dlSrc = mac(frame, p + 6);
        int type = u16(frame, p + 12);
        p += 14;
        int dlVlan = OFMatch.VLAN_NONE;
        int pcp = 0;
        if ((type == 0x8100 || type == 0x88a8) && end - p >= 4) {
            int tci = u16(frame, p);
            dlVlan = tci & 0x0fff;
            pcp = tci >>> 13;
            type = u16(frame, p + 2);
            p += 4;
        }
        if (type < 0x0600) {
            if (end - p >= 8 && frame.getInt(p) == 0xaaaa0300 && frame.getShort(p + 4) == 0
                    && u16(frame, p + 6) >= 0x0600) {
                type = u16(frame, p + 6);
                p += 8;
            } else {
                type = 0x05ff;
            }
        }
        int tos = 0;
        int proto = 0;
        int src = 0;
        int dst = 0;
        int tpSrc = 0;
        int tpDst = 0;
        if (type == 0x0800) {
            int captured = end - p;
            if (captured >= 20) {
                int ihl = (frame.get(p) & 0x0f) << 2;
                int totalLength = u16(frame, p + 2);
                if (ihl >= 20 && ihl <= captured && ihl <= totalLength) {
                    tos = frame.get(p + 1) & 0xfc;
                    proto = frame.get(p + 9) & 0xff;
                    src = frame.getInt(p + 12);
                    dst = frame.getInt(p + 16);
                    if ((frame.getShort(p + 6) & 0x3fff) == 0) {
                        int l4 = p + ihl;
                        int l4Length = totalLength - ihl;
                        int l4Captured = end - l4;
                        switch (proto) {
                            case 6, 17, 132 -> {
                                int headerLength = proto == 6 ? 20 : proto == 17 ? 8 : 12;
                                if (l4Length >= headerLength && l4Captured >= 4) {
                                    tpSrc = u16(frame, l4);
                                    tpDst = u16(frame, l4 + 2);
                                }
                            }
                            case 1 -> {
                                if (l4Length >= 8 && l4Captured >= 2) {
                                    tpSrc = frame.get(l4) & 0xff;
                                    tpDst = frame.get(l4 + 1) & 0xff;
                                }
                            }
                            default -> {
                            }
                        }
                    }
                }
            }
        } else if (type == 0x0806 || type == 0x8035) {
            if (end - p >= 28 && frame.getInt(p) == 0x00010800 && frame.getShort(p + 4) == 0x0604) {
                int op = u16(frame, p + 6);
                proto = op <= 0xff ? op : 0;
                src = frame.getInt(p + 14);
                dst = frame.getInt(p + 24);
            }
        }
        return exact(inPort, dlSrc, dlDst, dlVlan, pcp, type, tos, proto, src, dst, tpSrc, tpDst);
    }

    private static OFMatch exact(int inPort, long dlSrc, long dlDst, int dlVlan, int pcp, int type, int tos,
            int proto, int src, int dst, int tpSrc, int tpDst) {
        return OFMatch.builder().wildcards(0).inPort(inPort).dlSrc(dlSrc).dlDst(dlDst).dlVlan(dlVlan).dlVlanPcp(pcp)
                .dlType(type).nwTos(tos).nwProto(proto).nwSrc(src).nwDst(dst).tpSrc(tpSrc).tpDst(tpDst).build();
    }

    private static int u16(ByteBuffer b, int index) {
        return b.getShort(index) & 0xffff;
    }

    private static long mac(ByteBuffer b, int index) {
        return ((long) (b.getShort(index) & 0xffff) << 32) | (b.getInt(index + 2) & 0xffff_ffffL);
    }
}
