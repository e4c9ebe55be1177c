"""Emulates a large OpenFlow 1.0 network for Beacon: a grid of switches whose links answer LLDP discovery (a
PACKET_OUT of an LLDP frame on a link port comes back as a PACKET_IN on the port at the other end) and hosts that
announce themselves with one ARP request each. Used to measure the web UI's topology page at 1,000 switches and
10,000 hosts (see docs/web.md); it runs until interrupted.

    python3 launcher/e2e/emulate_network.py --switches 1000 --hosts-per-switch 10 --port 6633
"""

import argparse
import asyncio
import math
import struct

import ofp10

HOST_PORTS_FROM = 1
LINK_PORTS = 4  # right, left, down, up


class Grid:
    """Switch i at (i % width, i // width); ports 1..hosts for hosts, then four link ports."""

    def __init__(self, switches, hosts):
        self.n = switches
        self.hosts = hosts
        self.width = math.ceil(math.sqrt(switches))
        self.peers = {}
        for i in range(switches):
            x, y = i % self.width, i // self.width
            right = i + 1 if x + 1 < self.width and i + 1 < switches else None
            down = i + self.width if i + self.width < switches else None
            if right is not None:
                self.connect(i, self.port(0), right, self.port(1))
            if down is not None:
                self.connect(i, self.port(2), down, self.port(3))

    def port(self, direction):
        return self.hosts + 1 + direction

    def connect(self, a, pa, b, pb):
        self.peers[(a, pa)] = (b, pb)
        self.peers[(b, pb)] = (a, pa)

    def links(self):
        return len(self.peers) // 2


def dpid(i):
    return 0x1000000 + i


def host_mac(i, h):
    n = i * 256 + h
    return bytes([0x02, 0, (n >> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff])


def host_ip(index):
    index += 1
    return bytes([10, (index >> 16) & 0xff, (index >> 8) & 0xff, index & 0xff])


def arp_request(mac, ip):
    """Who has 10.255.255.254? Tell ip (a host announcing itself)."""
    return (b"\xff" * 6 + mac + struct.pack("!H", 0x0806)
            + struct.pack("!HHBBH", 1, 0x0800, 6, 4, 1) + mac + ip + b"\0" * 6 + bytes([10, 255, 255, 254]))


class Switch:
    def __init__(self, net, i):
        self.net = net
        self.i = i
        self.writer = None
        self.ready = asyncio.Event()

    async def run(self, host, port):
        reader, self.writer = await asyncio.open_connection(host, port)
        self.writer.write(ofp10.message(ofp10.HELLO, 1))
        while True:
            head = await reader.readexactly(8)
            length = struct.unpack_from("!H", head, 2)[0]
            body = await reader.readexactly(length - 8)
            self.handle(head[1], struct.unpack_from("!I", head, 4)[0], body)

    def send(self, data):
        self.writer.write(data)

    def handle(self, msg_type, xid, body):
        g = self.net.grid
        if msg_type == ofp10.PACKET_OUT:
            _, _, actions_len = struct.unpack_from("!IHH", body)
            data = body[8 + actions_len:]
            if len(data) < 14 or struct.unpack_from("!H", data, 12)[0] != ofp10.ETH_TYPE_LLDP:
                return
            for action in ofp10.parse_actions(body[8:8 + actions_len]):
                out = ofp10.output_port(action)
                peer = g.peers.get((self.i, out))
                if peer is not None:
                    other = self.net.switches[peer[0]]
                    if other.ready.is_set():
                        other.send(ofp10.packet_in(0, ofp10.NO_BUFFER, peer[1], data, reason=1))
        elif msg_type == ofp10.FEATURES_REQUEST:
            ports = [ofp10.phy_port(p, bytes([0x0a, 0, 0, (self.i >> 8) & 0xff, self.i & 0xff, p]), f"s{self.i}-eth{p}")
                     for p in range(1, g.hosts + LINK_PORTS + 1)]
            self.send(ofp10.features_reply(xid, dpid(self.i), ports))
        elif msg_type == ofp10.STATS_REQUEST and struct.unpack_from("!H", body)[0] == ofp10.STATS_DESC:
            self.send(ofp10.desc_stats_reply(xid, "Beacon", "emulate_network.py", "emulated", str(self.i),
                                             f"grid switch {self.i}"))
        elif msg_type == ofp10.STATS_REQUEST and struct.unpack_from("!H", body)[0] == ofp10.STATS_FLOW:
            # An empty flow table: what Beacon reads to reconcile a switch before it takes it in (with nothing to
            # reconcile, that is the end of the handshake: no barrier follows).
            self.send(ofp10.message(ofp10.STATS_REPLY, xid, struct.pack("!HH", ofp10.STATS_FLOW, 0)))
            self.ready.set()
        elif msg_type == ofp10.BARRIER_REQUEST:
            self.send(ofp10.message(ofp10.BARRIER_REPLY, xid))
            self.ready.set()
        elif msg_type == ofp10.ECHO_REQUEST:
            self.send(ofp10.message(ofp10.ECHO_REPLY, xid, bytes(body)))

    def announce_hosts(self):
        for h in range(self.net.grid.hosts):
            frame = arp_request(host_mac(self.i, h), host_ip(self.i * self.net.grid.hosts + h))
            self.send(ofp10.packet_in(0, ofp10.NO_BUFFER, HOST_PORTS_FROM + h, frame))


class Network:
    def __init__(self, grid):
        self.grid = grid
        self.switches = [Switch(self, i) for i in range(grid.n)]


async def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--switches", type=int, default=1000)
    p.add_argument("--hosts-per-switch", type=int, default=10)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=6633)
    args = p.parse_args()
    net = Network(Grid(args.switches, args.hosts_per_switch))
    tasks = []
    for s in net.switches:
        tasks.append(asyncio.create_task(s.run(args.host, args.port)))
        if len(tasks) % 50 == 0:
            await asyncio.sleep(0.05)  # a connection storm is not what this measures
    await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in net.switches)), 120)
    for s in net.switches:
        s.announce_hosts()
    print(f"emulating {args.switches} switches, {net.grid.links()} links, "
          f"{args.switches * args.hosts_per_switch} hosts", flush=True)
    done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
    for t in done:
        t.result()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
