#!/usr/bin/env python3
"""Beacon's learning-switch-only configuration answers every buffered PACKET_IN with exactly one message.

That is what cbench counts (ARCHITECTURE.md, cbench): a FLOW_MOD ADD carrying the buffer_id when the destination
is known, a flooding PACKET_OUT carrying the buffer_id when it is not. This starts the built product
(`./beacon -configuration configurationSwitch`) on a free loopback port, emulates switches, and checks every
response, in a throughput style (PACKET_INs pipelined) and a latency style (one in flight per switch).

Prints one line per check, then `N passed, N failed`; exits 1 on any failure (and prints the tail of Beacon's log).
Python 3 standard library only; no root needed.
"""

import argparse
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import ofp10

REPO = Path(__file__).resolve().parents[2]
PRODUCT = REPO / "launcher/target/products/net.beaconcontroller.product/linux/gtk/x86_64/beacon"
N_PORTS = 3  # and as many hosts: host p sits behind port p
ROTATING_SOURCES = 1000
FENCE_XID = 0xfe11ce
FIRST_MISMATCHES = 5


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--product", type=Path, default=PRODUCT, help="the built product directory (default: %(default)s)")
    p.add_argument("--switches", type=int, default=4, help="emulated switches per check (default: %(default)s)")
    p.add_argument("--throughput-packets", type=int, default=5000,
                   help="pipelined PACKET_INs per switch (default: %(default)s)")
    p.add_argument("--latency-packets", type=int, default=500,
                   help="one-at-a-time PACKET_INs per switch (default: %(default)s)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a Beacon setting for this run (a -D system property), e.g. controller.immediate=true")
    p.add_argument("--startup-timeout", type=float, default=60, help="seconds for Beacon to listen")
    p.add_argument("--keep", action="store_true", help="keep Beacon's log even on success")
    args = p.parse_args(argv)
    if not (args.product / "beacon").is_file():
        p.error(f"no product at {args.product} (no 'beacon' script): build it first (./mvnw verify)")
    return args


# ------------------------------------------------------------------------------------------------------- Beacon

class Beacon:
    """The product's start script as a child in a session of its own: stop() ends exactly what it started."""

    def __init__(self, product, port, log_path, settings=()):
        self.product = product
        self.port = port
        self.log_path = log_path
        self.settings = settings
        self.barrier = "controller.preExistingFlows=DELETE" in settings
        self._proc = None

    def start(self):
        env = dict(os.environ)
        env["JAVA_OPTS"] = " ".join([f"-Dcontroller.listenPort={self.port}", "-Dcontroller.legacyListenPort=-1",
                                     "-Dcontroller.listenAddress=127.0.0.1", *(f"-D{s}" for s in self.settings)])
        with open(self.log_path, "wb") as log:
            # stdin stays an open pipe: Beacon's console reads it, and EOF would end the console.
            self._proc = subprocess.Popen(["./beacon", "-clean", "-configuration", "configurationSwitch"], cwd=self.product,
                                          env=env, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT,
                                          start_new_session=True)

    def wait_listening(self, timeout):
        """Polls the kernel's socket table (a probe connection would look like a broken switch to Beacon)."""
        deadline = time.monotonic() + timeout
        while not self._listening():
            if self._proc.poll() is not None:
                raise RuntimeError(f"Beacon exited with {self._proc.returncode} before listening on {self.port}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"Beacon not listening on 127.0.0.1:{self.port} after {timeout:.0f}s")
            time.sleep(0.1)

    def _listening(self):
        # Java listens on an IPv6 socket (::ffff:127.0.0.1) where it can, so both tables count.
        suffix = f":{self.port:04X}"
        inodes = set()
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                with open(table) as f:
                    inodes |= {fields[9] for fields in (line.split() for line in f.readlines()[1:])
                               if fields[1].endswith(suffix) and fields[3] == "0A"}
            except OSError:
                pass
        if not inodes:
            return False
        # Only a listener of our own process counts: someone else could have taken the port meanwhile.
        fd_dir = f"/proc/{self._proc.pid}/fd"
        try:
            links = {os.readlink(os.path.join(fd_dir, fd)) for fd in os.listdir(fd_dir)}
        except OSError:
            return False
        return any(f"socket:[{inode}]" in links for inode in inodes)

    def stop(self):
        if self._proc is None or self._proc.poll() is not None:
            return
        self._signal(signal.SIGTERM)
        try:
            self._proc.wait(10)
        except subprocess.TimeoutExpired:
            self._signal(signal.SIGKILL)
            self._proc.wait()
        finally:
            self._proc.stdin.close()

    def _signal(self, sig):
        try:
            os.killpg(self._proc.pid, sig)
        except ProcessLookupError:
            pass

    def log_tail(self, lines=40):
        try:
            with open(self.log_path, errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError as e:
            return f"(no log: {e})"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -------------------------------------------------------------------------------------------------------- frames

def mac(prefix, number):
    """A MAC from a 2-byte prefix and a 32-bit number."""
    return prefix + number.to_bytes(4, "big")


BROADCAST = b"\xff" * 6


def host_mac(sw, h):
    return mac(b"\x02\x00", (sw << 8) | h)


def host_ip(sw, h):
    return (10 << 24) | (sw << 16) | h


def arp_frame(src_mac, ip):
    """A gratuitous ARP request (what cbench's switches send first to get their hosts learned)."""
    arp = struct.pack("!HHBBH6sI6sI", 1, 0x0800, 6, 4, 1, src_mac, ip, b"\0" * 6, ip)
    return BROADCAST + src_mac + struct.pack("!H", 0x0806) + arp + b"\0" * 18


def ipv4_checksum(header):
    total = sum(struct.unpack(f"!{len(header) // 2}H", header))
    while total >> 16:
        total = (total & 0xffff) + (total >> 16)
    return ~total & 0xffff


def udp_frame(dst, src, nw_src, nw_dst, tos, tp_src, tp_dst, vlan=None, size=64):
    """An Ethernet (optionally 802.1Q: (vid, pcp)) IPv4/UDP frame of `size` bytes."""
    tag = b"" if vlan is None else struct.pack("!HH", 0x8100, (vlan[1] << 13) | vlan[0])
    payload_len = size - 14 - len(tag) - 20 - 8
    ip = struct.pack("!BBHHHBBHII", 0x45, tos, 20 + 8 + payload_len, 0, 0, 64, 17, 0, nw_src, nw_dst)
    ip = ip[:10] + struct.pack("!H", ipv4_checksum(ip)) + ip[12:]
    udp = struct.pack("!HHHH", tp_src, tp_dst, 8 + payload_len, 0)
    return dst + src + tag + struct.pack("!H", 0x0800) + ip + udp + b"\0" * payload_len


class Expected:
    """What one buffered PACKET_IN must get back: a FLOW_MOD ADD (match, out port; None = drop) or a flood."""
    __slots__ = ("in_port", "flow", "match", "out_port")

    def __init__(self, in_port, flow, match=None, out_port=None):
        self.in_port, self.flow, self.match, self.out_port = in_port, flow, match, out_port


def traffic(sw, count, buffer_base):
    """The learning phase, then `count` PACKET_INs, as [(buffer_id, PACKET_IN bytes, Expected)] lists.

    Sources rotate over ROTATING_SOURCES MACs that are never a destination; destinations are the learned hosts
    (mostly from another port, 1 in 20 from the host's own port, which gets a dropping flow) or an unknown
    unicast, broadcast or multicast address (flooded)."""
    learning = []
    for h in range(1, N_PORTS + 1):
        bid = buffer_base + h
        learning.append((bid, ofp10.packet_in(0, bid, h, arp_frame(host_mac(sw, h), host_ip(sw, h))),
                         Expected(h, flow=False)))
    packets = []
    tos_values = (0x00, 0x03, 0xb8, 0x2b)  # ECN bits are not part of OpenFlow 1.0's nw_tos
    for k in range(count):
        bid = buffer_base + 0x100 + k
        in_port = 1 + k % N_PORTS
        src_index = k % ROTATING_SOURCES
        src = mac(b"\x02\x01", (sw << 16) | src_index)
        nw_src = (10 << 24) | (sw << 16) | (1 << 12) | src_index
        kind = k % 20
        vlan = (10 + k % 100, k % 8) if kind == 13 else None
        if kind < 14:
            h = 1 + (in_port + kind % (N_PORTS - 1)) % N_PORTS  # a host behind another port than in_port
            dst, out_port = host_mac(sw, h), h
        elif kind == 14:
            dst, out_port = host_mac(sw, in_port), None
        elif kind == 17:
            dst, out_port = BROADCAST, None
        elif kind == 18:
            dst, out_port = b"\x01\x00\x5e\x00\x00" + bytes([k % 128]), None
        else:
            dst, out_port = mac(b"\x02\x02", (sw << 16) | k), None  # never a source: unknown
        nw_dst = (10 << 24) | (sw << 16) | (2 << 8) | k % 250
        tos, tp_src, tp_dst = tos_values[k % 4], 1024 + k % 50000, 9 + k % 7
        frame = udp_frame(dst, src, nw_src, nw_dst, tos, tp_src, tp_dst, vlan)
        flow = kind <= 14
        match = (0, in_port, src, dst, 0xffff if vlan is None else vlan[0], 0 if vlan is None else vlan[1], 0x0800,
                 tos & 0xfc, 17, nw_src, nw_dst, tp_src, tp_dst) if flow else None
        packets.append((bid, ofp10.packet_in(0, bid, in_port, frame), Expected(in_port, flow, match, out_port)))
    return learning, packets


# --------------------------------------------------------------------------------------------- emulated switch

class Response:
    """A FLOW_MOD ADD or a non-LLDP PACKET_OUT: what cbench counts."""
    __slots__ = ("flow", "buffer_id", "in_port", "match", "actions", "data_len", "late")

    def __init__(self, flow, buffer_id, in_port=None, match=None, actions=(), data_len=0):
        self.flow, self.buffer_id, self.in_port, self.match = flow, buffer_id, in_port, match
        self.actions, self.data_len = actions, data_len
        self.late = False

    def __str__(self):
        ports = [ofp10.output_port(a) for a in self.actions]
        if self.flow:
            return f"FLOW_MOD ADD buffer {self.buffer_id:#x} outputs {ports}"
        return f"PACKET_OUT buffer {self.buffer_id:#x} in_port {self.in_port} outputs {ports} data {self.data_len}B"


class FakeSwitch:
    """One emulated OpenFlow 1.0 switch: a reader thread answers the handshake and echoes and records responses."""

    def __init__(self, port, dpid, barrier=True):
        """`barrier`: Beacon ends the handshake with a BARRIER_REQUEST (controller.preExistingFlows=DELETE); by
        default (RECONCILE) the handshake ends with SET_CONFIG and the flow table is read once the switch is active:
        this switch's is empty."""
        self.dpid = dpid
        self.barrier = barrier
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.settimeout(None)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._send_lock = threading.Lock()
        self.cond = threading.Condition()
        self.responses = []
        self.answered = set()
        self.others = {}  # "TYPE" -> count, for every other message Beacon sent
        self.handshake_done = False
        self.echo_replies = set()
        self.fence_seen = False
        self.closed = None  # why the connection ended, once it did
        self._reader = threading.Thread(target=self._read_loop, daemon=True, name=f"switch-{dpid:x}")
        self._reader.start()

    def send(self, data):
        with self._send_lock:
            self.sock.sendall(data)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self._reader.join(5)

    def wait(self, predicate, deadline):
        """Waits under the condition until predicate() holds or the connection ends; False at the deadline."""
        with self.cond:
            while not predicate():
                if self.closed is not None:
                    return predicate()
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(left)
            return True

    def handshake(self, deadline):
        self.send(ofp10.message(ofp10.HELLO, 1))
        if not self.wait(lambda: self.handshake_done, deadline):
            raise AssertionError(f"switch {self.dpid:#x}: no {'BARRIER_REQUEST' if self.barrier else 'SET_CONFIG'} "
                                 f"to end the handshake "
                                 f"({self.closed or 'timeout'}; got {self.others})")

    def fence(self, deadline):
        """An ECHO_REQUEST behind everything sent: Beacon handles a switch's messages in order on one thread, so
        its ECHO_REPLY leaves after every response to the PACKET_INs before it."""
        self.send(ofp10.message(ofp10.ECHO_REQUEST, FENCE_XID))
        return self.wait(lambda: FENCE_XID in self.echo_replies, deadline)

    def _read_loop(self):
        buf = bytearray()
        why = "connection closed by Beacon"
        try:
            while chunk := self.sock.recv(1 << 18):
                buf += chunk
                at = 0
                with self.cond:
                    while len(buf) - at >= 8:
                        length = struct.unpack_from("!H", buf, at + 2)[0]
                        if length < 8:
                            raise ValueError(f"OpenFlow length {length}")
                        if len(buf) - at < length:
                            break
                        self._handle(bytes(buf[at:at + length]))
                        at += length
                    self.cond.notify_all()
                del buf[:at]
        except OSError as e:
            why = f"connection error: {e}"
        except (ValueError, struct.error) as e:
            why = f"malformed message from Beacon: {e}"
        finally:
            with self.cond:
                self.closed = why
                self.cond.notify_all()

    def _handle(self, msg):
        msg_type, xid = msg[1], struct.unpack_from("!I", msg, 4)[0]
        body = msg[8:]
        name = TYPE_NAMES.get(msg_type, f"type {msg_type}")
        if msg_type == ofp10.FLOW_MOD:
            m, command, _, _, _, buffer_id, _, _, actions = ofp10.parse_flow_mod(body)
            if command == ofp10.FLOW_ADD:
                self._response(Response(True, buffer_id, match=m, actions=actions))
                return
            name = f"FLOW_MOD command {command}"
        elif msg_type == ofp10.PACKET_OUT:
            buffer_id, in_port, actions, data = ofp10.parse_packet_out(body)
            lldp = len(data) >= 14 and struct.unpack_from("!H", data, 12)[0] == ofp10.ETH_TYPE_LLDP
            if not lldp:
                self._response(Response(False, buffer_id, in_port=in_port, actions=actions, data_len=len(data)))
                return
            name = "PACKET_OUT LLDP"
        elif msg_type == ofp10.FEATURES_REQUEST:
            ports = [ofp10.phy_port(p, mac(b"\x0a\x00", (self.dpid << 8 | p) & 0xffffffff), f"s{self.dpid:x}-eth{p}")
                     for p in range(1, N_PORTS + 1)]
            self.send(ofp10.features_reply(xid, self.dpid, ports))
        elif msg_type == ofp10.STATS_REQUEST and struct.unpack_from("!H", body)[0] == ofp10.STATS_DESC:
            self.send(ofp10.desc_stats_reply(xid, "Beacon e2e", "one_response.py", "emulated", str(self.dpid),
                                             f"emulated switch {self.dpid:#x}"))
        elif msg_type == ofp10.STATS_REQUEST and struct.unpack_from("!H", body)[0] == ofp10.STATS_FLOW:
            self.send(ofp10.message(ofp10.STATS_REPLY, xid, struct.pack("!HH", ofp10.STATS_FLOW, 0)))
        elif msg_type == ofp10.BARRIER_REQUEST:
            self.send(ofp10.message(ofp10.BARRIER_REPLY, xid))
            self.handshake_done = True
        elif msg_type == ofp10.SET_CONFIG and not self.barrier:
            self.handshake_done = True
        elif msg_type == ofp10.ECHO_REQUEST:
            self.send(ofp10.message(ofp10.ECHO_REPLY, xid, bytes(body)))
        elif msg_type == ofp10.ECHO_REPLY:
            self.echo_replies.add(xid)
            if xid == FENCE_XID:
                self.fence_seen = True
        self.others[name] = self.others.get(name, 0) + 1

    def _response(self, r):
        r.late = self.fence_seen
        self.responses.append(r)
        self.answered.add(r.buffer_id)


TYPE_NAMES = {getattr(ofp10, name): name for name in (
    "HELLO", "ERROR", "ECHO_REQUEST", "ECHO_REPLY", "VENDOR", "FEATURES_REQUEST", "GET_CONFIG_REQUEST", "SET_CONFIG",
    "PORT_MOD", "STATS_REQUEST", "BARRIER_REQUEST", "QUEUE_GET_CONFIG_REQUEST")}


# --------------------------------------------------------------------------------------------------- checking

def check_responses(sw, expected):
    """Mismatch descriptions for one switch: `expected` maps every buffer_id sent to its Expected."""
    problems = []
    seen = {}
    for r in sw.responses:
        seen[r.buffer_id] = seen.get(r.buffer_id, 0) + 1
        want = expected.get(r.buffer_id)
        if want is None:
            problems.append(f"unexpected {r} (no PACKET_IN had that buffer_id)")
        elif seen[r.buffer_id] > 1:
            problems.append(f"duplicate {r}")
        elif want.flow != r.flow:
            problems.append(f"{r}: expected a {'FLOW_MOD ADD' if want.flow else 'flooding PACKET_OUT'}")
        elif r.flow:
            outs = [ofp10.output_port(a) for a in r.actions]
            want_outs = [] if want.out_port is None else [want.out_port]
            if r.match != want.match:
                problems.append(f"{r}: match {r.match}, expected {want.match}")
            elif outs != want_outs:
                problems.append(f"{r}: expected outputs {want_outs}")
        else:
            outs = [ofp10.output_port(a) for a in r.actions]
            if outs != [ofp10.OFPP_FLOOD] or r.in_port != want.in_port or r.data_len:
                problems.append(f"{r}: expected in_port {want.in_port}, outputs [FLOOD {ofp10.OFPP_FLOOD}], no data")
        if r.late and want is not None and seen[r.buffer_id] == 1:
            problems.append(f"{r} arrived after the ECHO_REPLY sent behind its PACKET_IN")
    missing = [bid for bid in expected if bid not in seen]
    if missing:
        problems.append(f"{len(missing)} buffer_ids never answered, first {', '.join(f'{b:#x}' for b in missing[:5])}")
    if not sw.fence_seen:
        problems.append("no ECHO_REPLY to the ECHO_REQUEST sent behind the PACKET_INs")
    if sw.closed is not None:
        problems.append(sw.closed)
    return problems


def summarize(switches, failures, started, what):
    flows = sum(r.flow for sw in switches for r in sw.responses)
    outs = sum(not r.flow for sw in switches for r in sw.responses)
    others = {}
    for sw in switches:
        for name, n in sw.others.items():
            others[name] = others.get(name, 0) + n
    other_text = ", ".join(f"{n} {name}" for name, n in sorted(others.items()))
    text = f"{what}: {flows} FLOW_MOD ADD + {outs} PACKET_OUT; other messages: {other_text}"
    if failures:
        raise AssertionError(f"{len(failures)} problems ({text}); first: " + "; ".join(failures[:FIRST_MISMATCHES]))
    return f"{text} ({time.monotonic() - started:.1f}s)"


def connect(args, beacon, dpid_base):
    switches = []
    try:
        for i in range(args.switches):
            switches.append(FakeSwitch(beacon.port, dpid_base + i + 1, beacon.barrier))
        deadline = time.monotonic() + 10
        for sw in switches:
            sw.handshake(deadline)
    except BaseException:
        for sw in switches:
            sw.close()
        raise
    return switches


def run_parallel(switches, work):
    """work(index, switch) on one thread per switch; re-raises the first exception."""
    errors = [None] * len(switches)

    def run(i, sw):
        try:
            work(i, sw)
        except Exception as e:  # noqa: BLE001 - handed to the caller
            errors[i] = e
    threads = [threading.Thread(target=run, args=(i, sw), daemon=True) for i, sw in enumerate(switches)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for e in errors:
        if e is not None:
            raise e


def learn(sw, learning, deadline):
    """The learning phase, answered before anything else is sent: it also proves the switch is active."""
    sw.send(b"".join(msg for _, msg, _ in learning))
    ids = [bid for bid, _, _ in learning]
    if not sw.wait(lambda: all(b in sw.answered for b in ids), deadline):
        raise AssertionError(f"switch {sw.dpid:#x}: the learning PACKET_INs were not all answered "
                             f"({sw.closed or 'timeout'}; responses: {[str(r) for r in sw.responses]})")


def test_one_response_throughput(args, beacon):
    started = time.monotonic()
    switches = connect(args, beacon, 0x1000)
    try:
        plans = [traffic(i + 1, args.throughput_packets, (i + 1) << 24) for i in range(len(switches))]
        spans = [(0.0, 0.0)] * len(switches)

        def work(i, sw):
            learning, packets = plans[i]
            learn(sw, learning, time.monotonic() + 10)
            t0 = time.monotonic()
            batch = 100  # message-aligned chunks so that an ECHO_REPLY of the reader thread never splits one
            for at in range(0, len(packets), batch):
                sw.send(b"".join(msg for _, msg, _ in packets[at:at + batch]))
            ids = [bid for bid, _, _ in packets]
            deadline = time.monotonic() + 20
            sw.fence(deadline)
            # Anything still missing after the fence may yet come late; wait for it, bounded, to tell the two apart.
            sw.wait(lambda: len(sw.answered) >= len(ids) + len(learning), deadline)
            spans[i] = (t0, time.monotonic())
        run_parallel(switches, work)
        failures = []
        for i, sw in enumerate(switches):
            learning, packets = plans[i]
            expected = {bid: exp for bid, _, exp in learning + packets}
            failures += [f"switch {sw.dpid:#x}: {p}" for p in check_responses(sw, expected)]
        total = sum(len(p) for _, p in plans)
        rate = total / (max(end for _, end in spans) - min(start for start, _ in spans))
        return summarize(switches, failures, started,
                         f"{len(switches)} switches x {args.throughput_packets} pipelined buffered PACKET_INs "
                         f"(+{N_PORTS} learning each), {rate:,.0f} responses/s")
    finally:
        for sw in switches:
            sw.close()


def test_one_response_latency(args, beacon):
    started = time.monotonic()
    switches = connect(args, beacon, 0x2000)
    try:
        plans = [traffic(i + 1, args.latency_packets, (i + 1) << 24) for i in range(len(switches))]
        rtts = []
        lock = threading.Lock()

        def work(i, sw):
            learning, packets = plans[i]
            learn(sw, learning, time.monotonic() + 10)
            mine = []
            for bid, msg, _ in packets:
                count = len(sw.responses)
                t0 = time.monotonic()
                sw.send(msg)
                if not sw.wait(lambda: len(sw.responses) > count, t0 + 2):
                    raise AssertionError(f"switch {sw.dpid:#x}: no response to buffer {bid:#x} within 2 s "
                                         f"({sw.closed or 'timeout'})")
                mine.append(time.monotonic() - t0)
            sw.fence(time.monotonic() + 5)
            with lock:
                rtts.extend(mine)
        run_parallel(switches, work)
        failures = []
        for i, sw in enumerate(switches):
            learning, packets = plans[i]
            expected = {bid: exp for bid, _, exp in learning + packets}
            failures += [f"switch {sw.dpid:#x}: {p}" for p in check_responses(sw, expected)]
        rtts.sort()
        return summarize(switches, failures, started,
                         f"{len(switches)} switches x {args.latency_packets} buffered PACKET_INs one at a time, "
                         f"median round trip {rtts[len(rtts) // 2] * 1e6:.0f} us")
    finally:
        for sw in switches:
            sw.close()


TESTS = (test_one_response_throughput, test_one_response_latency)


def wait_answering(beacon, timeout):
    """Polls with probe PACKET_INs from a switch of its own until one is answered; returns how many it took.

    Beacon listens once its core is up, which can be before the learning switch (a later start level) is: until
    then a PACKET_IN finds no listener and gets no answer, so the checked switches connect only afterwards."""
    deadline = time.monotonic() + timeout
    probe = FakeSwitch(beacon.port, 0xffff, beacon.barrier)
    try:
        probe.handshake(min(deadline, time.monotonic() + 10))
        frame = arp_frame(host_mac(0xff, 1), host_ip(0xff, 1))
        for n in range(1, 1 << 20):
            bid = 0xf000_0000 + n
            probe.send(ofp10.packet_in(0, bid, 1, frame))
            if probe.wait(lambda: bid in probe.answered, min(deadline, time.monotonic() + 0.2)):
                return n
            if probe.closed is not None or time.monotonic() >= deadline:
                raise TimeoutError(f"no answer to a probe PACKET_IN after {timeout:.0f}s ({probe.closed or n})")
        raise TimeoutError("no answer to a probe PACKET_IN")
    finally:
        probe.close()


def main():
    args = parse_args(sys.argv[1:])
    # A SIGTERM (CI timeout) must still stop Beacon: turn it into an exception that runs the finally below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    workdir = tempfile.mkdtemp(prefix="one_response-")
    beacon = Beacon(args.product.resolve(), free_port(), os.path.join(workdir, "beacon.log"), args.set)
    passed = failed = 0
    t_start = time.monotonic()
    try:
        try:
            beacon.start()
            beacon.wait_listening(args.startup_timeout)
            listening = time.monotonic() - t_start
            probes = wait_answering(beacon, args.startup_timeout)
            print(f"setup: Beacon (configurationSwitch) listening on 127.0.0.1:{beacon.port} after {listening:.1f}s, "
                  f"answering after {time.monotonic() - t_start:.1f}s ({probes} probe PACKET_IN(s))", flush=True)
            tests = TESTS
        except Exception as e:  # noqa: BLE001 - any setup failure is reported the same way
            print(f"FAIL setup: {e}", flush=True)
            failed += 1
            tests = ()
        for test in tests:
            name = test.__name__.removeprefix("test_")
            try:
                print(f"PASS {name}: {test(args, beacon)}", flush=True)
                passed += 1
            except Exception as e:  # noqa: BLE001 - a check's failure, whatever it is, is reported and counted
                print(f"FAIL {name}: {type(e).__name__ + ': ' if not isinstance(e, AssertionError) else ''}{e}",
                      flush=True)
                failed += 1
    finally:
        beacon.stop()
    print(f"total {time.monotonic() - t_start:.1f}s", flush=True)
    if failed:
        print(f"== Beacon log (tail of {beacon.log_path})\n{beacon.log_tail()}", flush=True)
    if failed or args.keep:
        print(f"Beacon log kept: {beacon.log_path}", flush=True)
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"{passed} passed, {failed} failed", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
