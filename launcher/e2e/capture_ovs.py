#!/usr/bin/env python3
"""Recording controller: scripts an OpenFlow 1.0 conversation with a real Open vSwitch bridge and saves every kind
of message OVS sends, one per file, as hex text (test vectors for the openflow bundle's codec tests).

Runs a private OVS inside private namespaces like run_e2e.py (needs root). Writes <out>/<name>.hex and
<out>/README.md.
"""

import argparse
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import ofp10
import ovsenv

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "bundles/net.beaconcontroller.openflow/src/test/resources/ovs"
TYPE_NAMES = {getattr(ofp10, name): name for name in (
    "HELLO", "ERROR", "ECHO_REQUEST", "ECHO_REPLY", "VENDOR", "FEATURES_REPLY", "GET_CONFIG_REPLY", "PACKET_IN",
    "FLOW_REMOVED", "PORT_STATUS", "STATS_REPLY", "BARRIER_REPLY", "QUEUE_GET_CONFIG_REPLY")}
PORT = 6633
DPID = 0x00000000BEAC0001


class Recorder:
    """The controller side of one OVS connection; saves what OVS sends under names chosen by the script."""

    def __init__(self, conn, out):
        self.conn = conn
        self.out = out
        self.saved = []  # (file name, type, length, what)
        self.xid = 0x100
        self.echo_request_saved = False

    def save(self, name, raw, what):
        text = raw.hex()
        with open(self.out / f"{name}.hex", "w") as f:
            f.write("\n".join(text[i:i + 64] for i in range(0, len(text), 64)) + "\n")
        self.saved.append((f"{name}.hex", TYPE_NAMES.get(raw[1], str(raw[1])), len(raw), what))
        print(f"saved {name}.hex ({TYPE_NAMES.get(raw[1], raw[1])}, {len(raw)} bytes)", flush=True)

    def next_xid(self):
        self.xid += 1
        return self.xid

    def expect(self, msg_type, xid=None, timeout=10):
        """The next message of msg_type (with that xid, when given); OVS's echo requests are answered meanwhile."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no {TYPE_NAMES.get(msg_type, msg_type)} from OVS within {timeout}s")
            self.conn.sock.settimeout(remaining)
            try:
                msg = self.conn.recv()
            except socket.timeout:
                continue
            if msg is None:
                raise ConnectionError("OVS closed the connection")
            got_type, got_xid, raw = msg
            if got_type == ofp10.ECHO_REQUEST:
                if not self.echo_request_saved:
                    self.save("echo_request", raw, "OVS keepalive after 5 s idle (inactivity_probe)")
                    self.echo_request_saved = True
                self.conn.send(ofp10.message(ofp10.ECHO_REPLY, got_xid, raw[8:]))
                if msg_type != ofp10.ECHO_REQUEST:
                    continue
            if got_type == msg_type and (xid is None or got_xid == xid):
                return raw
            print(f"  (ignored {TYPE_NAMES.get(got_type, got_type)} xid={got_xid:#x}, {len(raw)} bytes)", flush=True)

    def request(self, msg_type, body=b""):
        xid = self.next_xid()
        self.conn.send(ofp10.message(msg_type, xid, body))
        return xid

    def stats(self, name, stats_type, body, what):
        xid = self.next_xid()
        self.conn.send(ofp10.stats_request(xid, stats_type, body))
        part = 0
        while True:
            raw = self.expect(ofp10.STATS_REPLY, xid)
            more = struct.unpack_from("!H", raw, 10)[0] & ofp10.STATS_REPLY_MORE
            self.save(name if part == 0 else f"{name}_part{part + 1}", raw, what + (" (more follow)" if more else ""))
            if not more:
                return
            part += 1


def capture(rec, net):
    h1, h2 = net.spec.hosts
    rec.save("hello", rec.expect(ofp10.HELLO), "OVS's HELLO on a protocols=OpenFlow10 bridge")
    rec.conn.send(ofp10.message(ofp10.HELLO, rec.next_xid()))

    xid = rec.request(ofp10.FEATURES_REQUEST)
    rec.save("features_reply", rec.expect(ofp10.FEATURES_REPLY, xid),
             f"dpid {DPID:016x}, ports 1 and 2 (veths to hosts) + LOCAL")
    xid = rec.request(ofp10.GET_CONFIG_REQUEST)
    rec.save("get_config_reply", rec.expect(ofp10.GET_CONFIG_REPLY, xid), "defaults before SET_CONFIG")
    rec.request(ofp10.SET_CONFIG, struct.pack("!HH", 0, 0xffff))
    xid = rec.request(ofp10.GET_CONFIG_REQUEST)
    rec.save("get_config_reply_after_set", rec.expect(ofp10.GET_CONFIG_REPLY, xid),
             "after SET_CONFIG flags=0 miss_send_len=0xffff")
    rec.stats("stats_reply_desc", ofp10.STATS_DESC, b"", "description stats")

    ip_match = ofp10.match(ofp10.FW_ALL & ~(ofp10.FW_IN_PORT | ofp10.FW_DL_TYPE | ofp10.FW_NW_DST_MASK),
                           in_port=1, dl_type=0x0800, nw_dst=0x0A000002)
    rec.conn.send(ofp10.flow_mod(rec.next_xid(), ip_match, ofp10.action_output(2), priority=100,
                                 cookie=0x1122334455667788))
    arp_match = ofp10.match(ofp10.FW_ALL & ~(ofp10.FW_DL_TYPE | ofp10.FW_DL_DST), dl_type=0x0806,
                            dl_dst=bytes.fromhex("000000000002"))
    actions = (ofp10.action_set_vlan_vid(10) + ofp10.action_set_dl_dst(bytes.fromhex("020000000099"))
               + ofp10.action_output(1) + ofp10.action_output(ofp10.OFPP_CONTROLLER, 128))
    rec.conn.send(ofp10.flow_mod(rec.next_xid(), arp_match, actions, priority=200, idle=300, hard=600,
                                 flags=ofp10.FLAG_SEND_FLOW_REM, cookie=2))
    xid = rec.request(ofp10.BARRIER_REQUEST)
    rec.save("barrier_reply", rec.expect(ofp10.BARRIER_REPLY, xid), "after two FLOW_MOD ADDs")

    all_flows = ofp10.match() + struct.pack("!BxH", 0xff, ofp10.OFPP_NONE)
    rec.stats("stats_reply_flow", ofp10.STATS_FLOW, all_flows,
              "two flows: in_port=1,ip,nw_dst=10.0.0.2 -> output:2 (cookie 0x1122334455667788, priority 100); "
              "arp,dl_dst=00:00:00:00:00:02 -> set_vlan_vid:10,set_dl_dst:02:00:00:00:00:99,output:1,"
              "output:CONTROLLER max_len 128 (cookie 2, priority 200, idle 300, hard 600)")
    rec.stats("stats_reply_aggregate", ofp10.STATS_AGGREGATE, all_flows, "aggregate of the two flows")
    rec.stats("stats_reply_table", ofp10.STATS_TABLE, b"", "table stats")
    rec.stats("stats_reply_port", ofp10.STATS_PORT, struct.pack("!H6x", ofp10.OFPP_NONE), "all ports")
    rec.stats("stats_reply_queue", ofp10.STATS_QUEUE, struct.pack("!H2xI", ofp10.OFPP_ALL, 0xffffffff),
              "all queues of all ports (none configured)")

    xid = rec.next_xid()
    rec.conn.send(ofp10.message(ofp10.ECHO_REQUEST, xid, b"beacon"))
    rec.save("echo_reply", rec.expect(ofp10.ECHO_REPLY, xid), "reply to our ECHO_REQUEST with payload 'beacon'")

    xid = rec.next_xid()
    rec.conn.send(ofp10.stats_request(xid, 0x00ff))
    rec.save("error", rec.expect(ofp10.ERROR, xid), "STATS_REQUEST of unknown type 0xff -> BAD_REQUEST")
    xid = rec.request(0x42)
    rec.save("error_bad_type", rec.expect(ofp10.ERROR, xid), "message of unknown type 0x42 -> BAD_REQUEST")

    xid = rec.request(ofp10.VENDOR, struct.pack("!III", ofp10.NX_VENDOR_ID, ofp10.NXT_ROLE_REQUEST,
                                                  ofp10.NX_ROLE_MASTER))
    rec.save("nicira_role_reply", rec.expect(ofp10.VENDOR, xid), "NXT_ROLE_REPLY to role request MASTER")

    xid = rec.request(ofp10.QUEUE_GET_CONFIG_REQUEST, struct.pack("!H2x", 1))
    rec.save("queue_get_config_reply", rec.expect(ofp10.QUEUE_GET_CONFIG_REPLY, xid), "port 1, no queues")

    rec.conn.send(ofp10.flow_mod(rec.next_xid(), ofp10.match(), command=ofp10.FLOW_DELETE))
    rec.save("flow_removed", rec.expect(ofp10.FLOW_REMOVED),
             "the SEND_FLOW_REM flow (cookie 2) removed by a delete-all FLOW_MOD")
    xid = rec.request(ofp10.BARRIER_REQUEST)
    rec.expect(ofp10.BARRIER_REPLY, xid)

    net.exec(h1, "ip", "link", "set", "eth0", "down")
    rec.save("port_status", rec.expect(ofp10.PORT_STATUS), "MODIFY: port 1 link down (host side of veth down)")
    net.exec(h1, "ip", "link", "set", "eth0", "up")
    rec.save("port_status_up", rec.expect(ofp10.PORT_STATUS), "MODIFY: port 1 link up again")
    ovsenv.run(["ip", "link", "add", "name", "bcncapx", "type", "veth", "peer", "name", "bcncapy"])
    try:
        ovsenv.run(["ip", "link", "set", "bcncapx", "up"])
        net.ovs.vsctl("add-port", net.bridge_of("s1"), "bcncapx", "--", "set", "Interface", "bcncapx",
                      "ofport_request=7")
        rec.save("port_status_add", rec.expect(ofp10.PORT_STATUS), "ADD: port 7 'bcncapx' (its veth peer is down: LINK_DOWN)")
        net.ovs.vsctl("del-port", net.bridge_of("s1"), "bcncapx")
        rec.save("port_status_delete", rec.expect(ofp10.PORT_STATUS), "DELETE: port 7 'bcncapx'")
    finally:
        ovsenv.run(["ip", "link", "del", "bcncapx"], check=False)

    packet_ins(rec, net, h1, h2)

    # Silence: OVS probes an idle connection after inactivity_probe (5 s).
    rec.expect(ofp10.ECHO_REQUEST, timeout=15)


def packet_ins(rec, net, h1, h2):
    """h1 pings h2 through a bridge without flows; the recorder floods each PACKET_IN like a hub."""
    ping = net.popen(h1, "ping", "-n", "-c", "3", "-i", "0.2", "-W", "1", h2.ip,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wanted = {"packet_in": "ARP request h1 -> broadcast (reason NO_MATCH, no buffer, full frame)",
              "packet_in_arp_reply": "ARP reply h2 -> h1",
              "packet_in_icmp": "ICMP echo request h1 -> h2"}
    try:
        while wanted:
            raw = rec.expect(ofp10.PACKET_IN)
            _, _, in_port, _, frame = ofp10.parse_packet_in(raw[8:])
            ethertype = struct.unpack_from("!H", frame, 12)[0]
            if ethertype == 0x0806:
                name = "packet_in" if struct.unpack_from("!H", frame, 20)[0] == 1 else "packet_in_arp_reply"
            elif ethertype == 0x0800 and frame[23] == 1 and frame[34] == 8:
                name = "packet_in_icmp"
            else:
                name = None
            if name in wanted:
                rec.save(name, raw, wanted.pop(name))
            rec.conn.send(ofp10.packet_out(rec.next_xid(), in_port, ofp10.action_output(ofp10.OFPP_FLOOD), frame))
    finally:
        ping.wait(10)


def write_readme(out, saved, version):
    rows = "\n".join(f"| `{name}` | {kind} | {length} | {what} |" for name, kind, length, what in saved)
    how = textwrap.fill(
        f"Captured with {version}, userspace datapath, by `launcher/e2e/capture_ovs.py` (as root: `python3 "
        f"launcher/e2e/capture_ovs.py`). The script runs its own ovsdb-server + ovs-vswitchd in private "
        f"network/mount/PID namespaces, builds one bridge `bcncaps1` (`datapath_type=netdev protocols=OpenFlow10 "
        f"fail_mode=secure other_config:disable-in-band=true`, datapath id `{DPID:016x}`) with host h1 (10.0.0.1, "
        f"00:00:00:00:00:01) on port 1 and h2 (10.0.0.2, 00:00:00:00:00:02) on port 2, accepts the bridge's "
        f"connection on 127.0.0.1:{PORT} and plays the controller; its requests use xids from 0x101 up. Port "
        f"hardware addresses, durations and counters differ on every capture.", 118)
    (out / "README.md").write_text(f"""# OpenFlow 1.0 messages captured from Open vSwitch

Every `.hex` file is one whole message (header included) that a real Open vSwitch bridge sent to a controller, as
lower-case hex text wrapped at 32 bytes a line: test vectors for the codec of `net.beaconcontroller.openflow`.

{how}

| file | type | bytes | what |
|---|---|---|---|
{rows}

What these show about OVS (worth a test each):
- HELLO is the bare 8-byte header (no hello elements) when the bridge allows only OpenFlow 1.0.
- FEATURES_REPLY says `n_buffers` 0 and every PACKET_IN has `buffer_id` 0xffffffff with the whole frame: a
  PACKET_OUT must carry the data.
- FEATURES_REPLY and port stats list the LOCAL port (0xfffe, administratively down) first, before ports 1 and 2
  (in these captures; do not rely on an order).
- Table stats come as one 16,268-byte reply (254 tables of 64 bytes, no REPLY_MORE flag).
- ERROR data is the whole offending request (when short); asynchronous messages (PACKET_IN, PORT_STATUS,
  FLOW_REMOVED) and OVS's own ECHO_REQUEST (empty payload) carry xid 0.
- QUEUE_GET_CONFIG_REPLY for a port without queues is the 16-byte fixed part only.
""")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory (default: %(default)s)")
    args = p.parse_args()
    os.environ.setdefault(ovsenv.TAG_ENV, "bcncap")  # stable port names in the captured FEATURES_REPLY
    ovsenv.enter_private_namespaces([os.path.abspath(__file__), *sys.argv[1:]])
    args.out.mkdir(parents=True, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="bcncap-")
    ovs = ovsenv.PrivateOvs(workdir)
    net = None
    try:
        ovs.start()
        listener = socket.create_server(("127.0.0.1", PORT))
        listener.settimeout(20)
        spec = ovsenv.TopologySpec("capture", ["s1"], [ovsenv.Host("h1", 1, "s1", 1), ovsenv.Host("h2", 2, "s1", 2)],
                                   [], dpid_base=DPID - 1)
        net = ovsenv.Network(ovs, spec, f"tcp:127.0.0.1:{PORT}")
        net.build()
        sock, _ = listener.accept()
        rec = Recorder(ofp10.Connection(sock), args.out)
        capture(rec, net)
        sock.close()
        version = ovsenv.run(["ovs-vswitchd", "--version"]).stdout.splitlines()[0]
        package = ovsenv.run(["dpkg-query", "-W", "-f", "${Package} ${Version}", "openvswitch-switch"],
                             check=False).stdout.strip()
        if package:
            version += f" (Debian package {package})"
        write_readme(args.out, rec.saved, version)
        print(f"{len(rec.saved)} messages saved in {args.out}")
    finally:
        if net is not None:
            net.teardown()
        ovs.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
