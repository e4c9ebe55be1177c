package net.beaconcontroller.packet;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.beaconcontroller.packet.LldpTlv.ChassisId;
import net.beaconcontroller.packet.LldpTlv.End;
import net.beaconcontroller.packet.LldpTlv.ManagementAddress;
import net.beaconcontroller.packet.LldpTlv.OrganizationSpecific;
import net.beaconcontroller.packet.LldpTlv.PortDescription;
import net.beaconcontroller.packet.LldpTlv.PortId;
import net.beaconcontroller.packet.LldpTlv.SystemCapabilities;
import net.beaconcontroller.packet.LldpTlv.SystemDescription;
import net.beaconcontroller.packet.LldpTlv.SystemName;
import net.beaconcontroller.packet.LldpTlv.Ttl;
import net.beaconcontroller.packet.LldpTlv.Unknown;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/** Generators of well-formed packets with random field values, for round-trip properties and fuzz seeds. */
final class PacketArbitraries {
    private static final Set<Integer> PARSED_ETHER_TYPES =
            Set.of(Ethernet.TYPE_IPV4, Ethernet.TYPE_ARP, Ethernet.TYPE_LLDP, Ethernet.TYPE_VLAN);
    private static final Set<Integer> PARSED_PROTOCOLS =
            Set.of(Ipv4.PROTOCOL_ICMP, Ipv4.PROTOCOL_TCP, Ipv4.PROTOCOL_UDP);
    private static final Set<Integer> FIXED_LENGTH_DHCP_OPTIONS =
            Set.of(DhcpOption.MESSAGE_TYPE, DhcpOption.REQUESTED_IP_ADDRESS, DhcpOption.SERVER_IDENTIFIER);

    private PacketArbitraries() {
    }

    static Arbitrary<Long> macs() {
        return Arbitraries.longs().between(0, 0xffff_ffff_ffffL);
    }

    static Arbitrary<Integer> ips() {
        return Arbitraries.integers();
    }

    static Arbitrary<Integer> u8() {
        return Arbitraries.integers().between(0, 0xff);
    }

    static Arbitrary<Integer> u16() {
        return Arbitraries.integers().between(0, 0xffff);
    }

    static Arbitrary<Long> u32() {
        return Arbitraries.longs().between(0, 0xffff_ffffL);
    }

    static Arbitrary<Bytes> bytes(int maxLength) {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(maxLength).map(Bytes::of);
    }

    static Arbitrary<Bytes> bytes(int minLength, int maxLength) {
        return Arbitraries.bytes().array(byte[].class).ofMinSize(minLength).ofMaxSize(maxLength).map(Bytes::of);
    }

    static Arbitrary<Data> data(int maxLength) {
        return bytes(maxLength).map(Data::new);
    }

    /** Frames the library parses into the payload they were built with: ARP, IPv4 and LLDP, any trailer. */
    static Arbitrary<Ethernet> frames() {
        Arbitrary<EthernetPayload> payloads = Arbitraries.frequencyOf(Tuple.of(1, arps()), Tuple.of(4, ipv4s()),
                Tuple.of(1, lldps()));
        Arbitrary<VlanTag> vlans = Combinators.combine(Arbitraries.integers().between(0, 7),
                Arbitraries.of(true, false),
                Arbitraries.integers().between(0, 0xfff)).as(VlanTag::new).injectNull(0.5);
        return Combinators.combine(macs(), macs(), vlans, payloads, bytes(24))
                .as((dst, src, vlan, payload, trailer) -> Ethernet.builder().destination(dst).source(src).vlan(vlan)
                        .payload(payload).trailer(trailer).build());
    }

    /** Frames with payloads kept raw: unknown ether types, and 802.3 frames with padding. */
    static Arbitrary<Ethernet> rawFrames() {
        Arbitrary<Ethernet> unknown = Combinators.combine(macs(), macs(),
                Arbitraries.integers().between(Ethernet.MAX_LENGTH_FIELD + 1, 0xffff)
                        .filter(t -> !PARSED_ETHER_TYPES.contains(t)), data(100))
                .as((dst, src, type, data) -> Ethernet.builder().destination(dst).source(src).etherType(type)
                        .payload(data).build());
        Arbitrary<Ethernet> llc = Combinators.combine(macs(), macs(), data(100), bytes(40))
                .as((dst, src, data, trailer) -> Ethernet.ieee8023(dst, src, data).toBuilder().trailer(trailer)
                        .build());
        return Arbitraries.oneOf(unknown, llc);
    }

    static Arbitrary<Arp> arps() {
        return Combinators.combine(u16(), u16(), u16(), macs(), ips(), macs(), ips()).as(Arp::new);
    }

    static Arbitrary<Ipv4> ipv4s() {
        Arbitrary<Ipv4> whole = Builders.withBuilder(Ipv4::builder)
                .use(u8()).in(Ipv4.Builder::tos)
                .use(u16()).in(Ipv4.Builder::identification)
                .use(Arbitraries.of(0, Ipv4.FLAG_DF, 4, 4 | Ipv4.FLAG_DF)).in(Ipv4.Builder::flags)
                .use(u8()).in(Ipv4.Builder::ttl)
                .use(ips()).in(Ipv4.Builder::source)
                .use(ips()).in(Ipv4.Builder::destination)
                .use(Arbitraries.integers().between(0, 10).flatMap(w -> bytes(w * 4, w * 4))).in(Ipv4.Builder::options)
                .use(Arbitraries.<IpPayload>oneOf(tcps(), udps(), icmps())).in(Ipv4.Builder::payload)
                .build(Ipv4.Builder::build);
        Arbitrary<Ipv4> other = Combinators.combine(u8().filter(p -> !PARSED_PROTOCOLS.contains(p)), ips(), ips(),
                data(80)).as((proto, src, dst, data) -> Ipv4.builder().protocol(proto).source(src).destination(dst)
                        .payload(data).build());
        Arbitrary<Ipv4> fragment = Combinators.combine(u8(), Arbitraries.integers().between(0, 0x1fff),
                Arbitraries.of(true, false), ips(), ips(), data(80))
                .as((proto, offset, more, src, dst, data) -> Ipv4.builder().protocol(proto)
                        .fragmentOffset(more ? offset : Math.max(1, offset)).flags(more ? Ipv4.FLAG_MF : 0)
                        .source(src).destination(dst).payload(data).build());
        return Arbitraries.frequencyOf(Tuple.of(6, whole), Tuple.of(1, other), Tuple.of(1, fragment));
    }

    static Arbitrary<Tcp> tcps() {
        return Builders.withBuilder(Tcp::builder)
                .use(u16()).in(Tcp.Builder::sourcePort)
                .use(u16()).in(Tcp.Builder::destinationPort)
                .use(u32()).in(Tcp.Builder::sequence)
                .use(u32()).in(Tcp.Builder::acknowledgment)
                .use(Arbitraries.integers().between(0, 0xfff)).in(Tcp.Builder::flags)
                .use(u16()).in(Tcp.Builder::window)
                .use(u16()).in(Tcp.Builder::urgentPointer)
                .use(Arbitraries.integers().between(0, 10).flatMap(w -> bytes(w * 4, w * 4))).in(Tcp.Builder::options)
                .use(data(120)).in(Tcp.Builder::payload)
                .build(Tcp.Builder::build);
    }

    static Arbitrary<Udp> udps() {
        Arbitrary<Udp> raw = Combinators.combine(u16(), u16(), Arbitraries.of(true, false), data(120))
                .as((src, dst, checksum, data) -> checksum ? Udp.of(src, dst, data) : Udp.withoutChecksum(src, dst,
                        data));
        Arbitrary<Udp> dhcp = dhcps().map(d -> Udp.of(d.op() == Dhcp.BOOT_REQUEST ? 68 : 67,
                d.op() == Dhcp.BOOT_REQUEST ? 67 : 68, d));
        return Arbitraries.oneOf(raw, dhcp);
    }

    static Arbitrary<Icmp> icmps() {
        return Combinators.combine(u8(), u8(), u32(), data(100)).as(Icmp::of);
    }

    static Arbitrary<Dhcp> dhcps() {
        Arbitrary<DhcpOption> fixed = Arbitraries.oneOf(
                Arbitraries.integers().between(1, 8).map(DhcpOption::messageType),
                ips().map(DhcpOption::requestedIpAddress), ips().map(DhcpOption::serverIdentifier));
        Arbitrary<DhcpOption> free = Combinators.combine(Arbitraries.integers().between(1, 254)
                .filter(c -> !FIXED_LENGTH_DHCP_OPTIONS.contains(c)), bytes(40)).as(DhcpOption::new);
        Arbitrary<DhcpOption> option = Arbitraries.frequencyOf(Tuple.of(3, fixed),
                Tuple.of(6, free), Tuple.of(1, Arbitraries.just(DhcpOption.PAD_OPTION)));
        return Builders.withBuilder(Dhcp::builder)
                .use(Arbitraries.of(Dhcp.BOOT_REQUEST, Dhcp.BOOT_REPLY)).in(Dhcp.Builder::op)
                .use(u8()).in(Dhcp.Builder::hops)
                .use(u32()).in(Dhcp.Builder::xid)
                .use(u16()).in(Dhcp.Builder::secs)
                .use(u16()).in(Dhcp.Builder::flags)
                .use(ips()).in(Dhcp.Builder::ciaddr)
                .use(ips()).in(Dhcp.Builder::yiaddr)
                .use(ips()).in(Dhcp.Builder::giaddr)
                .use(bytes(16, 16)).in(Dhcp.Builder::chaddr)
                .use(bytes(64, 64)).in(Dhcp.Builder::sname)
                .use(option.list().ofMaxSize(12)).in((b, options) -> {
                    options.forEach(b::option);
                    return b;
                })
                .use(bytes(60)).in(Dhcp.Builder::padding)
                .build(Dhcp.Builder::build);
    }

    static Arbitrary<Lldp> lldps() {
        Arbitrary<LldpTlv> tlv = Arbitraries.oneOf(
                Combinators.combine(u8(), bytes(1, 40)).as(ChassisId::new),
                Combinators.combine(u8(), bytes(1, 40)).as(PortId::new),
                u16().map(Ttl::new),
                bytes(60).map(PortDescription::new),
                bytes(60).map(SystemName::new),
                bytes(60).map(SystemDescription::new),
                Combinators.combine(u16(), u16()).as(SystemCapabilities::new),
                Combinators.combine(u8(), bytes(31), u8(), u32(), bytes(20)).as(ManagementAddress::new),
                Combinators.combine(Arbitraries.integers().between(0, 0xffffff), u8(), bytes(40))
                        .as(OrganizationSpecific::new),
                Combinators.combine(Arbitraries.integers().between(9, 126), bytes(40)).as(Unknown::new));
        Arbitrary<Lldp> discovery = Combinators.combine(Arbitraries.longs(), u16(), u16()).as(Lldp::forDiscovery);
        Arbitrary<Lldp> any = tlv.list().ofMaxSize(12).map(list -> {
            var all = new ArrayList<LldpTlv>(list);
            all.add(new End());
            return new Lldp(all);
        });
        return Arbitraries.oneOf(discovery, any);
    }

    /** Every reference frame, as seeds for mutation. */
    static List<byte[]> referenceFrames() {
        return List.of(Vectors.ARP_REQUEST, Vectors.ARP_REPLY, Vectors.PING_REQUEST, Vectors.PING_REPLY,
                Vectors.TCP_SYN, Vectors.TCP_SYNACK_DATA, Vectors.UDP_DNS, Vectors.UDP_NOCSUM, Vectors.DHCP_DISCOVER,
                Vectors.DHCP_REQUEST, Vectors.DHCP_ACK, Vectors.VLAN_PING, Vectors.STP_BPDU, Vectors.IGMP_RA,
                Vectors.FRAG0, Vectors.FRAG1, Vectors.FRAG2, Vectors.LLDP_LLDPD, Vectors.LLDP_IFNAME)
                .stream().map(Vectors::hex).toList();
    }
}
