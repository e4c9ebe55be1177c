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
SCALED_BURST = 2 * SCALED_RATE
# The asserted phase alternates, under one spray, windows with Beacon guarding and windows of the reference (the same
# spray held by standing flows, no PACKET_IN): ROUNDS of each, WINDOW_SECONDS each, measured throughout (a first
# packet, then PINGS_PER_SAMPLE pings, again and again). A guarded window starts the moment the reference's flows go,
# with no settle: the sprayer's port opens, the guard admits its burst and blocks it, and WINDOW_SECONDS (more than
# the guard's cycle, dropSeconds and a round trip) takes in the next burst as well. Many alternating windows: the
# datapath's flow cache moves h2's RTT several-fold from one second to the next (docs/guard.md).
ROUNDS = 8
WINDOW_SECONDS = DROP_SECONDS + 1.0
PINGS_PER_SAMPLE = 8
WARMUP_SECONDS = 3   # the first burst through, the port blocked, the datapath's flow cache at its working size
SETTLE_SECONDS = 0.5  # after the reference's flows are put in: in place before its window measures
# The reference's standing flows on s1 (cookie REFERENCE_COOKIE): the drop the guard writes, there all along, and one
# exact-match flow from the sprayer's port such as routing installs for each new flow the guard lets through.
REFERENCE_COOKIE = "0xe2e0"

# Runs in the sprayer's namespace: raw UDP frames to `dst`, each from a new source MAC, IP and port (a new flow for
# routing's exact matches), paced to `rate` a second for `seconds`; prints the frames sent and the seconds taken.
SPRAYER = r"""
import signal, socket, struct, sys, time
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
ifname, dst_mac, dst_ip, rate, seconds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifname, 0))
frame = bytearray(bytes.fromhex(dst_mac.replace(":", "")) + bytes.fromhex("020000000000") + b"\x08\x00"
                  + bytes([0x45, 0, 0, 28, 0, 0, 0x40, 0, 64, 17, 0, 0]) + bytes(4) + socket.inet_aton(dst_ip)
                  + struct.pack("!HHHH", 0, 9, 8, 0) + bytes(18))
sent, start = 0, time.monotonic()
end = start + seconds
try:
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
            sent = i + 1
finally:
    print(sent, time.monotonic() - start, flush=True)
"""


def cpu_seconds(pid):
    """User + system CPU seconds so far of process `pid` (all its threads), or of one thread ("pid/task/tid")."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def vswitchd_cpu(net):
    """CPU seconds so far of ovs-vswitchd's threads: {"main": its main thread (OpenFlow connections and, on the
    userspace datapath, the upcalls of the ports it polls), "other": all others (revalidators, handlers, ...)}."""
    with open(f"{net.ovs.dir}/run/ovs-vswitchd.pid") as f:
        pid = int(f.read())
    cpu = {"main": 0.0, "other": 0.0}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            cpu["main" if int(tid) == pid else "other"] += cpu_seconds(f"{pid}/task/{tid}")
        except FileNotFoundError:  # a thread that ended meanwhile
            pass
    return cpu


def ovs_load(net):
    """What ovs-vswitchd has spent so far: its threads' CPU seconds and how often it revalidated its datapath flows
    because a flow table changed (coverage counter rev_flow_table), at a monotonic time."""
    m = re.search(r"^rev_flow_table .*total: (\d+)", net.ovs.appctl("coverage/show", check=False).stdout, re.M)
    return {**vswitchd_cpu(net), "revalidations": int(m.group(1)) if m else 0, "seconds": time.monotonic()}


def add_load(total, before, after):
    for k in before:
        total[k] = total.get(k, 0) + after[k] - before[k]


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


def packet_ins(metrics):
    """PACKET_INs the pipeline's first listener, the guard, has been called with, in one /metrics sample."""
    return metrics.get(("beacon_listener_calls_total", frozenset({("type", "PACKET_IN"), ("listener", "guard")})), 0)


def guard_metric(metrics, name, dpid=None, port=None):
    """The sum of a guard counter in one /metrics sample, over all series or one switch's and port's."""
    total = 0
    for (sample, labels), v in metrics.items():
        d = dict(labels)
        if sample == name and (dpid is None or d.get("dpid") == dpid) and (port is None or d.get("port") == port):
            total += v
    return total


def guard_sample(api, dpid):
    """The guard's PACKET_INs, those it dropped and the drop flows it wrote for `dpid`'s port 1 (the sprayer's), all
    from one /metrics fetch: the three move together by thousands a second."""
    m = api.metrics()
    return {"calls": packet_ins(m), "dropped": guard_metric(m, "beacon_guard_packet_ins_dropped_total"),
            "blocks": guard_metric(m, "beacon_guard_drop_flows_total", dpid, "1")}


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


def spray_rate(proc, seconds, stop=False):
    """Frames per second the sprayer achieved, once it ended (`stop`: ended now, by SIGTERM)."""
    if stop and proc.poll() is None:
        proc.terminate()
    try:
        out, err = proc.communicate(timeout=seconds + 30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if proc.returncode != 0 or not out.split():
        raise AssertionError(f"the sprayer failed ({proc.returncode}): {err.strip()[-300:]}")
    return int(out.split()[0]) / float(out.split()[1])


def datapath_flows(net):
    """Flows in Open vSwitch's userspace datapath (its flow cache, shared by every bridge) now."""
    out = net.ovs.appctl("upcall/show", check=False).stdout
    m = re.search(r"\(current (\d+)\)", out)
    return int(m.group(1)) if m else -1


def spray_phase(ctx, net, api, pid, hosts, s1):
    """Sprays from h1 at h4 while measuring h2 -> h3; returns the measurements and the guard flows seen."""
    h1, h2, h3, h4 = hosts
    r = {"log_start": len(ctx.controller.output())}
    before = guard_sample(api, s1)
    spray = start_spray(net, h1, h4, SPRAY_SECONDS)
    try:
        watcher = FlowWatcher(net)
        time.sleep(2)  # the first burst through and the port blocked
        cpu0, t0, calls0 = cpu_seconds(pid), time.monotonic(), guard_sample(api, s1)["calls"]
        r["first"] = first_packet_ms(net, h2, h3, FIRST_PACKETS)
        r["ping"] = ping_ms(net, h2, h3)
        r["cpu"] = (cpu_seconds(pid) - cpu0) / (time.monotonic() - t0)
        after = guard_sample(api, s1)
        r["reaching"] = (after["calls"] - calls0) / (time.monotonic() - t0)
        r["seen"] = watcher.stop()
        r["switch_drops"] = watcher.switch_drops
        r["dropped"] = after["dropped"] - before["dropped"]
    finally:
        r["rate"] = spray_rate(spray, SPRAY_SECONDS)
    r["blocks"] = guard_sample(api, s1)["blocks"] - before["blocks"]
    r["log"] = [line for line in ctx.controller.output(r["log_start"]).splitlines() if "guard: switch" in line]
    return r


def reference_flows(net, h1, h4, on):
    """Puts the reference's standing flows on s1 (or takes them away): a drop for the sprayer's port, there all along
    (priority 4: above the guard's own flows, which keep their course beneath it, so that Beacon and the switch agree
    on the port's state when it goes), and an exact-match flow from that port as routing writes for each flow the guard
    admits (h1 -> h4, which no sprayed frame matches). The latter matters: without it every sprayed frame falls into
    one datapath flow that matches only the in_port, and the spray costs Open vSwitch next to nothing; with it, as
    while Beacon guards, each sprayed frame is a datapath miss of its own, handled by ovs-vswitchd's one main thread."""
    br = net.bridges["s1"]
    exact = (f"priority=65535,udp,in_port=1,vlan_tci=0x0000,dl_src={h1.mac},dl_dst={h4.mac},nw_src={h1.ip},"
             f"nw_dst={h4.ip},nw_tos=0,tp_src=1,tp_dst=9")
    drop = "priority=4,in_port=1"
    if on:
        net.ovs.ofctl("add-flow", br, f"cookie={REFERENCE_COOKIE},{exact},actions=output:4")
        net.ovs.ofctl("add-flow", br, f"cookie={REFERENCE_COOKIE},{drop},actions=drop")
    else:
        net.ovs.ofctl("del-flows", br, "--strict", drop)
        net.ovs.ofctl("del-flows", br, "--strict", exact)


def measure_window(net, src, dst, seconds):
    """First-packet latencies and ping RTTs (ms) from `src` to `dst`, taken one after the other for `seconds`."""
    first, ping = [], []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        first += first_packet_ms(net, src, dst, 1)
        ping += ping_ms(net, src, dst, PINGS_PER_SAMPLE)
    return first, ping


def compared_phase(ctx, net, api, pid, hosts, s1):
    """One spray from h1 at h4; under it, ROUNDS times a window with Beacon guarding (budgets as set) and a window of
    the reference (standing flows, no PACKET_IN from the sprayer's port), h2 -> h3 measured in each. Both sides see the
    same spray, the same datapath load and the same other work on the machine, seconds apart. Per guarded window: the
    PACKET_INs admitted past the guard and the drop flows it wrote (its bursts and blocks inside the window)."""
    h1, h2, h3, h4 = hosts
    g = {"first": [], "ping": [], "dp": [], "windows": [], "ovs": {}, "seconds": 0.0, "cpu": 0.0, "calls": 0,
         "dropped": 0}
    ref = {"first": [], "ping": [], "dp": [], "windows": [], "ovs": {}}
    spray = start_spray(net, h1, h4, 300)  # stopped once measured
    try:
        watcher = FlowWatcher(net)
        time.sleep(WARMUP_SECONDS)
        for _ in range(ROUNDS):
            # No settle before this window: it starts as the reference's flows go, with the guard's burst.
            t0, cpu0, before = time.monotonic(), cpu_seconds(pid), guard_sample(api, s1)
            g["dp"].append(datapath_flows(net))
            load0 = ovs_load(net)
            first, ping = measure_window(net, h2, h3, WINDOW_SECONDS)
            add_load(g["ovs"], load0, ovs_load(net))
            seconds = time.monotonic() - t0
            after = guard_sample(api, s1)
            calls, dropped = after["calls"] - before["calls"], after["dropped"] - before["dropped"]
            g["windows"].append({"first": first, "ping": ping, "admitted": calls - dropped, "seconds": seconds,
                                 "blocks": after["blocks"] - before["blocks"]})
            g["first"] += first
            g["ping"] += ping
            g["seconds"] += seconds
            g["cpu"] += cpu_seconds(pid) - cpu0
            g["calls"] += calls
            g["dropped"] += dropped

            reference_flows(net, h1, h4, True)
            time.sleep(SETTLE_SECONDS)
            ref["dp"].append(datapath_flows(net))
            load0 = ovs_load(net)
            first, ping = measure_window(net, h2, h3, WINDOW_SECONDS)
            add_load(ref["ovs"], load0, ovs_load(net))
            ref["windows"].append({"first": first, "ping": ping})
            ref["first"] += first
            ref["ping"] += ping
            reference_flows(net, h1, h4, False)
        g["seen"] = watcher.stop()
        g["switch_drops"] = watcher.switch_drops
    finally:
        g["rate"] = spray_rate(spray, 300, stop=True)
        reference_flows(net, h1, h4, False)
    g["reaching"] = g["calls"] / g["seconds"]
    g["admitted"] = (g["calls"] - g["dropped"]) / g["seconds"]
    g["cpu"] /= g["seconds"]
    return g, ref


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
    figures reported); then, against budgets scaled to this testbed (whose one ovs-vswitchd makes a few thousand
    PACKET_INs a second for all bridges together, so that the default 2,000/s of one port is most of it), windows with
    Beacon guarding alternate with windows of the reference under one spray: the same spray held by standing flows on
    the switch (what it costs Open vSwitch alone); each guarded window opens the sprayer's port, so it holds the guard's
    bursts as well as its blocks. Asserted there: a burst and a block in every guarded window, Beacon's intake held to
    the budget, its CPU, and h2's first-packet latency and ping RTT to h3 within 2x of quiet, or of the reference's
    where that is slower."""
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
    steps = [f"quiet: first packet median {med(quiet['first']):.2f} ms (max {max(quiet['first']):.1f}), ping median"
             f" {med(quiet['ping']):.3f} ms (max {max(quiet['ping']):.1f}), Beacon CPU {quiet_cpu:.2f} core"]
    failures = []

    # Default budgets: the drop flow on the sprayer's port only, with its LLDP flow above it; one log line.
    d = spray_phase(ctx, net, api, pid, hosts, s1)
    flows_s1 = d["blocks"]
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

    # Afterwards the drop flow expires and the sprayer's port forwards new flows again. Open vSwitch first works off
    # the spray (its datapath held tens of thousands of the spray's flows, s1 thousands of routing's, expiring): the
    # check waits for that, so that it asks the guard, not ovs-vswitchd's backlog.
    try:
        ovsenv.wait_until(lambda: not guard_flows(net), DROP_SECONDS + 2, "the guard's flows expired")
        t_exp = time.monotonic()
        ovsenv.wait_until(lambda: 0 <= datapath_flows(net) < 100, 20, "Open vSwitch's datapath flows back under 100")
        settled = time.monotonic() - t_exp
        forget_path(net, h1, h4)
        if not net.ping_retry(h1, h4):
            failures.append(f"{h1.name} -> {h4.name} unreachable after the spray ({settled:.1f} s after the guard's"
                            f" flows expired; guard flows now {guard_flows(net)}, datapath flows {datapath_flows(net)})")
        else:
            steps.append(f"flows expired, {h1.name} reaches {h4.name} again ({settled:.1f} s for Open vSwitch to"
                         f" settle)")
    except AssertionError as e:
        failures.append(str(e))

    # Budgets scaled to the testbed's Open vSwitch, Beacon guarding and the reference alternating under one spray.
    set_guard(ctx, "guard.portRate", SCALED_RATE)
    set_guard(ctx, "guard.portBurst", SCALED_BURST)
    try:
        g, ref = compared_phase(ctx, net, api, pid, hosts, s1)
    finally:
        set_guard(ctx, "guard.portRate", 2000)
        set_guard(ctx, "guard.portBurst", 4000)
    steps.append(f"port budget {SCALED_RATE}/s, spray {g['rate']:,.0f} frames/s, {ROUNDS} windows each:"
                 f" Beacon guarding: first packet median {med(g['first']):.2f} ms (max {max(g['first']):.1f}), ping"
                 f" median {med(g['ping']):.3f} ms (max {max(g['ping']):.1f}), Beacon CPU {g['cpu']:.2f} core,"
                 f" {g['reaching']:,.0f} PACKET_INs/s reached Beacon, {g['admitted']:,.0f}/s admitted, up to"
                 f" {g['switch_drops']:,} frames dropped by one drop flow at the switch, datapath flows"
                 f" {'/'.join(map(str, g['dp']))}")
    steps.append(f"reference (standing flows, no PACKET_IN): first packet median {med(ref['first']):.2f} ms (max"
                 f" {max(ref['first']):.1f}), ping median {med(ref['ping']):.3f} ms (max {max(ref['ping']):.1f}),"
                 f" datapath flows {'/'.join(map(str, ref['dp']))}")
    steps.append("per window, guarding (ping median / first-packet median ms, PACKET_INs admitted, drop flows) |"
                 " reference (ping / first packet): " + ", ".join(
                     f"{med(w['ping']):.2f}/{med(w['first']):.1f} {w['admitted']:.0f} {w['blocks']:.0f}"
                     f" | {med(r['ping']):.2f}/{med(r['first']):.1f}" for w, r in zip(g["windows"], ref["windows"])))
    # Each window's first sample: in a guarded one, taken as the guard admits its opening burst.
    opening = [([w["first"][0] for w in side["windows"]],
                [x for w in side["windows"] for x in w["ping"][:PINGS_PER_SAMPLE]]) for side in (g, ref)]
    steps.append(f"guarding/reference: first packet {med(g['first']) / med(ref['first']):.2f}x, ping"
                 f" {med(g['ping']) / med(ref['ping']):.2f}x; each window's first sample (in a guarded one, at its"
                 f" opening burst), guarding / reference: first packet {med(opening[0][0]):.2f} /"
                 f" {med(opening[1][0]):.2f} ms (each: {'/'.join(f'{x:.0f}' for x in opening[0][0])} |"
                 f" {'/'.join(f'{x:.0f}' for x in opening[1][0])}), ping {med(opening[0][1]):.3f} /"
                 f" {med(opening[1][1]):.3f} ms")
    rates = [{k: v / side["ovs"]["seconds"] for k, v in side["ovs"].items()} for side in (g, ref)]
    steps.append(f"ovs-vswitchd, guarding / reference: main thread {rates[0]['main']:.2f} / {rates[1]['main']:.2f}"
                 f" core, its other threads {rates[0]['other']:.2f} / {rates[1]['other']:.2f} core, revalidations for a"
                 f" changed flow table {rates[0]['revalidations']:.0f} / {rates[1]['revalidations']:.0f} per s")
    steps.append(f"guarding/quiet: first packet {med(g['first']) / med(quiet['first']):.2f}x, ping"
                 f" {med(g['ping']) / med(quiet['ping']):.2f}x; reference/quiet: first packet"
                 f" {med(ref['first']) / med(quiet['first']):.2f}x, ping {med(ref['ping']) / med(quiet['ping']):.2f}x")

    # Beacon's intake: what it let on through the pipeline is what the token buckets allow (each guarded window may
    # start with a full burst: the bucket refills while the reference holds the port), plus the other ports' few
    # (h2's and h3's first packets, LLDP); the rest of the spray was dropped at the switch.
    allowed = SCALED_RATE + (ROUNDS * SCALED_BURST) / g["seconds"] + 50
    if g["admitted"] > allowed:
        failures.append(f"{g['admitted']:,.0f} PACKET_INs/s admitted past the guard, over {allowed:,.0f}/s")
    if g["reaching"] > 0.05 * g["rate"]:
        failures.append(f"{g['reaching']:,.0f} PACKET_INs/s reached Beacon: over 5 % of the spray's"
                        f" {g['rate']:,.0f}/s; the switch should drop the rest")
    if g["cpu"] > 0.5:
        failures.append(f"Beacon used {g['cpu']:.2f} cores during the spray with a {SCALED_RATE}/s budget")
    # What the windows measure: each guarded window opens the port, so the guard admits a burst and blocks it in it.
    if unblocked := [i for i, w in enumerate(g["windows"]) if w["blocks"] < 1]:
        failures.append(f"guarded windows {unblocked} wrote no drop flow: no burst in them")
    if g["seen"].keys() != {"s1"}:
        failures.append(f"guard flows on {sorted(g['seen'])} with the scaled budget, want s1 only")

    # Other hosts' service: within 2x of quiet, the issue's bound, or of the reference where Open vSwitch alone under
    # the same spray is slower than quiet (the ping: every sprayed frame a datapath miss in ovs-vswitchd's one main
    # thread, 1.8-4.5x quiet on this testbed, docs/guard.md). Not 2x of a reference faster than quiet: its first
    # packet often is (0.3-0.9x; the machine busy with the spray answers sooner than an idle one), which would hold
    # Beacon to a figure no quiet network gives. Sub-millisecond RTTs with 1 ms of slack: a shared 2-core machine moves
    # them that much with no spray at all.
    for what, name in (("first", "first-packet latency"), ("ping", "ping RTT")):
        got, base = med(g[what]), max(med(quiet[what]), med(ref[what]))
        bound = max(2 * base, base + 1.0)
        if got > bound:
            failures.append(f"{name}: median {got:.3f} ms with Beacon guarding, over {bound:.3f} ms (2x {base:.3f} ms:"
                            f" quiet {med(quiet[what]):.3f} ms, the same spray held by standing flows"
                            f" {med(ref[what]):.3f} ms)")
    if failures:
        raise AssertionError("; ".join(failures) + " -- measured: " + "; ".join(steps))
    return "; ".join(steps)
