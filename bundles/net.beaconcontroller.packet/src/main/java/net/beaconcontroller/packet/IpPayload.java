package net.beaconcontroller.packet;

/**
 * What an {@link Ipv4} packet carries: the protocol number picks the parser; other protocols and fragments stay
 * {@link Data}.
 */
public sealed interface IpPayload permits Tcp, Udp, Icmp, Data {
    /** Bytes this payload occupies on the wire. */
    int length();
}
