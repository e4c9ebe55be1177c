/**
 * Parsing and building of the frames an OpenFlow controller sees in PACKET_IN and sends in PACKET_OUT: Ethernet II
 * with 802.1Q (802.3 length frames recognised), ARP, IPv4, TCP, UDP, ICMP, LLDP and DHCP.
 *
 * <h2>Model</h2>
 * Every packet is an immutable record; a frame is a chain of them, typed by what each layer may carry:
 * {@link net.beaconcontroller.packet.Ethernet} → {@link net.beaconcontroller.packet.EthernetPayload}
 * ({@code Arp}, {@code Ipv4}, {@code Lldp}, {@code Data}); {@code Ipv4} → {@link net.beaconcontroller.packet.IpPayload}
 * ({@code Tcp}, {@code Udp}, {@code Icmp}, {@code Data}); {@code Udp} → {@link net.beaconcontroller.packet.UdpPayload}
 * ({@code Dhcp}, {@code Data}). {@link net.beaconcontroller.packet.Data} holds whatever is not interpreted, so
 * nothing is lost. MAC addresses are the low 48 bits of a {@code long}, IPv4 addresses an {@code int}, u8/u16 fields
 * {@code int}, u32 fields {@code long}.
 *
 * <pre>{@code
 * Ethernet frame = Ethernet.parse(packetIn.frame());
 * if (frame.payload() instanceof Ipv4 ip && ip.payload() instanceof Udp udp && udp.payload() instanceof Dhcp dhcp) {
 *     long client = dhcp.clientMac();
 * }
 * byte[] probe = Lldp.discoveryFrame(portMac, dpid, portNumber, Lldp.DEFAULT_TTL).serialize();
 * }</pre>
 *
 * <h2>Parsing</h2>
 * Every parser takes a {@link java.nio.ByteBuffer} view (the bytes between position and limit, e.g. a PACKET_IN's
 * frame inside the controller's read buffer, read in place and left unchanged) or a {@code byte[]}; the array entry
 * points wrap the array and share the one implementation. {@code parse} never throws anything but
 * {@link net.beaconcontroller.packet.PacketParseException} for bad input: a truncated header, an impossible header
 * length, a length field pointing past the data, a TLV or option running past its container. It allocates no more
 * than the input's size in copies, and every loop advances through the input. A wrong checksum is not an error
 * (switches forward such frames, and senders with checksum offload produce them); {@code checksumValid} methods tell.
 * Parse then serialize gives the same bytes, padding included.
 *
 * <h2>The hot path</h2>
 * Code that looks at every PACKET_IN reads it through a {@link net.beaconcontroller.packet.Frame} instead: a reusable
 * view that decodes the fields OpenFlow matches on in place, allocates nothing, and is valid only while the buffer
 * under it is. {@code Frame.decode()} turns it into the records above when more is needed.
 *
 * <h2>Building</h2>
 * {@code serialize()} computes every length and checksum. Builders and factories store the checksums too, so a built
 * value equals what parsing its bytes gives back. Invalid field values (out of range, contradicting the payload) are
 * rejected with {@link java.lang.IllegalArgumentException} when the value is made.
 */
package net.beaconcontroller.packet;
