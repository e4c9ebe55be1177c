#!/usr/bin/env python3
"""Prints the reference frames of Vectors.java as hex, built by scapy (an independent implementation).

Only for regenerating test vectors; nothing runs it during the build:
    python3 -m venv /tmp/scapy && /tmp/scapy/bin/pip install scapy==2.8.0
    /tmp/scapy/bin/python generate-vectors.py
"""
import socket

from scapy.all import (ARP, BOOTP, DHCP, DNS, DNSQR, ICMP, IP, TCP, UDP, Dot1Q, Dot3, Ether, LLC, Padding, Raw,
                       STP, fragment, load_contrib, mac2str)

load_contrib("lldp")
from scapy.contrib.lldp import (LLDPDUChassisID, LLDPDUEndOfLLDPDU, LLDPDUGenericOrganisationSpecific,  # noqa: E402
                                LLDPDUManagementAddress, LLDPDUPortDescription, LLDPDUPortID,
                                LLDPDUSystemCapabilities, LLDPDUSystemDescription, LLDPDUSystemName,
                                LLDPDUTimeToLive)

HOST1 = "52:54:00:12:34:56"
HOST2 = "52:54:00:ab:cd:ef"


def show(name, packet):
    b = bytes(packet)
    print(f"{name} ({len(b)}): {b.hex()}")


# ARP: a request as it arrives after a NIC padded it to 60 bytes, and an unpadded reply.
show("arp_request", Ether(dst="ff:ff:ff:ff:ff:ff", src=HOST1)
     / ARP(op=1, hwsrc=HOST1, psrc="10.0.0.1", hwdst="00:00:00:00:00:00", pdst="10.0.0.2") / Padding(b"\0" * 18))
show("arp_reply", Ether(dst=HOST1, src=HOST2) / ARP(op=2, hwsrc=HOST2, psrc="10.0.0.2", hwdst=HOST1, pdst="10.0.0.1"))

# ping as iputils sends it: 56 data bytes, a timestamp then 0x10, 0x11, ...
ping_data = bytes.fromhex("5f2a1c6500000000") + bytes(range(0x10, 0x40))
show("ping_request", Ether(dst=HOST2, src=HOST1) / IP(src="10.0.0.1", dst="10.0.0.2", id=0x1c46, flags="DF", ttl=64)
     / ICMP(type=8, id=0x0d2f, seq=1) / Raw(ping_data))
show("ping_reply", Ether(dst=HOST1, src=HOST2) / IP(src="10.0.0.2", dst="10.0.0.1", id=0x9b10, ttl=64)
     / ICMP(type=0, id=0x0d2f, seq=1) / Raw(ping_data))

# TCP: a SYN with Linux's options, and a segment with data.
show("tcp_syn", Ether(dst=HOST2, src=HOST1)
     / IP(src="10.0.0.1", dst="10.0.0.2", id=0x4a1b, flags="DF", ttl=64, tos=0x10)
     / TCP(sport=43512, dport=80, seq=0xd3c1a2b4, ack=0, flags="S", window=64240,
           options=[("MSS", 1460), ("SAckOK", b""), ("Timestamp", (2890123456, 0)), ("NOP", None), ("WScale", 7)]))
show("tcp_synack_data", Ether(dst=HOST1, src=HOST2) / IP(src="10.0.0.2", dst="10.0.0.1", id=0, flags="DF", ttl=64)
     / TCP(sport=80, dport=43512, seq=0x11223344, ack=0xd3c1a2b5, flags="PA", window=509,
           options=[("NOP", None), ("NOP", None), ("Timestamp", (1, 2890123456))])
     / Raw(b"HTTP/1.0 200 OK\r\n\r\n"))

# UDP: a DNS query, and a datagram without checksum.
show("udp_dns", Ether(dst=HOST2, src=HOST1) / IP(src="10.0.0.1", dst="10.0.0.53", id=0x2f3e, ttl=64)
     / UDP(sport=53421, dport=53) / DNS(id=0xbeef, rd=1, qd=DNSQR(qname="example.com", qtype="A")))
show("udp_nocsum", Ether(dst=HOST2, src=HOST1) / IP(src="10.0.0.1", dst="10.0.0.2", id=7, ttl=64)
     / UDP(sport=5000, dport=6000, chksum=0) / Raw(b"hello"))

# DHCP: DISCOVER padded to the customary 300 bytes, REQUEST, ACK.
chaddr = mac2str(HOST1) + b"\0" * 10
client = Ether(dst="ff:ff:ff:ff:ff:ff", src=HOST1) / IP(src="0.0.0.0", dst="255.255.255.255", id=0, ttl=64, tos=0x10) \
    / UDP(sport=68, dport=67)
discover = [("message-type", "discover"), ("hostname", "beacon-host"),
            ("param_req_list", [1, 28, 2, 3, 15, 6, 119, 12, 44, 47, 26, 121, 42]), "end"]
unpadded = len(bytes(BOOTP(op=1, xid=0x3903f326, chaddr=chaddr, secs=3) / DHCP(options=discover)))
show("dhcp_discover", client / BOOTP(op=1, xid=0x3903f326, chaddr=chaddr, secs=3)
     / DHCP(options=discover + ["pad"] * (300 - unpadded)))
show("dhcp_request", client / BOOTP(op=1, xid=0x3903f326, chaddr=chaddr, secs=3)
     / DHCP(options=[("message-type", "request"), ("server_id", "10.0.0.254"), ("requested_addr", "10.0.0.100"),
                     ("hostname", "beacon-host"), ("param_req_list", [1, 3, 6, 15]), "end"]))
show("dhcp_ack", Ether(dst=HOST1, src="52:54:00:00:00:fe") / IP(src="10.0.0.254", dst="10.0.0.100", id=0x1234, ttl=64)
     / UDP(sport=67, dport=68) / BOOTP(op=2, xid=0x3903f326, yiaddr="10.0.0.100", siaddr="10.0.0.254", chaddr=chaddr)
     / DHCP(options=[("message-type", "ack"), ("server_id", "10.0.0.254"), ("lease_time", 3600),
                     ("subnet_mask", "255.255.255.0"), ("router", "10.0.0.254"), "end"]))

# 802.1Q, 802.3, IPv4 options, fragments.
show("vlan_ping", Ether(dst=HOST2, src=HOST1) / Dot1Q(prio=5, id=0, vlan=100)
     / IP(src="10.0.0.1", dst="10.0.0.2", id=1, ttl=64) / ICMP(type=8, id=1, seq=2) / Raw(b"abcdefgh"))
show("stp_bpdu", Dot3(dst="01:80:c2:00:00:00", src=HOST1) / LLC() / STP(rootmac=HOST1, bridgemac=HOST1))
show("igmp_ra", Ether(dst="01:00:5e:00:00:fb", src=HOST1)
     / IP(src="10.0.0.1", dst="224.0.0.251", ttl=1, tos=0xc0, id=0, flags="DF", options=[b"\x94\x04\x00\x00"], proto=2)
     / Raw(bytes.fromhex("160900fae00000fb")))
for i, f in enumerate(fragment(IP(src="10.0.0.1", dst="10.0.0.2", id=0xabcd, ttl=64)
                               / UDP(sport=1111, dport=2222) / Raw(b"x" * 60), fragsize=32)):
    show(f"frag{i}", Ether(dst=HOST2, src=HOST1) / f)

# LLDP as lldpd on Linux sends it (every standard TLV plus an IEEE 802.3 one), and a minimal one with text ids.
show("lldp_lldpd", Ether(dst="01:80:c2:00:00:0e", src=HOST1)
     / LLDPDUChassisID(subtype=4, id=HOST1) / LLDPDUPortID(subtype=3, id=HOST1) / LLDPDUTimeToLive(ttl=120)
     / LLDPDUSystemName(system_name="host1")
     / LLDPDUSystemDescription(description="Debian GNU/Linux 12 (bookworm) Linux 6.1.0-18-amd64 #1 SMP "
                                           "PREEMPT_DYNAMIC x86_64")
     / LLDPDUSystemCapabilities(mac_bridge_available=1, router_available=1, router_enabled=1)
     / LLDPDUManagementAddress(management_address_subtype=1, management_address=socket.inet_aton("10.0.0.1"),
                               interface_numbering_subtype=2, interface_number=2)
     / LLDPDUPortDescription(description="eth0")
     / LLDPDUGenericOrganisationSpecific(org_code=0x00120f, subtype=1, data=bytes.fromhex("03006c0000"))
     / LLDPDUEndOfLLDPDU())
show("lldp_ifname", Ether(dst="01:80:c2:00:00:0e", src=HOST1)
     / LLDPDUChassisID(subtype=7, id=b"br0-chassis") / LLDPDUPortID(subtype=5, id=b"veth1") / LLDPDUTimeToLive(ttl=0)
     / LLDPDUEndOfLLDPDU() / Padding(b"\0" * 4))
