package net.beaconcontroller.packet;

/** What an {@link Ethernet} frame carries: the ether type picks the parser, anything unknown stays {@link Data}. */
public sealed interface EthernetPayload permits Arp, Ipv4, Lldp, Data {
    /** Bytes this payload occupies on the wire. */
    int length();
}
