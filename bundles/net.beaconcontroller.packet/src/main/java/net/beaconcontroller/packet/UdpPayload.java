package net.beaconcontroller.packet;

/** What a {@link Udp} datagram carries: DHCP on ports 67/68, anything else stays {@link Data}. */
public sealed interface UdpPayload permits Dhcp, Data {
    /** Bytes this payload occupies on the wire. */
    int length();
}
