#!/usr/bin/env python3
"""A stand-in for Beacon used to check the harness itself (run_e2e.py --beacon) before Beacon exists.

It behaves like Beacon where the harness looks: an OpenFlow 1.0 controller on 127.0.0.1:PORT that keeps switch
connections in its "core" whatever the apps do, and an `osgi> ` console on stdin/stdout that knows ss, start, stop,
update, install and uninstall. The learning switch and hub "bundles" are simulated: any file named
`<symbolic-name>_<version>.jar` can be installed, and an ACTIVE bundle whose name ends in `learningswitch` or `hub`
decides what happens to PACKET_INs.
"""

import argparse
import os
import re
import socket
import sys
import threading
from urllib.parse import unquote, urlparse

import ofp10

JAR_NAME = re.compile(r"^(?P<bsn>.+?)_(?P<version>\d[^/]*)\.jar$")


class Framework:
    def __init__(self):
        self.lock = threading.Lock()
        self.bundles = {0: ["org.eclipse.osgi", "3.21.0.v20240717-2103", "ACTIVE"],
                        1: ["org.apache.felix.gogo.runtime", "1.1.6", "ACTIVE"],
                        11: ["net.beaconcontroller.core", "1.0.0.qualifier", "ACTIVE"],
                        12: ["net.beaconcontroller.learningswitch", "1.0.0.qualifier", "ACTIVE"]}
        self.next_id = 13
        self.generation = 0  # bumps on every state change: apps drop their per-switch state, as Beacon's would

    def active_app(self):
        with self.lock:
            for bsn, _, state in self.bundles.values():
                if state == "ACTIVE" and bsn.endswith(("learningswitch", "hub")):
                    return bsn.rsplit(".", 1)[-1], self.generation
        return None, self.generation

    def execute(self, line):
        words = line.split()
        if not words:
            return ""
        cmd, rest = words[0], words[1:]
        with self.lock:
            if cmd == "ss":
                rows = [f"{i}\t{state:<12}{bsn}_{ver}" for i, (bsn, ver, state) in sorted(self.bundles.items())]
                return "\nFramework is launched.\n\nid\tState       Bundle\n" + "\n".join(rows) + "\n"
            if cmd == "install" and len(rest) == 1:
                name = self._jar_name(rest[0])
                if name is None:
                    return f"gogo: BundleException: cannot install {rest[0]}\n"
                self.generation += 1
                self.bundles[self.next_id] = [name.group("bsn"), name.group("version"), "INSTALLED"]
                self.next_id += 1
                return f"Bundle id is {self.next_id - 1}\n"
            if cmd in ("start", "stop", "uninstall", "update") and rest and rest[0].isdigit():
                bundle = self.bundles.get(int(rest[0]))
                if bundle is None:
                    return f"gogo: IllegalArgumentException: Cannot resolve bundle {rest[0]}\n"
                self.generation += 1
                if cmd == "start":
                    bundle[2] = "ACTIVE"
                elif cmd == "stop":
                    bundle[2] = "RESOLVED"
                elif cmd == "uninstall":
                    del self.bundles[int(rest[0])]
                elif len(rest) == 2 and self._jar_name(rest[1]) is None:
                    return f"gogo: BundleException: cannot read {rest[1]}\n"
                return ""
            return f"gogo: CommandNotFoundException: Command not found: {cmd}\n"

    @staticmethod
    def _jar_name(url):
        path = unquote(urlparse(url).path)
        return JAR_NAME.match(os.path.basename(path)) if os.path.isfile(path) else None


def serve_switch(sock, framework):
    try:
        with sock:
            handle_switch(ofp10.Connection(sock), framework)
    except OSError:
        pass  # the switch went away; OVS reconnects by itself


def handle_switch(conn, framework):
    conn.send(ofp10.message(ofp10.HELLO, 1))
    conn.send(ofp10.message(ofp10.FEATURES_REQUEST, 2))
    conn.send(ofp10.message(ofp10.SET_CONFIG, 3, b"\x00\x00\xff\xff"))
    macs, seen_generation, xid = {}, -1, 100
    while (msg := conn.recv()) is not None:
        msg_type, msg_xid, raw = msg
        if msg_type == ofp10.ECHO_REQUEST:
            conn.send(ofp10.message(ofp10.ECHO_REPLY, msg_xid, raw[8:]))
        if msg_type != ofp10.PACKET_IN:
            continue
        app, generation = framework.active_app()
        if generation != seen_generation:
            macs, seen_generation = {}, generation
        if app is None:
            continue
        _, _, in_port, _, frame = ofp10.parse_packet_in(raw[8:])
        dst, src = frame[0:6], frame[6:12]
        xid += 1
        out_port = ofp10.OFPP_FLOOD
        if app == "learningswitch":
            macs[src] = in_port
            if dst in macs:
                out_port = macs[dst]
                match = ofp10.match(ofp10.FW_ALL & ~(ofp10.FW_IN_PORT | ofp10.FW_DL_SRC | ofp10.FW_DL_DST),
                                    in_port=in_port, dl_src=src, dl_dst=dst)
                conn.send(ofp10.flow_mod(xid, match, ofp10.action_output(out_port), idle=5))
        conn.send(ofp10.packet_out(xid, in_port, ofp10.action_output(out_port), frame))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=6633)
    args = p.parse_args()
    framework = Framework()
    listener = socket.create_server(("127.0.0.1", args.port), reuse_port=False)

    def accept_loop():
        while True:
            sock, _ = listener.accept()
            threading.Thread(target=serve_switch, args=(sock, framework), daemon=True).start()

    threading.Thread(target=accept_loop, daemon=True).start()
    sys.stdout.write("osgi> ")
    sys.stdout.flush()
    for line in sys.stdin:
        sys.stdout.write(framework.execute(line) + "osgi> ")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
