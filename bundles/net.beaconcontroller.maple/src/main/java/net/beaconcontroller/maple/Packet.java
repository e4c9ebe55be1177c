package net.beaconcontroller.maple;

import net.beaconcontroller.topology.SwitchPort;

/**
 * A packet as a {@link Policy} sees it: the twelve fields of an OpenFlow 1.0 match, read-only. Every read is
 * recorded: a field read ({@code dlDst()}) makes the compiled rules match that field exactly; a test
 * ({@code tpDstIs(80)}, {@code ipSrcIn(..)}) makes them match only what the test needs, so prefer a test when the
 * policy only needs a yes or no. A read or test whose answer follows from earlier ones is not recorded again.
 *
 * <p>Values are unsigned, held as in {@code OFMatch}: MACs in the low 48 bits of a {@code long}, IPv4 addresses
 * as an {@code int}, 16-bit and 8-bit fields in an {@code int}. A field the packet does not have (the ports of a
 * packet that is not TCP/UDP/ICMP/SCTP over IPv4, the addresses of a packet that is neither IPv4 nor ARP) reads 0,
 * as a switch sees it. Reading a field of the network or transport layer first reads what it depends on
 * ({@code dl_type}, and {@code nw_proto} for the ports), so compiled rules are valid OpenFlow 1.0 matches.
 *
 * <p><b>{@link #inPort()} is the packet's network ingress</b>: the switch and edge port where it entered the
 * network, not the port of whichever switch it is crossing. A policy decides once for the whole network. Rules for
 * a decision that read or tested the ingress are compiled exactly at the ingress switch (as {@code in_port}); at
 * the other switches on the route such packets go to the controller, because an OpenFlow 1.0 switch cannot tell
 * where a packet entered the network. Policies that route by host locations ({@link Environment#hostLocation})
 * instead get rules on every switch of the route.
 */
public interface Packet {
    /** Where the packet entered the network (switch and edge port). */
    SwitchPort inPort();

    long dlSrc();

    long dlDst();

    /** The VLAN id, or {@code 0xffff} for an untagged frame. */
    int dlVlan();

    /** The VLAN priority; 0 for an untagged frame. */
    int dlVlanPcp();

    int dlType();

    /** The IPv4 ToS byte's DSCP bits in place (ECN bits 0); 0 unless IPv4. */
    int nwTos();

    /** The IP protocol, or the ARP opcode. */
    int nwProto();

    /** The IPv4 source, or the ARP sender address. */
    int nwSrc();

    /** The IPv4 destination, or the ARP target address. */
    int nwDst();

    /** The TCP/UDP/SCTP source port, or the ICMP type. */
    int tpSrc();

    /** The TCP/UDP/SCTP destination port, or the ICMP code. */
    int tpDst();

    boolean inPortIs(SwitchPort ingress);

    boolean dlSrcIs(long mac);

    boolean dlDstIs(long mac);

    boolean dlVlanIs(int vlan);

    boolean dlTypeIs(int type);

    /** {@code dl_type} is IPv4 (0x0800). */
    default boolean isIpv4() {
        return dlTypeIs(0x0800);
    }

    /** {@code dl_type} is ARP (0x0806). */
    default boolean isArp() {
        return dlTypeIs(0x0806);
    }

    boolean nwProtoIs(int proto);

    boolean tpSrcIs(int port);

    boolean tpDstIs(int port);

    /**
     * Whether {@code nw_src} lies in {@code prefix/length}; compiled as an OpenFlow 1.0 CIDR wildcard.
     *
     * @param length 0..32; host bits of {@code prefix} are ignored
     */
    boolean ipSrcIn(int prefix, int length);

    /** Whether {@code nw_dst} lies in {@code prefix/length}; see {@link #ipSrcIn}. */
    boolean ipDstIn(int prefix, int length);
}
