package net.beaconcontroller.openflow;

import static net.beaconcontroller.openflow.OFMatchFixtures.assertSameFields;
import static net.beaconcontroller.openflow.OFMatchFixtures.bytes;
import static net.beaconcontroller.openflow.OFMatchFixtures.read;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Random matches through bytes and text; random bytes through the readers and fromPacket. */
class OFMatchPropertiesTest {
    @Provide
    Arbitrary<OFMatch> matches() {
        return OFMatchFixtures.matches();
    }

    @Property
    void builtMatchesRoundTripThroughBytes(@ForAll("matches") OFMatch m) throws Exception {
        byte[] wire = bytes(m);
        OFMatch back = read(wire);
        assertSameFields(m, back);
        assertEquals(m, back);
        assertArrayEquals(wire, bytes(back));
    }

    @Property
    void builtMatchesRoundTripThroughText(@ForAll("matches") OFMatch m) {
        OFMatch back = OFMatch.parse(m.toString());
        assertEquals(m, back);
        assertEquals(m.hashCode(), back.hashCode());
        assertEquals(m.toString(), back.toString());
    }

    @Property
    void anyFortyBytesAreAMatchThatWritesBackWithZeroPadding(@ForAll @Size(40) byte[] wire) throws Exception {
        OFMatch m = read(wire);
        byte[] expected = wire.clone();
        expected[21] = 0;
        expected[26] = 0;
        expected[27] = 0;
        assertArrayEquals(expected, bytes(m));
        OFMatch text = OFMatch.parse(m.toString());
        assertEquals(m, text);
        assertEquals(m.hashCode(), text.hashCode());
    }

    /**
     * Changing only what the class comment says does not matter (values of wildcarded fields, host bits, padding,
     * undefined wildcard bits, nw counts above 32, high bits of vlan/pcp/tos) gives an equal match with the same hash;
     * changing an exact field's value gives a different one.
     */
    @Property
    void equalityIgnoresExactlyWhatDoesNotMatter(@ForAll("matches") OFMatch m, @ForAll long seed) throws Exception {
        var r = new Random(seed);
        byte[] b = bytes(m);
        var buf = ByteBuffer.wrap(b);
        int w = m.wildcards();
        int noise = r.nextInt() & ~OFMatch.OFPFW_ALL;
        int srcBits = 32 - m.nwSrcPrefixLength();
        int dstBits = 32 - m.nwDstPrefixLength();
        if (srcBits == 32) {
            w = (w & ~OFMatch.OFPFW_NW_SRC_MASK) | (32 + r.nextInt(32)) << OFMatch.OFPFW_NW_SRC_SHIFT;
        }
        if (dstBits == 32) {
            w = (w & ~OFMatch.OFPFW_NW_DST_MASK) | (32 + r.nextInt(32)) << OFMatch.OFPFW_NW_DST_SHIFT;
        }
        buf.putInt(0, w | noise);
        randomizeIf(r, buf, w, OFMatch.OFPFW_IN_PORT, 4, 2);
        randomizeIf(r, buf, w, OFMatch.OFPFW_DL_SRC, 6, 6);
        randomizeIf(r, buf, w, OFMatch.OFPFW_DL_DST, 12, 6);
        randomizeIf(r, buf, w, OFMatch.OFPFW_DL_TYPE, 22, 2);
        randomizeIf(r, buf, w, OFMatch.OFPFW_NW_PROTO, 25, 1);
        randomizeIf(r, buf, w, OFMatch.OFPFW_TP_SRC, 36, 2);
        randomizeIf(r, buf, w, OFMatch.OFPFW_TP_DST, 38, 2);
        if ((w & OFMatch.OFPFW_DL_VLAN) != 0) {
            buf.putShort(18, (short) r.nextInt());
        } else if (m.dlVlan() != OFMatch.VLAN_NONE) {
            buf.putShort(18, (short) (m.dlVlan() | r.nextInt(16) << 12));
            if ((buf.getShort(18) & 0xffff) == OFMatch.VLAN_NONE) {
                buf.putShort(18, (short) m.dlVlan());
            }
        }
        buf.put(20, (byte) ((w & OFMatch.OFPFW_DL_VLAN_PCP) != 0 ? r.nextInt() : m.dlVlanPcp() | r.nextInt(32) << 3));
        buf.put(24, (byte) ((w & OFMatch.OFPFW_NW_TOS) != 0 ? r.nextInt() : m.nwTos() | r.nextInt(4)));
        buf.put(21, (byte) r.nextInt());
        buf.putShort(26, (short) r.nextInt());
        buf.putInt(28, m.nwSrc() | (srcBits == 0 ? 0 : r.nextInt() >>> (32 - srcBits)));
        buf.putInt(32, m.nwDst() | (dstBits == 0 ? 0 : r.nextInt() >>> (32 - dstBits)));
        OFMatch noisy = read(b);
        assertEquals(m, noisy);
        assertEquals(m.hashCode(), noisy.hashCode());
        assertEquals(m.toString(), noisy.toString());

        if ((m.wildcards() & OFMatch.OFPFW_IN_PORT) == 0) {
            assertNotEquals(m, m.toBuilder().inPort(m.inPort() ^ 1).build());
        }
        if (m.nwSrcPrefixLength() > 0) {
            int lowestMatched = 1 << (32 - m.nwSrcPrefixLength());
            assertNotEquals(m, m.toBuilder().nwSrc(m.nwSrc() ^ lowestMatched, m.nwSrcPrefixLength()).build());
        }
    }

    private static void randomizeIf(Random r, ByteBuffer b, int w, int flag, int offset, int length) {
        if ((w & flag) != 0) {
            for (int i = 0; i < length; i++) {
                b.put(offset + i, (byte) r.nextInt());
            }
        }
    }

    @Property
    void readFromFailsExactlyWhenFewerThanFortyBytesRemain(@ForAll @Size(max = 90) byte[] data,
            @ForAll @IntRange(max = 90) int position) throws Exception {
        var buf = ByteBuffer.wrap(data);
        buf.position(Math.min(position, data.length));
        int start = buf.position();
        if (buf.remaining() < OFMatch.LENGTH) {
            assertThrows(OFParseException.class, () -> OFMatch.readFrom(buf));
            assertEquals(start, buf.position());
        } else {
            OFMatch.readFrom(buf);
            assertEquals(start + OFMatch.LENGTH, buf.position());
        }
    }

    @Property(tries = 3000)
    void fromPacketNeverThrowsOnRandomBytes(@ForAll @Size(max = 120) byte[] data, @ForAll @IntRange(max = 120) int a,
            @ForAll @IntRange(max = 120) int b) {
        checkFromPacket(data, a, b);
    }

    /** Random bytes behind a plausible Ethernet header, so the VLAN, LLC, ARP and IPv4 paths are reached. */
    @Property(tries = 5000)
    void fromPacketNeverThrowsOnRandomFramesOfEveryType(@ForAll("frames") byte[] frame,
            @ForAll @IntRange(max = 100) int cut) {
        checkFromPacket(frame, 0, Math.max(0, frame.length - cut));
    }

    @Provide
    Arbitrary<byte[]> frames() {
        return OFMatchFixtures.packetFrames();
    }

    private static void checkFromPacket(byte[] data, int a, int b) {
        byte[] before = data.clone();
        int position = Math.min(Math.min(a, b), data.length);
        int limit = Math.min(Math.max(a, b), data.length);
        var buf = ByteBuffer.wrap(data);
        buf.limit(limit).position(position);
        OFMatch m = OFMatch.fromPacket(buf, 1);
        assertEquals(position, buf.position());
        assertEquals(limit, buf.limit());
        assertArrayEquals(before, data);
        assertEquals(0, m.wildcards());
        assertTrue(m.dlSrc() >= 0 && m.dlSrc() <= 0xffff_ffff_ffffL);
        assertTrue(m.dlVlan() == OFMatch.VLAN_NONE || m.dlVlan() <= 0xfff);
        assertTrue(m.dlVlanPcp() <= 7 && (m.nwTos() & 3) == 0);
        assertEquals(m, OFMatch.parse(m.toString()), "a packet's match is valid builder input");
        // what fromPacket gives must match the frame with the same bytes behind the limit cut off
        assertSameFields(m, OFMatch.fromPacket(ByteBuffer.wrap(Arrays.copyOfRange(data, position, limit)),
                1));
    }
}
