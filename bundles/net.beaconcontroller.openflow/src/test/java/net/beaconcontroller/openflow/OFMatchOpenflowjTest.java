package net.beaconcontroller.openflow;

import static net.beaconcontroller.openflow.OFMatchFixtures.bytes;
import static net.beaconcontroller.openflow.OFMatchFixtures.hex;
import static net.beaconcontroller.openflow.OFMatchFixtures.read;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMatchV1;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.protocol.ver10.ChannelUtilsVer10;
import org.projectfloodlight.openflow.types.ArpOpcode;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.ICMPv4Code;
import org.projectfloodlight.openflow.types.ICMPv4Type;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IpDscp;
import org.projectfloodlight.openflow.types.IpProtocol;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFVlanVidMatch;
import org.projectfloodlight.openflow.types.TransportPort;
import org.projectfloodlight.openflow.types.VlanPcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * A second opinion on the match wire format from openflowj (Floodlight's loxigen-generated OpenFlow library).
 *
 * <p>openflowj models {@code nw_tos} as a 0..63 DSCP number written unshifted, while the specification's reference
 * switch and Open vSwitch put the ToS byte with its ECN bits cleared (DSCP &lt;&lt; 2) there, as Beacon does. The
 * two agree on the byte for multiples of 4 up to 60, which is what is compared here.
 */
class OFMatchOpenflowjTest {
    private static final OFFactory OF10 = OFFactories.getFactory(OFVersion.OF_10);
    /** {@link OFMatchTest#TCP_VECTOR} with ToS 0x28 (DSCP 10) instead of 0xb8, which openflowj cannot read. */
    private static final String TCP_VECTOR_DSCP_10 = OFMatchTest.TCP_VECTOR.replace("b8 06 0000", "28 06 0000");

    @Test
    void openflowjReadsTheVectorsFieldForFieldAndWritesTheSameBytes() throws Exception {
        for (String vector : new String[] {TCP_VECTOR_DSCP_10, OFMatchTest.ARP_VECTOR}) {
            byte[] wire = hex(vector);
            OFMatch ours = read(wire);
            OFMatchV1 theirs = (OFMatchV1) ChannelUtilsVer10.readOFMatch(Unpooled.wrappedBuffer(wire));
            assertEquals(ours.wildcards(), theirs.getWildcards());
            assertEquals(ours.inPort(), theirs.getInPort().getShortPortNumber() & 0xffff);
            assertEquals(ours.dlSrc(), theirs.getEthSrc().getLong());
            assertEquals(ours.dlDst(), theirs.getEthDst().getLong());
            assertEquals(ours.dlVlan(), ours.dlVlan() == OFMatch.VLAN_NONE ? OFMatch.VLAN_NONE
                    : theirs.getVlanVid().getVlan());
            assertEquals(ours.dlVlanPcp(), theirs.getVlanPcp().getValue());
            assertEquals(ours.dlType(), theirs.getEthType().getValue());
            assertEquals(ours.nwTos(), theirs.getIpDscp().getDscpValue());
            assertEquals(ours.nwProto(), theirs.getIpProto().getIpProtocolNumber());
            assertEquals(ours.nwSrc(), theirs.getIpv4Src().getInt());
            assertEquals(ours.nwDst(), theirs.getIpv4Dst().getInt());
            assertEquals(ours.tpSrc(), theirs.getTcpSrc().getPort());
            assertEquals(ours.tpDst(), theirs.getTcpDst().getPort());
            assertArrayEquals(wire, write(theirs));
        }
    }

    @Test
    void prefixWildcardsMeanTheSameToOpenflowj() throws Exception {
        OFMatch ours = read(hex(TCP_VECTOR_DSCP_10));
        Match theirs = ChannelUtilsVer10.readOFMatch(Unpooled.wrappedBuffer(bytes(ours)));
        var src = theirs.getMasked(MatchField.IPV4_SRC);
        assertEquals(ours.nwSrcPrefixLength(), src.getMask().asCidrMaskLength());
        assertEquals(ours.nwSrc(), src.getValue().getInt());
        assertEquals(32, ours.nwDstPrefixLength());
        assertEquals(ours.nwDst(), theirs.get(MatchField.IPV4_DST).getInt());
    }

    @Test
    void allIsOpenflowjsWildcardAll() {
        assertArrayEquals(write(OF10.matchWildcardAll()), bytes(OFMatch.ALL));
    }

    /** The same fields set through both libraries' builders give the same 40 bytes, and each reads the other's. */
    @Property(tries = 500)
    void bothBuildersWriteTheSameBytes(@ForAll("specs") Spec spec) throws Exception {
        byte[] theirs = write(spec.openflowj());
        OFMatch ours = spec.beacon();
        assertEquals(hex(theirs), hex(bytes(ours)), spec.toString());
        assertEquals(ours, read(theirs));
        assertArrayEquals(theirs, write(ChannelUtilsVer10.readOFMatch(Unpooled.wrappedBuffer(bytes(ours)))));
    }

    @Provide
    Arbitrary<Spec> specs() {
        return Arbitraries.randomValue(Spec::random);
    }

    private static byte[] write(Match m) {
        ByteBuf out = Unpooled.buffer();
        m.writeTo(out);
        var b = new byte[out.readableBytes()];
        out.readBytes(b);
        return b;
    }

    /** Which fields to set (null: wildcarded), respecting openflowj's prerequisites (IP fields need IPv4 etc.). */
    record Spec(Integer inPort, Long ethSrc, Long ethDst, Integer vlan, Integer pcp, Integer ethType, Integer tos,
            Integer proto, Integer nwSrc, int srcLength, Integer nwDst, int dstLength, Integer tpSrc, Integer tpDst) {

        static Spec random(Random r) {
            // openflowj refuses the numbers between MAX and the first reserved port
            Integer inPort = maybe(r, r.nextInt(3) == 0 ? OFPort.IN_PORT + r.nextInt(8) : r.nextInt(OFPort.MAX + 1));
            Long ethSrc = maybe(r, r.nextLong() & 0xffff_ffff_ffffL);
            Long ethDst = maybe(r, r.nextLong() & 0xffff_ffff_ffffL);
            Integer vlan = maybe(r, r.nextInt(5) == 0 ? OFMatch.VLAN_NONE : r.nextInt(4096));
            Integer pcp = maybe(r, r.nextInt(8));
            int kind = r.nextInt(6);
            Integer ethType = switch (kind) {
                case 0 -> maybe(r, r.nextInt(0x10000) | 0x1000); // not IPv4/ARP: no network fields
                case 1 -> 0x0806;
                default -> 0x0800;
            };
            Integer tos = null;
            Integer proto = null;
            Integer tpSrc = null;
            Integer tpDst = null;
            if (kind >= 2) {
                tos = maybe(r, r.nextInt(16) * 4);
                proto = switch (kind) {
                    case 2 -> maybe(r, r.nextInt(255)); // openflowj refuses the reserved 255
                    case 3 -> 6;
                    case 4 -> 17;
                    default -> 1;
                };
                if (kind >= 3) {
                    int max = kind == 5 ? 256 : 0x10000;
                    tpSrc = maybe(r, r.nextInt(max));
                    tpDst = maybe(r, r.nextInt(max));
                }
            } else if (kind == 1) {
                proto = maybe(r, r.nextInt(255)); // openflowj stores the ARP opcode as an IP protocol: not 255
            }
            Integer nwSrc = null;
            Integer nwDst = null;
            int srcLength = 1 + r.nextInt(32);
            int dstLength = 1 + r.nextInt(32);
            if (kind >= 1) {
                nwSrc = maybe(r, r.nextInt() & (-1 << (32 - srcLength)));
                nwDst = maybe(r, r.nextInt() & (-1 << (32 - dstLength)));
            }
            return new Spec(inPort, ethSrc, ethDst, vlan, pcp, ethType, tos, proto, nwSrc, srcLength, nwDst,
                    dstLength, tpSrc, tpDst);
        }

        private static <T> T maybe(Random r, T value) {
            return r.nextBoolean() ? value : null;
        }

        OFMatch beacon() {
            var b = OFMatch.builder();
            if (inPort != null) {
                b.inPort(inPort);
            }
            if (ethSrc != null) {
                b.dlSrc(ethSrc);
            }
            if (ethDst != null) {
                b.dlDst(ethDst);
            }
            if (vlan != null) {
                b.dlVlan(vlan);
            }
            if (pcp != null) {
                b.dlVlanPcp(pcp);
            }
            if (ethType != null) {
                b.dlType(ethType);
            }
            if (tos != null) {
                b.nwTos(tos);
            }
            if (proto != null) {
                b.nwProto(proto);
            }
            if (nwSrc != null) {
                b.nwSrc(nwSrc, srcLength);
            }
            if (nwDst != null) {
                b.nwDst(nwDst, dstLength);
            }
            if (tpSrc != null) {
                b.tpSrc(tpSrc);
            }
            if (tpDst != null) {
                b.tpDst(tpDst);
            }
            return b.build();
        }

        Match openflowj() {
            Match.Builder b = OF10.buildMatch();
            if (inPort != null) {
                b.setExact(MatchField.IN_PORT, org.projectfloodlight.openflow.types.OFPort.ofShort(
                        (short) inPort.intValue()));
            }
            if (ethSrc != null) {
                b.setExact(MatchField.ETH_SRC, MacAddress.of(ethSrc));
            }
            if (ethDst != null) {
                b.setExact(MatchField.ETH_DST, MacAddress.of(ethDst));
            }
            if (vlan != null) {
                b.setExact(MatchField.VLAN_VID, vlan == OFMatch.VLAN_NONE ? OFVlanVidMatch.UNTAGGED
                        : OFVlanVidMatch.ofVlan(vlan));
            }
            if (pcp != null) {
                b.setExact(MatchField.VLAN_PCP, VlanPcp.of(pcp.byteValue()));
            }
            if (ethType != null) {
                b.setExact(MatchField.ETH_TYPE, EthType.of(ethType));
            }
            if (tos != null) {
                b.setExact(MatchField.IP_DSCP, IpDscp.of(tos.byteValue()));
            }
            boolean arp = ethType != null && ethType == 0x0806;
            if (proto != null) {
                if (arp) {
                    b.setExact(MatchField.ARP_OP, ArpOpcode.of(proto));
                } else {
                    b.setExact(MatchField.IP_PROTO, IpProtocol.of(proto.shortValue()));
                }
            }
            if (nwSrc != null) {
                b.setMasked(arp ? MatchField.ARP_SPA : MatchField.IPV4_SRC,
                        IPv4Address.of(nwSrc).withMaskOfLength(srcLength));
            }
            if (nwDst != null) {
                b.setMasked(arp ? MatchField.ARP_TPA : MatchField.IPV4_DST,
                        IPv4Address.of(nwDst).withMaskOfLength(dstLength));
            }
            boolean icmp = proto != null && proto == 1;
            if (tpSrc != null) {
                if (icmp) {
                    b.setExact(MatchField.ICMPV4_TYPE, ICMPv4Type.of(tpSrc.shortValue()));
                } else {
                    b.setExact(proto == 6 ? MatchField.TCP_SRC : MatchField.UDP_SRC, TransportPort.of(tpSrc));
                }
            }
            if (tpDst != null) {
                if (icmp) {
                    b.setExact(MatchField.ICMPV4_CODE, ICMPv4Code.of(tpDst.shortValue()));
                } else {
                    b.setExact(proto == 6 ? MatchField.TCP_DST : MatchField.UDP_DST, TransportPort.of(tpDst));
                }
            }
            return b.build();
        }
    }
}
