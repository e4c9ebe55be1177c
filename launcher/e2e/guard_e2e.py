"""The PACKET_IN guard end to end (issue 24): one host sprays new flows at 50,000 a second while another host's
first-packet latency and pings are measured against the quiet figures, on a line of three switches in Beacon's
default configuration (the guard on with its default budgets)."""

import os
import re
import statistics
import subprocess
import threading
import time

import ovsenv
import rest

GUARD_COOKIE = "cookie=0xbe05"
SPRAY_RATE = 50_000
SPRAY_SECONDS = 16
DROP_SECONDS = 2  # guard.dropSeconds' default
FIRST_PACKETS = 15
# The port budget of the asserted phase: well under what this testbed's Open vSwitch turns into PACKET_INs.
SCALED_RATE = 300

# Runs in the sprayer's namespace: raw UDP frames to `dst`, each from a new source MAC, IP and port (a new flow for
# routing's exact matches), paced to `rate` a second for `seconds`; prints the frames sent and the seconds taken.
SPRAYER = r"""
import socket, struct, sys, time
ifname, dst_mac, dst_ip, rate, seconds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifname, 0))
frame = bytearray(bytes.fromhex(dst_mac.replace(":", "")) + bytes.fromhex("020000000000") + b"\x08\x00"
                  + bytes([0x45, 0, 0, 28, 0, 0, 0x40, 0, 64, 17, 0, 0]) + bytes(4) + socket.inet_aton(dst_ip)
                  + struct.pack("!HHHH", 0, 9, 8, 0) + bytes(18))
sent, start = 0, time.monotonic()
end = start + seconds
while True:
    now = time.monotonic()
    if now >= end:
        break
    due = int((now - start) * rate)
    if sent >= due:
        time.sleep(0.0005)
        continue
    for i in range(sent, min(due, sent + 1000)):
        struct.pack_into("!I", frame, 8, i)                   # source MAC 02:00:<i>
        struct.pack_into("!I", frame, 26, 0x0b000000 | i & 0xffffff)  # source IP 11.<i>
        struct.pack_into("!H", frame, 34, 1024 + i % 60000)   # UDP source port
        s.send(frame)
    sent = min(due, sent + 1000)
print(sent, time.monotonic() - start)
"""


def cpu_seconds(pid):
    """User + system CPU seconds of process `pid` (all its threads) so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def forget_path(net, a, b):
    """Removes the flows between hosts `a` and `b` (non-strict deletes by destination IP: the guard's in_port-only
    flows are less specific and stay), so that the next packet between them is a first packet again."""
    for br in net.bridges.values():
        for host in (a, b):
            net.ovs.ofctl("del-flows", br, f"ip,nw_dst={host.ip}")


def first_packet_ms(net, src, dst, n):
    """RTTs (ms) of `n` pings from `src` to `dst`, each the first packet after the path's flows were removed."""
    rtts = []
    for _ in range(n):
        forget_path(net, src, dst)
        out = net.exec(src, "ping", "-n", "-c", "1", "-W", "2", dst.ip, check=False, timeout=10).stdout
        m = re.search(r"time=([\d.]+) ms", out)
        rtts.append(float(m.group(1)) if m else 2000.0)
        time.sleep(0.2)
    return rtts


def ping_ms(net, src, dst, count=60):
    """RTTs (ms) of a ping every 50 ms on an established path; a lost one counts as 1000 ms."""
    out = net.exec(src, "ping", "-n", "-i", "0.05", "-c", str(count), "-W", "1", dst.ip, check=False,
                   timeout=count + 10).stdout
    rtts = [float(x) for x in re.findall(r"time=([\d.]+) ms", out)]
    return rtts + [1000.0] * (count - len(rtts))


def guard_flows(net):
    """{bridge: [guard flow lines]} of the current flow tables."""
    found = {}
    for sw, br in net.bridges.items():
        lines = [line for line in net.ovs.ofctl("dump-flows", br, check=False).stdout.splitlines()
                 if GUARD_COOKIE in line]
        if lines:
            found[sw] = lines
    return found


class FlowWatcher:
    """Samples the guard's flows every 0.25 s until stopped: a block lasts `dropSeconds` out of every few seconds, so
    one look may fall between two."""

    def __init__(self, net):
        self.net = net
        self.seen = {}
        self.switch_drops = 0  # the most packets one drop flow was seen to have dropped at the switch
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.wait(0.25):
            for sw, lines in guard_flows(self.net).items():
                known = self.seen.setdefault(sw, set())
                for line in lines:
                    known.add(re.sub(r"duration=[\d.]+s, |n_packets=\d+, |n_bytes=\d+, |(hard|idle)_age=\d+, ?", "",
                                     line).strip())
                    if "actions=drop" in line and (m := re.search(r"n_packets=(\d+)", line)):
                        self.switch_drops = max(self.switch_drops, int(m.group(1)))

    def stop(self):
        self._stop.set()
        self._thread.join()
        return {sw: sorted(lines) for sw, lines in self.seen.items()}


def packet_ins(api):
    """PACKET_INs the pipeline's first listener, the guard, has been called with."""
    return api.metrics().get(("beacon_listener_calls_total", frozenset({("type", "PACKET_IN"),
                                                                        ("listener", "guard")})), 0)


def guard_metric(api, name, dpid=None, port=None):
    total = 0
    for (sample, labels), v in api.metrics().items():
        d = dict(labels)
        if sample == name and (dpid is None or d.get("dpid") == dpid) and (port is None or d.get("port") == port):
            total += v
    return total


def med(values):
    return statistics.median(values)


def topology():
    """Mininet's linear,3 (h1..h3 on port 1 of s1..s3) plus h4 on s1's port 4: h1 sprays at h4, so that the spray
    itself never leaves s1 and only its PACKET_INs (and ovs-vswitchd, which all bridges share) reach the others."""
    spec = ovsenv.linear(3, dpid_base=0x800)
    spec.hosts.append(ovsenv.Host("h4", 4, "s1", 4))
    spec.name = "linear,3+h4"
    return spec


def start_spray(net, src, dst, seconds):
    return net.popen(src, "python3", "-c", SPRAYER, "eth0", dst.mac, dst.ip, str(SPRAY_RATE), str(seconds),
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def spray_rate(proc, seconds):
    """Frames per second the sprayer achieved, once it ended."""
    try:
        out, err = proc.communicate(timeout=seconds + 30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if proc.returncode != 0 or not out.split():
        raise AssertionError(f"the sprayer failed ({proc.returncode}): {err.strip()[-300:]}")
    return int(out.split()[0]) / float(out.split()[1])


def spray_phase(ctx, net, api, pid, hosts):
    """Sprays from h1 at h4 while measuring h2 -> h3; returns the measurements and the guard flows seen."""
    h1, h2, h3, h4 = hosts
    r = {"dropped0": guard_metric(api, "beacon_guard_packet_ins_dropped_total"),
         "log_start": len(ctx.controller.output())}
    spray = start_spray(net, h1, h4, SPRAY_SECONDS)
    try:
        watcher = FlowWatcher(net)
        time.sleep(2)  # the first burst through and the port blocked
        cpu0, t0, calls0 = cpu_seconds(pid), time.monotonic(), packet_ins(api)
        r["first"] = first_packet_ms(net, h2, h3, FIRST_PACKETS)
        r["ping"] = ping_ms(net, h2, h3)
        r["cpu"] = (cpu_seconds(pid) - cpu0) / (time.monotonic() - t0)
        r["reaching"] = (packet_ins(api) - calls0) / (time.monotonic() - t0)
        r["seen"] = watcher.stop()
        r["switch_drops"] = watcher.switch_drops
        r["dropped"] = guard_metric(api, "beacon_guard_packet_ins_dropped_total") - r["dropped0"]
    finally:
        r["rate"] = spray_rate(spray, SPRAY_SECONDS)
    r["log"] = [line for line in ctx.controller.output(r["log_start"]).splitlines() if "guard: switch" in line]
    return r


def describe(name, r):
    return (f"{name}: first packet median {med(r['first']):.2f} ms (max {max(r['first']):.1f}), ping median"
            f" {med(r['ping']):.3f} ms (max {max(r['ping']):.1f}), Beacon CPU {r['cpu']:.2f} core,"
            f" {r['reaching']:,.0f} PACKET_INs/s reached Beacon, {r['dropped']:.0f} dropped there, up to"
            f" {r['switch_drops']:,} frames dropped by one drop flow at the switch")


def set_guard(ctx, key, value):
    out = ctx.controller.command(f"beacon:config set {key} {value}")
    if "applied" not in out:
        raise AssertionError(f"{key}={value} not applied: {out.strip()}")


def test_packetin_guard(ctx):
    """Quiet figures; then h1 sprays at 50,000 new flows/s against the default budgets (the mechanism checked, the
    figures reported); then against budgets scaled to this testbed, whose one ovs-vswitchd makes a few thousand
    PACKET_INs a second for all bridges together, so that the default 2,000/s of one port is most of it (the figures
    asserted within 2x of quiet); then against a standing drop flow, what the spray costs Open vSwitch alone."""
    net = ctx.network(topology())
    hosts = h1, h2, h3, h4 = net.spec.hosts
    api = rest.Rest()
    pid = ctx.controller.pid()
    s1 = ":".join(re.findall("..", f"{net.spec.dpid('s1'):016x}"))
    for a, b in ((h2, h3), (h3, h2), (h1, h4), (h4, h1)):
        if not net.ping_retry(a, b):
            raise AssertionError(f"{a.name} -> {b.name} unreachable before the spray")
    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    quiet = {"first": first_packet_ms(net, h2, h3, FIRST_PACKETS), "ping": ping_ms(net, h2, h3)}
    quiet_cpu = (cpu_seconds(pid) - cpu0) / (time.monotonic() - t0)
    flows0 = guard_metric(api, "beacon_guard_drop_flows_total", s1, "1")
    steps = [f"quiet: first packet median {med(quiet['first']):.2f} ms (max {max(quiet['first']):.1f}), ping median"
             f" {med(quiet['ping']):.3f} ms (max {max(quiet['ping']):.1f}), Beacon CPU {quiet_cpu:.2f} core"]
    failures = []

    # Default budgets: the drop flow on the sprayer's port only, with its LLDP flow above it; one log line.
    d = spray_phase(ctx, net, api, pid, hosts)
    flows_s1 = guard_metric(api, "beacon_guard_drop_flows_total", s1, "1") - flows0
    steps.append(f"spray {d['rate']:,.0f} frames/s from {h1.name} for {SPRAY_SECONDS} s")
    steps.append(describe("default budgets", d) + f", {flows_s1:.0f} drop flows on s1 port 1")
    seen = d["seen"]
    if set(seen) != {"s1"}:
        failures.append(f"guard flows on {sorted(seen)}, want s1 only: {seen}")
    elif any("in_port=1" not in line for line in seen["s1"]):
        failures.append(f"a guard flow on another port than s1's port 1 (the sprayer's): {seen['s1']}")
    elif not any("priority=2,in_port=1 " in line and "actions=drop" in line for line in seen["s1"]) \
            or not any("priority=3," in line and "dl_type=0x88cc" in line and "CONTROLLER" in line
                       for line in seen["s1"]):
        failures.append(f"not the drop and LLDP flows: {seen['s1']}")
    if d["dropped"] < 1 or flows_s1 < 1:
        failures.append(f"/metrics: {d['dropped']} dropped, {flows_s1} drop flows on s1 port 1")
    if len(d["log"]) != 1 or f"switch {s1} port 1:" not in d["log"][0]:
        failures.append(f"want one guard log line for s1 port 1, got {d['log']}")
    # A spray the guard holds to its budget must not cost Beacon more than a core.
    if d["cpu"] > 1.0:
        failures.append(f"Beacon used {d['cpu']:.2f} cores during the spray")

    # Afterwards the drop flow expires and the sprayer's port forwards new flows again.
    try:
        ovsenv.wait_until(lambda: not guard_flows(net), DROP_SECONDS + 2, "the guard's flows expired")
        forget_path(net, h1, h4)
        if not net.ping_retry(h1, h4):
            failures.append(f"{h1.name} -> {h4.name} unreachable after the spray")
        else:
            steps.append(f"flows expired, {h1.name} reaches {h4.name} again")
    except AssertionError as e:
        failures.append(str(e))

    # Budgets scaled to the testbed's Open vSwitch: here the figures must stay within 2x of quiet.
    set_guard(ctx, "guard.portRate", SCALED_RATE)
    set_guard(ctx, "guard.portBurst", 2 * SCALED_RATE)
    try:
        scaled = spray_phase(ctx, net, api, pid, hosts)
    finally:
        set_guard(ctx, "guard.portRate", 2000)
        set_guard(ctx, "guard.portBurst", 4000)
    steps.append(describe(f"port budget {SCALED_RATE}/s", scaled))

    # What the spray costs Open vSwitch alone: the same spray against a drop flow that is there all along (no
    # PACKET_IN at all). All bridges share one ovs-vswitchd, whose main thread takes each sprayed frame's datapath
    # miss (the userspace datapath's upcall); if that alone is over 2x quiet, the testbed is the limit, not Beacon.
    ovsenv.wait_until(lambda: not guard_flows(net), DROP_SECONDS + 2, "the guard's flows expired")
    br = net.bridges["s1"]
    net.ovs.ofctl("add-flow", br, "priority=2,in_port=1,actions=drop")
    spray = start_spray(net, h1, h4, SPRAY_SECONDS - 4)
    try:
        time.sleep(2)
        floor = {"first": first_packet_ms(net, h2, h3, FIRST_PACKETS), "ping": ping_ms(net, h2, h3)}
    finally:
        spray_rate(spray, SPRAY_SECONDS - 4)
        net.ovs.ofctl("del-flows", br, "--strict", "priority=2,in_port=1")
    steps.append(f"Open vSwitch alone (a standing drop flow): first packet median {med(floor['first']):.2f} ms (max"
                 f" {max(floor['first']):.1f}), ping median {med(floor['ping']):.3f} ms")

    # Within 2x of quiet; sub-millisecond figures get 1 ms of slack (scheduling on a shared 2-core machine moves
    # them by that much with no spray at all). Where Open vSwitch alone is over that bound too, the userspace
    # datapath is the limit: then within 2x of its figure.
    for what, name in (("first", "first-packet latency"), ("ping", "ping RTT")):
        got, base, alone = med(scaled[what]), med(quiet[what]), med(floor[what])
        bound = max(2 * base, base + 1.0)
        if got <= bound:
            continue
        if alone <= bound:
            failures.append(f"{name}: median {got:.3f} ms spraying, over {bound:.3f} ms (2x {base:.3f} ms quiet),"
                            f" while Open vSwitch alone gives {alone:.3f}")
        elif got > 2 * alone:
            failures.append(f"{name}: median {got:.3f} ms spraying > 2x {alone:.3f} ms, Open vSwitch's own figure"
                            f" under the spray")
        else:
            steps.append(f"{name} over 2x quiet, as with Open vSwitch alone: the userspace datapath is the limit")
    if failures:
        raise AssertionError("; ".join(failures) + " -- measured: " + "; ".join(steps))
    return "; ".join(steps)
