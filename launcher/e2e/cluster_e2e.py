#!/usr/bin/env python3
"""End-to-end tests of a Beacon cluster: three product instances (each its own copy of the product, its own
OpenFlow, web and cluster ports) running the default configuration (topology, device manager, routing, the web
server) with cluster.enabled=true, and a ring of Open vSwitch bridges connected to all three.

    sudo python3 launcher/e2e/cluster_e2e.py --product launcher/target/products/.../beacon

Prints PASS/FAIL lines and `N passed, N failed` like run_e2e.py.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from types import SimpleNamespace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ovsenv  # noqa: E402
from controller import ControllerProcess, product_copy  # noqa: E402
from pathlib import Path  # noqa: E402
from rest import Rest  # noqa: E402
from run_e2e import BackgroundPing, dpid_text, pingall, tcp_transfer  # noqa: E402

INSTANCES = 3
OF_PORT, WEB_PORT, CLUSTER_PORT = 6653, 8091, 5801
MEMBER_ROW = re.compile(r"^([0-9a-f-]{36})\s+(\S+:\d+)\s")
MASTER_ROW = re.compile(r"^((?:[0-9a-f]{2}:){7}[0-9a-f]{2})\s+(\S+)\s*$")
MIGRATED = re.compile(r"switch (\S+): \S+ -> \S+ in ([\d.]+) ms")
HANDED = re.compile(r"leaving: handed (\d+) switch\(es\) to the others in (\d+) ms")
TESTS = ("cluster_formed", "cluster_neighbours", "cluster_kill_any", "cluster_pingall", "cluster_network_apps",
         "cluster_static_flows", "cluster_rest", "cluster_web_ui", "cluster_migration", "cluster_failover", "cluster_partition",
         "cluster_bundle_restart", "cluster_core_update", "cluster_wrong_name")


class Instance:
    """One Beacon product copy with its own ports, run with the cluster on."""

    def __init__(self, ctx, i, name=None):
        self.i = i
        self.dir = os.path.join(ctx.workdir, f"beacon{i}")
        if not os.path.exists(self.dir):
            product_copy(ctx.args.product, self.dir)
        # Each instance on its own address in its own network namespace when the run has them (cluster_faults.py),
        # else all on loopback.
        hosts = getattr(ctx, "hosts", None) or ["127.0.0.1"] * (INSTANCES + 1)
        self.netns = ctx.netns[i] if getattr(ctx, "netns", None) else None
        self.host = hosts[i]
        self.rest = Rest(f"http://127.0.0.1:{WEB_PORT + i}")
        self.of_port, self.address = OF_PORT + i, f"{self.host}:{CLUSTER_PORT + i}"
        members = ",".join(f"{hosts[j]}:{CLUSTER_PORT + j}" for j in range(INSTANCES))
        settings = os.path.join(self.dir, "cluster.properties")
        with open(os.path.join(self.dir, "beacon.properties")) as f:
            base = f.read()
        with open(settings, "w") as f:
            f.write(base + "\n" + "\n".join([
                "cluster.enabled=true", f"cluster.name={name or 'e2e'}", f"cluster.members={members}",
                f"cluster.bindAddress={self.host}", f"cluster.port={CLUSTER_PORT + i}",
                f"controller.listenPort={self.of_port}", "controller.legacyListenPort=-1",
                f"web.port={WEB_PORT + i}"]) + "\n")
        inside = f"ip netns exec {self.netns} " if self.netns else ""
        self.proc = ControllerProcess(f"exec {inside}'{self.dir}/beacon' -clean --config '{settings}'", self.of_port,
                                      os.path.join(ctx.workdir, f"beacon{i}.log"), env=ctx.ovs.env, netns=self.netns)

    def start(self, timeout=90):
        self.proc.start()
        self.wait_up(timeout)

    def wait_up(self, timeout=90):
        self.proc.wait_prompt(timeout)
        self.proc.wait_listening(timeout)
        self.proc.wait_bundle_state("net.beaconcontroller.cluster", "ACTIVE", timeout)
        # Its console commands come with its component, a moment after the bundle is active.
        ovsenv.wait_until(lambda: "gogo: " not in self.proc.console("beacon:cluster"), timeout,
                          "the beacon:cluster command", interval=0.2)

    def signal(self, sig):
        os.killpg(self.proc._proc.pid, sig)

    def kill(self):
        os.killpg(self.proc._proc.pid, signal.SIGKILL)
        self.proc._proc.wait()
        self.proc._proc = None

    def cluster(self):
        """`beacon:cluster` as ({member id: address}, {dpid: master address})."""
        members, masters = {}, {}
        for line in self.proc.command("beacon:cluster").splitlines():
            if m := MEMBER_ROW.match(line):
                members[m.group(1)] = m.group(2)
            elif m := MASTER_ROW.match(line):
                masters[m.group(1)] = m.group(2)
        return members, masters


def masters_live(inst, switches):
    """`inst` names a master for each of `switches` switches, every one a member it counts as live (a member out of
    the cluster is named by its id, not by its address)."""
    members, masters = inst.cluster()
    return len(masters) == switches and set(masters.values()) <= set(members.values())


def ovs_roles(ctx):
    """{bridge: {controller target: role}} as Open vSwitch sees it."""
    out = ctx.ovs.vsctl("--format=csv", "--data=bare", "--no-headings", "--columns=_uuid,target,role,is_connected",
                        "list", "controller").stdout
    by_uuid = {}
    for line in out.splitlines():
        uuid, target, role, connected = line.split(",")
        by_uuid[uuid] = (target, role if connected == "true" else "disconnected")
    roles = {}
    for br in ctx.net.bridges.values():
        uuids = ctx.ovs.vsctl("--data=bare", "--no-headings", "get", "bridge", br, "controller").stdout
        roles[br] = dict(by_uuid[u] for u in uuids.strip("[] \n").replace(",", " ").split() if u in by_uuid)
    return roles


def one_master_each(ctx, live):
    """Every bridge has exactly one master among the live instances' connections, the others slaves."""
    roles = ovs_roles(ctx)
    for br, by_target in roles.items():
        live_roles = [r for t, r in by_target.items() if int(t.rsplit(":", 1)[1]) - OF_PORT in live]
        if sorted(live_roles) != ["master"] + ["slave"] * (len(live) - 1):
            return None
    return roles


def balanced(roles):
    """Masters spread as evenly as the switch count allows."""
    counts = [sum(master_port(roles, br) == OF_PORT + i for br in roles) for i in range(INSTANCES)]
    return max(counts) - min(counts) <= 1


def master_port(roles, br):
    return next(int(t.rsplit(":", 1)[1]) for t, r in roles[br].items() if r == "master")


def build_network(ctx):
    """The ring, each bridge pointed at all three instances before they start: switches connect to each one as it
    comes up, as they do when a cluster and its network start together."""
    spec = ovsenv.ring(4)
    targets = [f"tcp:{inst.host}:{inst.of_port}" for inst in ctx.instances]
    net = ovsenv.Network(ctx.ovs, spec, targets[0])
    net.build()
    for i, br in enumerate(net.bridges.values()):
        args = []
        for j, t in enumerate(targets):
            args += ["--", f"--id=@c{j}", "create", "Controller", f"target=\"{t}\"", "max_backoff=1000",
                     "connection_mode=out-of-band"]
        args += ["--", "set", "Bridge", br, "controller=[" + ",".join(f"@c{j}" for j in range(INSTANCES)) + "]"]
        ctx.ovs.vsctl(*args)
    ctx.net = net


def wait_settled(ctx):
    ovsenv.wait_until(lambda: (s := ctx.ovs.controller_states()) and len(s) == 4 * INSTANCES and all(s), 60,
                      "every bridge connected to all three instances", interval=0.2)
    # Each instance's view of the new switches' ports: out of broadcasts until probed.
    for inst in ctx.instances:
        ovsenv.wait_until(lambda: ", settled" in inst.proc.console("beacon:links"), 60,
                          f"LLDP discovery settled on instance {inst.i}", interval=0.5)


def spread(roles, live):
    """Each live instance masters floor(n/m) or ceil(n/m) of the n switches."""
    counts = [sum(master_port(roles, br) == OF_PORT + i for br in roles) for i in live]
    return max(counts) - min(counts) <= 1


def ring_dpids(ctx):
    """The ring's switches in ring order: s1 - s2 - s3 - s4 - s1."""
    return [dpid_of(ctx, ctx.net.bridges[f"s{k}"]) for k in range(1, 5)]


def neighbours_together(ctx):
    """Whether the member with two of the ring's switches masters two neighbours (2-1-1)."""
    ring = ring_dpids(ctx)
    masters = ctx.instances[0].cluster()[1]
    if sorted(masters) != sorted(ring):
        return False
    pair = [k for k, d in enumerate(ring) if list(masters.values()).count(masters[d]) == 2]
    return len(pair) == 2 and (pair[1] - pair[0]) % 4 in (1, 3)


def migrate(ctx, dpid, member):
    status, body = ctx.instances[0].rest.call("POST", "/wm/beacon/cluster/migrate/json",
                                              {"switch": dpid, "member": member}, timeout=30)
    if status != 200:
        raise AssertionError(f"moving {dpid} to {member}: HTTP {status} {body}")


def test_cluster_neighbours(ctx):
    """Switches moved by hand so that the member with two masters two opposite switches of the ring: those moved stay
    while they settle (two balancing periods), a balancing round gives a member two neighbours, and nothing moves
    after that."""
    ring = ring_dpids(ctx)
    masters = ctx.instances[0].cluster()[1]
    members = [inst.address for inst in ctx.instances]
    # The 2-1-1 with the pair opposite that needs the fewest moves from where the switches are.
    plans = []
    for start in (0, 1):
        for order in (members, members[::-1]):
            for first in range(3):
                a = members[first]
                b, c = [m for m in order if m != a]
                want = {ring[start]: a, ring[start + 2]: a, ring[start + 1]: b, ring[(start + 3) % 4]: c}
                plans.append(want)
    want = min(plans, key=lambda w: sum(masters[d] != m for d, m in w.items()))
    by_hand = set()
    for dpid, member in sorted(want.items(), key=lambda e: list(masters.values()).count(masters[e[0]]), reverse=True):
        if masters[dpid] != member:
            migrate(ctx, dpid, member)
            by_hand.add(dpid)
    moved = time.monotonic()
    if ctx.instances[0].cluster()[1] != want or neighbours_together(ctx):
        raise AssertionError(f"the switches did not take the opposite 2-1-1: {ctx.instances[0].cluster()[1]}")
    # Left alone while they settle: a switch moved by hand is not moved again at the next round (the balancer may
    # gather the neighbours by moving a switch that was not moved by hand).
    time.sleep(4)
    now = ctx.instances[0].cluster()[1]
    if any(now[d] != want[d] for d in by_hand):
        raise AssertionError(f"a switch moved by hand ({sorted(by_hand)}) moved again within 4 s: {now}")
    ovsenv.wait_until(lambda: neighbours_together(ctx), 30, "the member with two switches masters two neighbours again",
                      interval=0.2)
    gathered = time.monotonic() - moved
    after = ctx.instances[0].cluster()[1]
    ovsenv.wait_until(lambda: (r := one_master_each(ctx, set(range(INSTANCES)))) and balanced(r), 15,
                      "one master per switch in OVS, 2-1-1", interval=0.2)
    time.sleep(6)  # a balancing period more: nothing moves once gathered
    if ctx.instances[0].cluster()[1] != after:
        raise AssertionError(f"switches moved again after they were gathered: {after} -> "
                             f"{ctx.instances[0].cluster()[1]}")
    return (f"opposite 2-1-1 by hand {want} ({len(by_hand)} moved); those left alone while settling; gathered"
            f" {gathered:.1f}s after the moves"
            f" (settling is two balancing periods, 10 s) into {after}; nothing moved in the next 6 s; OVS agrees")


def test_cluster_formed(ctx):
    """The instances and the switches started together (the switches point at all three before any is up): within
    10 s of the cluster forming, every switch has one master and the masters are spread 2-1-1."""
    for inst in ctx.instances:
        ovsenv.wait_until(lambda: len(inst.cluster()[0]) == INSTANCES, 60, f"instance {inst.i} sees 3 members",
                          interval=0.2)
    t = time.monotonic()

    def spread_in_map():
        masters = ctx.instances[0].cluster()[1]
        counts = sorted(list(masters.values()).count(inst.address) for inst in ctx.instances)
        return len(masters) == 4 and counts == [1, 1, 2]
    # The cluster's own view first (Open vSwitch writes roles into its table only every few seconds), then the switches.
    ovsenv.wait_until(spread_in_map, 10, "the cluster's masters spread 2-1-1 within 10 s of the cluster forming",
                      interval=0.1)
    spread_after = time.monotonic() - t
    roles = ovsenv.wait_until(lambda: (r := one_master_each(ctx, set(range(INSTANCES)))) and balanced(r) and r, 10,
                              "exactly one master per switch in Open vSwitch, 2-1-1 over the members", interval=0.1)
    ovs_after = time.monotonic() - t
    wait_settled(ctx)
    # Neighbouring switches share a master where the balance allows (cluster.md, "By neighbourhood"): of the ring
    # s1-s2-s3-s4, the member with two switches masters two neighbours once the links are known, within a balancing
    # period (5 s) of discovery settling.
    settled = time.monotonic()

    ovsenv.wait_until(lambda: neighbours_together(ctx), 25, "the member with two switches masters two neighbours",
                      interval=0.2)
    together_after = time.monotonic() - settled
    by_port = {inst.address: inst.of_port for inst in ctx.instances}

    def as_decided():
        # Open vSwitch writes a role change into its table only every few seconds: wait for it to show the moves.
        masters = ctx.instances[0].cluster()[1]
        r = one_master_each(ctx, set(range(INSTANCES)))
        return r and balanced(r) and all(by_port.get(masters.get(dpid_of(ctx, br))) == master_port(r, br)
                                         for br in r) and r
    roles = ovsenv.wait_until(as_decided, 15, "one master per switch in OVS, 2-1-1, as the cluster decided",
                              interval=0.2)
    views = [inst.cluster()[1] for inst in ctx.instances]
    if any(v != views[0] or len(v) != 4 for v in views):
        raise AssertionError(f"the instances disagree on masters: {views}")
    # Floodlight's role map on each instance says what Open vSwitch says.
    for inst in ctx.instances:
        want = {dpid_of(ctx, br): "MASTER" if master_port(roles, br) == inst.of_port else "SLAVE" for br in roles}
        got = inst.rest.get("/wm/core/switch/all/role/json")
        if got != want:
            raise AssertionError(f"/wm/core/switch/all/role/json on instance {inst.i}: {got}, want {want}")
    per = {}
    for br in roles:
        per[master_port(roles, br)] = per.get(master_port(roles, br), 0) + 1
    return (f"3 members; 4 switches spread 2-1-1 {spread_after:.1f}s after the cluster formed, each with 1 master and 2"
            f" slaves in OVS's table after {ovs_after:.1f}s;"
            f" the 3 instances agree; masters per OpenFlow port {dict(sorted(per.items()))}; the two switches of one"
            f" member are neighbours {together_after:.1f}s after discovery settled")


def test_cluster_pingall(ctx):
    return pingall(ctx.net)


def host_ports(net):
    """{MAC: attachment point as /wm/device/ shows it} of every host of the network."""
    return {h.mac: {"switchDPID": dpid_text(net.spec.dpid(h.switch)), "port": h.port, "errorStatus": None}
            for h in net.spec.hosts}


def devices(inst, default=None):
    """{MAC: attachment point} of the hosts an instance's device manager knows; `default` while its web server is not
    up yet (it starts after the controller), if given."""
    try:
        found = inst.rest.get("/wm/device/")
    except (OSError, AssertionError):  # not listening yet, or the device manager's REST not there yet
        if default is None:
            raise
        return default
    return {d["mac"][0]: d["attachmentPoint"][0] for d in found if d["attachmentPoint"]}


def test_cluster_network_apps(ctx):
    """Each instance gets only the probes and frames of the switches it masters, yet each shows every cable and every
    host where it is, and routes and floods (loop-free) across switches the others master."""
    net = ctx.net
    roles = ovs_roles(ctx)
    if len({master_port(roles, br) for br in roles}) < 2:
        raise AssertionError(f"the switches have fewer than two masters: {roles}")
    cables = sorted(sorted([(dpid_text(net.spec.dpid(a)), pa), (dpid_text(net.spec.dpid(b)), pb)])
                    for a, pa, b, pb in net.spec.links)
    hosts = host_ports(net)

    def links(inst):
        return sorted(sorted([(l["src-switch"], l["src-port"]), (l["dst-switch"], l["dst-port"])])
                      for l in inst.rest.get("/wm/topology/links/json") if l["direction"] == "bidirectional")
    t = time.time()
    for inst in ctx.instances:
        ovsenv.wait_until(lambda: links(inst) == cables, 30, f"every cable on instance {inst.i}", interval=0.5)
    # A host is learned from its frames, and its record reaches the other members when it is learned or changes: an
    # instance that missed it (a switch that reconnected, a record that came before its links) has it again at the
    # host's next frame, so the hosts keep talking while the test waits, as real ones do.
    last_ping = [0.0]

    def hosts_known(inst):
        if time.time() - last_ping[0] > 3:
            for h in net.spec.hosts:
                net.exec(h, "ping", "-c", "1", "-W", "1", net.spec.hosts[0].ip if h is not net.spec.hosts[0]
                         else net.spec.hosts[1].ip, check=False)
            last_ping[0] = time.time()
        got = devices(inst)
        if got != hosts:
            last_seen[inst.i] = {m: a for m, a in got.items() if hosts.get(m) != a} or \
                sorted(set(hosts) - set(got))
        return got == hosts
    last_seen = {}
    for inst in ctx.instances:
        try:
            ovsenv.wait_until(lambda: hosts_known(inst), 30, f"every host at its port on instance {inst.i}",
                              interval=0.5)
        except TimeoutError as e:
            raise AssertionError(f"{e}; missing or elsewhere: {last_seen.get(inst.i)}") from None
    shown = time.time() - t
    # Without flows every first packet goes to the master of the switch it enters, which routes it over switches
    # other members master (their masters write those flows).
    net.del_flows()
    result = pingall(net)
    worst = net.quiet_ports()
    per = {}
    for br in roles:
        per[master_port(roles, br)] = per.get(master_port(roles, br), 0) + 1
    return (f"masters per OpenFlow port {dict(sorted(per.items()))}; all {len(cables)} cables and {len(hosts)} hosts"
            f" on all {INSTANCES} instances ({shown:.1f}s); without flows {result}; no broadcast circulates"
            f" ({worst} packets at most on a port in 5 s, LLDP's level)")


def test_cluster_static_flows(ctx):
    """A static flow pushed over REST on one instance, for a switch another instance masters: on the switch once,
    listed by every instance; deleted on a third instance: gone from the switch and from every list."""
    net = ctx.net
    # The change is made on a member that is not the switch's master, so the masters must be known and steady here; a
    # change racing a migration is StaticFlowPusherTest's (the switch's new master writes it again).
    roles = steady_masters(ctx)
    br = next(b for b in roles if master_port(roles, b) != OF_PORT)
    dpid = dpid_of(ctx, br)
    flow = {"switch": dpid, "name": "cluster-static", "priority": "40000", "in_port": "1", "eth_type": "0x800",
            "ipv4_dst": "10.0.0.99", "actions": "output=2"}
    status, body = ctx.instances[0].rest.call("POST", "/wm/staticflowpusher/json", flow)
    if status != 200:
        raise AssertionError(f"push on instance 0: HTTP {status} {body}")
    on_switch = lambda: ctx.ovs.ofctl("dump-flows", br).stdout.count("priority=40000")  # noqa: E731
    ovsenv.wait_until(lambda: on_switch() == 1, 5, f"the flow on {br} (mastered by another instance)")
    for inst in ctx.instances:
        ovsenv.wait_until(lambda: "cluster-static" in json.dumps(inst.rest.get("/wm/staticflowpusher/list/all/json")),
                          5, f"the flow listed by instance {inst.i}")
    status, body = ctx.instances[2].rest.call("DELETE", "/wm/staticflowpusher/json", {"name": "cluster-static"})
    if status != 200:
        raise AssertionError(f"delete on instance 2: HTTP {status} {body}")
    ovsenv.wait_until(lambda: on_switch() == 0, 5, "the flow gone from the switch")
    for inst in ctx.instances:
        ovsenv.wait_until(lambda: "cluster-static" not in json.dumps(
            inst.rest.get("/wm/staticflowpusher/list/all/json")), 5, f"the flow gone from instance {inst.i}'s list")
    return (f"pushed on instance 0 for {dpid} (mastered through port {master_port(roles, br)}): once on the switch,"
            f" listed by all {INSTANCES}; deleted on instance 2: off the switch and every list")


def test_cluster_rest(ctx):
    """/wm/beacon/cluster: members and masters as the console shows them; a switch moved by POST; a bad request
    refused with nothing changed."""
    api = ctx.instances[1].rest
    c = api.get("/wm/beacon/cluster/json")
    members, masters = ctx.instances[1].cluster()
    if sorted(m["address"] for m in c["members"]) != sorted(members.values()) or \
            {d: m["address"] for d, m in c["masters"].items()} != masters:
        raise AssertionError(f"/wm/beacon/cluster/json {c} disagrees with beacon:cluster {members} {masters}")
    # From the busiest member to the least busy one: a move the balancer leaves alone.
    load = {inst.address: sum(m == inst.address for m in masters.values()) for inst in ctx.instances}
    current, target = max(load, key=load.get), min(load, key=load.get)
    dpid = next(d for d, m in sorted(masters.items()) if m == current)
    status, body = api.call("POST", "/wm/beacon/cluster/migrate/json", {"switch": dpid, "member": "10.9.9.9:1"})
    if status != 400 or "no member" not in body.get("detail", "") or ctx.instances[1].cluster()[1] != masters:
        raise AssertionError(f"a migration to an unknown member: HTTP {status} {body}")
    status, body = api.call("POST", "/wm/beacon/cluster/migrate/json", {"switch": dpid, "member": target}, timeout=30)
    if status != 200:
        raise AssertionError(f"POST /wm/beacon/cluster/migrate/json: HTTP {status} {body}")
    roles = ovsenv.wait_until(lambda: (r := one_master_each(ctx, set(range(INSTANCES))))
                              and master_port(r, bridge_of(ctx, dpid)) == OF_PORT + instance_at(ctx, target).i and r,
                              10, f"{dpid} mastered by {target} in Open vSwitch")
    metrics = api.call("GET", "/metrics")[1]
    if f"beacon_cluster_members {INSTANCES}" not in metrics:
        raise AssertionError("/metrics has no beacon_cluster_members " + str(INSTANCES))
    return (f"{len(c['members'])} members, {len(c['masters'])} masters as in the console; {dpid} moved to {target} in"
            f" {body['ms']} ms by POST (OVS agrees); an unknown member refused with 400, nothing moved;"
            f" /metrics has the cluster")


def steady_masters(ctx, quiet=3.0, timeout=60):
    """Open vSwitch's roles once the masters map has not changed for `quiet` seconds and OVS shows it: one master per
    switch, the map's. Returns the roles."""
    seen = {"masters": None, "since": time.monotonic()}

    def steady():
        masters = ctx.instances[0].cluster()[1]
        if masters != seen["masters"]:
            seen.update(masters=masters, since=time.monotonic())
            return None
        roles = one_master_each(ctx, set(range(INSTANCES)))
        agree = roles and all(master_port(roles, bridge_of(ctx, d)) == instance_at(ctx, m).of_port
                              for d, m in masters.items() if any(i.address == m for i in ctx.instances))
        return roles if agree and time.monotonic() - seen["since"] >= quiet else None
    return ovsenv.wait_until(steady, timeout, f"the masters unchanged for {quiet:g} s and Open vSwitch agreeing",
                             interval=0.5)


def instance_at(ctx, address):
    return next(inst for inst in ctx.instances if inst.address == address)


def bridge_of(ctx, dpid):
    return next(br for br in ctx.net.bridges.values() if dpid_of(ctx, br) == dpid)


def test_cluster_web_ui(ctx):
    """The Cluster page in headless Chromium (launcher/webui-tests ClusterUiTest): members, masters, a move."""
    top = Path(__file__).resolve().parents[2]
    props = {"clusterUrl": f"http://127.0.0.1:{WEB_PORT}", "members": INSTANCES, "switches": len(ctx.net.bridges),
             "screenshots": os.environ.get("BEACON_UI_SCREENSHOTS", "")}
    cmd = [str(top / "mvnw"), "-B", "-o", "verify", "-pl", "launcher/webui-tests", "-Dtest=ClusterUiTest"] + \
        [f"-Dbeacon.ui.{k}={v}" for k, v in props.items()]
    proc = subprocess.run(cmd, cwd=top, capture_output=True, text=True, timeout=600)
    report = top / "launcher/webui-tests/target/surefire-reports/net.beaconcontroller.webui.ClusterUiTest.txt"
    if proc.returncode != 0 or not re.search(r"Tests run: 1, Failures: 0, Errors: 0, Skipped: 0", report.read_text()):
        raise AssertionError("launcher/webui-tests ClusterUiTest failed:\n" + (proc.stdout + proc.stderr)[-6000:])
    one_master_each(ctx, set(range(INSTANCES)))
    return "the Cluster page listed 3 members and 4 masters and moved a switch with its own control, no console error"


def dpid_of(ctx, br):
    sw = next(s for s, b in ctx.net.bridges.items() if b == br)
    text = f"{ctx.net.spec.dpid(sw):016x}"
    return ":".join(text[k:k + 2] for k in range(0, 16, 2))


def test_cluster_migration(ctx):
    """Migrations of the switches between instances, one after the other: for as long as a TCP transfer across them
    runs (at least 24), then 24 more with only a ping crossing them, which must lose nothing."""
    net = ctx.net
    # Run alone, it starts with the cluster still forming: the moves need a master for every switch to move.
    wait_settled(ctx)
    ovsenv.wait_until(lambda: one_master_each(ctx, set(range(INSTANCES))), 30, "one master each")
    src, dst = net.spec.hosts[0], net.spec.hosts[-1]
    bridges = list(net.bridges.values())
    times, errors = [], []

    def migrate(k):
        dpid = dpid_of(ctx, bridges[k % len(bridges)])
        current = ctx.instances[0].cluster()[1][dpid]
        target = next(inst for inst in ctx.instances[k % INSTANCES:] + ctx.instances if inst.address != current)
        out = ctx.instances[k % INSTANCES].proc.console(f"beacon:migrate {dpid} {target.address}")
        if m := MIGRATED.search(out):
            times.append(float(m.group(2)))
        else:
            errors.append(out.strip())

    def migrate_loop():
        k = 0
        while (not done.is_set() or k < 24) and k < 400:
            migrate(k)
            k += 1
    done = threading.Event()
    mover = threading.Thread(target=migrate_loop)
    # These moves do not keep the switches balanced: the balancer waits until they are over.
    for inst in ctx.instances:
        inst.proc.command("beacon:config set cluster.balancePeriod 0")
    mover.start()
    try:
        transfer = tcp_transfer(ctx, net, src, dst)
    finally:
        done.set()
        mover.join(120)
    during_transfer = len(times)
    ping = BackgroundPing(ctx, net, src, dst, "migration")
    try:
        ping.wait_reply_after(time.time(), 10)
        for k in range(24):
            migrate(k)
            time.sleep(0.05)
        time.sleep(1)
    finally:
        ping.stop()
    for inst in ctx.instances:
        inst.proc.command("beacon:config set cluster.balancePeriod 5")
    if errors:
        raise AssertionError(f"{len(errors)} migrations failed: {errors[:3]}")
    lost, sent = lost_pings(ping)
    if lost > 0:
        raise AssertionError(f"{lost} of {sent} pings lost during 24 migrations")
    ovsenv.wait_until(lambda: one_master_each(ctx, set(range(INSTANCES))), 10, "one master per switch")
    times.sort()
    return (f"{during_transfer} migrations during {transfer}; 24 more with 0 of {sent} pings lost; migration times"
            f" (ms) min {times[0]:.1f}, median {times[len(times) // 2]:.1f}, p90 {times[len(times) * 9 // 10]:.1f},"
            f" max {times[-1]:.1f}; one master each after")


def lost_pings(ping):
    """(requests without a reply, requests) up to the last reply."""
    answered = {q for _, q in ping.replies()}
    return (max(answered) - len(answered), max(answered)) if answered else (0, 0)


def test_cluster_failover(ctx):
    net = ctx.net
    roles = ovsenv.wait_until(lambda: one_master_each(ctx, set(range(INSTANCES))), 30, "one master each")
    victim_port = master_port(roles, list(net.bridges.values())[0])
    victim = ctx.instances[victim_port - OF_PORT]
    mastered = [br for br in roles if master_port(roles, br) == victim_port]
    src, dst = net.spec.hosts[0], net.spec.hosts[-1]
    ping = BackgroundPing(ctx, net, src, dst, "failover")
    try:
        ping.wait_reply_after(time.time(), 10)
        t = time.time()
        victim.kill()
        # Without flows every packet needs a controller: the outage is the time to a working master.
        for br in net.bridges.values():
            ctx.ovs.ofctl("del-flows", br)
        live = set(range(INSTANCES)) - {victim.i}
        ovsenv.wait_until(lambda: one_master_each(ctx, live), 30, "new masters for the killed instance's switches",
                          interval=0.1)
        failover = time.time() - t
        outage, lost = ping.outage_after(t, 30)
    finally:
        ping.stop()
    try:
        pingall(net)
    finally:
        # Whatever happened, the tests after this one get their three instances back.
        t = time.time()
        victim.start()
        ovsenv.wait_until(lambda: len(ctx.instances[min(live)].cluster()[0]) == INSTANCES, 60,
                          "the instance to rejoin", interval=0.5)
    roles = ovsenv.wait_until(lambda: (r := one_master_each(ctx, set(range(INSTANCES))))
                              and any(master_port(r, br) == victim_port for br in r) and r, 60,
                              "the restarted instance to master a switch again", interval=0.5)
    back = time.time() - t
    # Its device manager restarted empty: it takes the hosts the others learned from the shared state.
    ovsenv.wait_until(lambda: devices(victim, default={}) == host_ports(net), 10,
                      "every host on the restarted instance", interval=0.2)
    hosts_back = time.time() - t
    return (f"killed the master of {len(mastered)} switch(es) and deleted all flows: new masters in OVS after"
            f" {failover:.1f}s, pings resumed {outage:.1f}s after the kill ({lost} lost), pingall ok; restarted:"
            f" rejoined and mastering"
            f" {sum(master_port(roles, br) == victim_port for br in roles)} switch(es) {back:.1f}s later, every"
            f" host known to it {hosts_back:.1f}s after its start")


def oldest(ctx, inst):
    """The address of the oldest member as `beacon:cluster` on `inst` shows it."""
    for line in inst.proc.command("beacon:cluster").splitlines():
        if (m := MEMBER_ROW.match(line)) and "oldest" in line.split()[2]:
            return m.group(2)
    raise AssertionError("beacon:cluster shows no oldest member")


# A log line of the core, possibly behind the console's prompt: "osgi> 11:38:05.412 INFO  [...] ... switch
# 00:00:00:00:00:00:00:01: role MASTER (was SLAVE)".
ROLE_GRANTED = re.compile(r"(\d\d):(\d\d):(\d\d)\.(\d{3}) \w+\s+\[.*switch ((?:[0-9a-f]{2}:){7}[0-9a-f]{2})(?: \([^)]*\))?: role MASTER")


STAMP = re.compile(r"(\d\d):(\d\d):(\d\d)\.(\d{3}) ")


def seconds_of_day(t):
    lt = time.localtime(t)
    return lt.tm_hour * 3600 + lt.tm_min * 60 + lt.tm_sec + (t % 1)


def since_start(m, start):
    """Seconds from `start` (seconds of the day) to the log time stamp matched by `m` (its first four groups: hours,
    minutes, seconds, milliseconds), across midnight too (within 12 h either way)."""
    at = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3)) + int(m.group(4)) / 1000
    return (at - start + 43200) % 86400 - 43200


def grants(inst, since, start):
    """[(seconds after `start`, dpid)] of the MASTER grants `inst` logged after output offset `since`."""
    return [(since_start(m, start), m.group(5)) for line in inst.proc.output()[since:].splitlines()
            if (m := ROLE_GRANTED.search(line))]


def first_grants(insts, marks, start, dpids):
    """{dpid: seconds after `start` of its first MASTER grant to any of `insts` since their output offsets `marks`
    (by instance number)}, for the switches of `dpids` granted since `start` (a log stamp may round a millisecond
    down)."""
    first = {}
    for inst in insts:
        for at, dpid in grants(inst, marks[inst.i], start):
            if dpid in dpids and at >= -0.001:
                first[dpid] = min(first.get(dpid, at), at)
    return first


def failover_gap(ctx, victim, before=None):
    """kill -9 of `victim` (after `before()`, if given, runs). Returns (a) seconds until Open vSwitch's Controller table
    shows exactly one connected MASTER per switch among the other instances, (b) seconds until the survivors' logs show
    the switch granting MASTER to a survivor, for each switch `victim` mastered (the member's side: Open vSwitch writes
    roles into its table only every few seconds, so (a) includes that delay), and (c) the lines any survivor logged
    about lost partitions."""
    live = set(range(INSTANCES)) - {victim.i}
    logged = {i: len(ctx.instances[i].proc.output()) for i in live}
    mastered = {d for d, m in ctx.instances[min(live)].cluster()[1].items() if m == victim.address}
    if before:
        before()
    t = time.monotonic()
    killed_at = time.time()
    victim.kill()
    print(f"  killed instance {victim.i} at {time.strftime('%H:%M:%S', time.localtime(killed_at))}"
          f".{int(killed_at * 1000) % 1000:03d}, master of {sorted(mastered)}", flush=True)
    ovsenv.wait_until(lambda: one_master_each(ctx, live), 30, f"one master per switch after killing instance"
                      f" {victim.i}", interval=0.05)
    gap = time.monotonic() - t
    start = seconds_of_day(killed_at)

    def granted_now():
        return first_grants([ctx.instances[i] for i in live], logged, start, mastered)
    # Open vSwitch's table may still show the old roles when the test reads it: the grants may come after.
    granted = {}
    if mastered:
        try:
            granted = ovsenv.wait_until(lambda: (g := granted_now()) and set(g) == mastered and g, 10,
                                        "a survivor's grant of each switch the killed member mastered", interval=0.1)
        except TimeoutError:
            granted = granted_now()
    missing = mastered - set(granted)
    member_gap = max(granted.values(), default=0.0) if not missing else float("inf")
    lost = [line for i in live for line in ctx.instances[i].proc.output()[logged[i]:].splitlines()
            if "completely lost" in line or "LOST partitions" in line]
    return gap, member_gap, lost


def restart(ctx, victim):
    """Starts a killed instance again; returns once every instance sees three members."""
    victim.start()
    ovsenv.wait_until(lambda: all(len(inst.cluster()[0]) == INSTANCES for inst in ctx.instances), 60,
                      f"instance {victim.i} to rejoin", interval=0.2)


def test_cluster_kill_any(ctx):
    """kill -9 of the oldest member, of one that joined 1 s ago, and of one in the middle of migrating a switch away:
    each time every switch has one connected MASTER again within 2 s (as Open vSwitch reports the roles), and no
    survivor logs a lost partition."""
    gaps = []
    # The target is 2 s at the switch; measured at the members (the grants in the survivors' logs) it was 0.0-1.24 s in
    # the runs of docs/cluster.md. CI holds it at 4 s, so that a loaded machine does not fail a newcomer while a
    # regression to the old 4-15 s still fails; Open vSwitch's table lags the switch by up to a few seconds: 8 s.
    ovs_bound, member_bound = 8.0, 4.0
    # The oldest member: it assigns the masters.
    victim = instance_at(ctx, oldest(ctx, ctx.instances[0]))
    gaps.append(("oldest", *failover_gap(ctx, victim)))
    restart(ctx, victim)
    # One that joined a second ago: the cluster is still moving its partitions and switches to it.
    time.sleep(1)
    gaps.append(("joined 1 s ago", *failover_gap(ctx, victim)))
    restart(ctx, victim)
    roles = ovsenv.wait_until(lambda: (r := one_master_each(ctx, set(range(INSTANCES)))) and balanced(r) and r, 20,
                              "the restarted instance to get its share of switches", interval=0.2)
    # One migrating a switch away: the move is asked, then its source is killed at once.
    br = next(iter(roles))
    source = ctx.instances[master_port(roles, br) - OF_PORT]
    target = next(inst for inst in ctx.instances if inst is not source)
    dpid = dpid_of(ctx, br)
    mover = threading.Thread(target=lambda: target.rest.call("POST", "/wm/beacon/cluster/migrate/json",
                                                             {"switch": dpid, "member": target.address}, timeout=30))
    gaps.append(("mid-migration", *failover_gap(ctx, source, before=lambda: (mover.start(), time.sleep(0.003)))))
    mover.join(40)
    restart(ctx, source)
    ovsenv.wait_until(lambda: (r := one_master_each(ctx, set(range(INSTANCES)))) and balanced(r), 20,
                      "one master per switch, spread, after the last restart", interval=0.2)
    text = "; ".join(f"{what}: {member:.2f}s at the members, {ovs:.2f}s in OVS" for what, ovs, member, _ in gaps)
    slow = [what for what, ovs, member, _ in gaps if ovs > ovs_bound or member > member_bound]
    lost = [line for *_, lines in gaps for line in lines]
    if slow or lost:
        raise AssertionError(f"fail-over too slow ({slow}) or partitions lost: {text}; lost partitions: {lost[:3]}")
    return f"every switch granted MASTER to a survivor after kill -9 of the {text}; no partition lost"


def test_cluster_partition(ctx):
    """The master of some switches freezes (SIGSTOP: no connection closes, so only missed heartbeats tell) for longer
    than cluster.failureTimeout: the others take its switches over. When it resumes it finds itself out of the
    cluster, merges back, and no switch ends up with two masters: Open vSwitch keeps one master per switch, and the
    merged map decides which member acts as it."""
    net = ctx.net
    roles = ovsenv.wait_until(lambda: one_master_each(ctx, set(range(INSTANCES))), 30, "one master each")
    victim_port = master_port(roles, list(net.bridges.values())[-1])
    victim = ctx.instances[victim_port - OF_PORT]
    mastered = [br for br in roles if master_port(roles, br) == victim_port]
    live = set(range(INSTANCES)) - {victim.i}
    other = ctx.instances[min(live)]
    t = time.time()
    victim.signal(signal.SIGSTOP)
    try:
        ovsenv.wait_until(lambda: len(other.cluster()[0]) == INSTANCES - 1, 30, "the others to drop the frozen member",
                          interval=0.2)
        dropped = time.time() - t
        # Then for Open vSwitch to have granted the new masters MASTER.
        ovsenv.wait_until(lambda: masters_live(other, len(net.bridges)), 30,
                          "new masters for the frozen member's switches", interval=0.2)
        taken = time.time() - t
        ovsenv.wait_until(lambda: one_master_each(ctx, live), 30, "one master each among the others in OVS",
                          interval=0.2)
        granted = time.time() - t
        net.del_flows()
        try:
            pingall(net)
        except AssertionError as e:
            # What each survivor believed, on the line the CI summary keeps.
            views = {inst.i: inst.cluster()[1] for inst in ctx.instances if inst is not victim}
            raise AssertionError(f"{e}; masters {granted:.1f}s after the freeze, as the survivors see them: {views}")
    finally:
        victim.signal(signal.SIGCONT)
    t = time.time()
    ovsenv.wait_until(lambda: all(len(inst.cluster()[0]) == INSTANCES for inst in ctx.instances), 90,
                      "the resumed member to merge back", interval=1)
    merged = time.time() - t
    ovsenv.wait_until(lambda: len({tuple(sorted(inst.cluster()[1].items())) for inst in ctx.instances}) == 1, 30,
                      "the three members to agree on the masters", interval=0.5)
    roles = ovsenv.wait_until(lambda: one_master_each(ctx, set(range(INSTANCES))), 30, "one master each in OVS")
    net.del_flows()
    pingall(net)
    return (f"froze the master of {len(mastered)} switch(es): dropped from the cluster after {dropped:.1f}s, its"
            f" switches re-mastered after {taken:.1f}s (in OVS {granted:.1f}s), pingall ok without flows; resumed:"
            f" merged back after {merged:.1f}s, the members agree, one master per switch in OVS, pingall ok")


def jvm_threads(inst):
    """{thread name prefix: count} of an instance's JVM (the launcher script execs java); Linux keeps 15
    characters of each name, enough for Hazelcast's "hz." and Beacon's "beacon-"."""
    task = f"/proc/{inst.proc._proc.pid}/task"
    counts = {"all": 0, "hz.": 0, "beacon-": 0}
    for t in os.listdir(task):
        try:
            with open(f"{task}/{t}/comm") as f:
                name = f.read()
        except OSError:  # the thread ended meanwhile
            continue
        counts["all"] += 1
        for prefix in ("hz.", "beacon-"):
            counts[prefix] += name.startswith(prefix)
    return counts


def connects_to(ctx, inst):
    """How many times Open vSwitch connected to an instance's OpenFlow port."""
    with open(ctx.ovs.vswitchd_log, errors="replace") as f:
        return sum(1 for line in f if "|rconn|" in line and line.rstrip().endswith(f":{inst.of_port}: connected"))


def first_switch_master(ctx):
    """The instance mastering the first switch, by the cluster's own view and Open vSwitch's table agreeing: the table
    lags the roles by seconds, and after an earlier test (a member that merged back) it may still name a member that
    no longer masters anything."""
    first = list(ctx.net.bridges.values())[0]

    def agreed():
        master = ctx.instances[0].cluster()[1].get(dpid_of(ctx, first))
        roles = one_master_each(ctx, set(range(INSTANCES)))
        inst = master and instance_at(ctx, master)
        return inst if roles and master_port(roles, first) == inst.of_port else None
    return ovsenv.wait_until(agreed, 30, "the cluster and Open vSwitch to agree on the first switch's master",
                             interval=0.5)


def test_cluster_bundle_restart(ctx):
    """One instance's cluster bundle stops and starts at run time, twice, while pings run and with the flows deleted
    after each stop. Before it leaves it hands its switches to the others by migration; the switches stay connected
    to it, as its slaves; Hazelcast's threads leave with the bundle. Started again, it rejoins, masters switches again
    and knows every host. After the second stop its JVM has no more Beacon threads than after the first."""
    net = ctx.net
    victim = first_switch_master(ctx)
    live = set(range(INSTANCES)) - {victim.i}
    other = ctx.instances[min(live)]
    pingall(net)  # every host known to the cluster, whichever tests ran before
    bundle = victim.proc.wait_bundle_state("net.beaconcontroller.cluster", "ACTIVE")
    connects = connects_to(ctx, victim)
    src, dst = net.spec.hosts[0], net.spec.hosts[-1]
    cycles, threads = [], []
    for cycle in range(2):
        ping = BackgroundPing(ctx, net, src, dst, f"bundle-restart-{cycle}")
        try:
            ping.wait_reply_after(time.time(), 10)
            t = time.time()
            victim.proc.command(f"stop {bundle}")
            stopped = time.time() - t
            net.del_flows()  # from here every packet needs a master that works
            # Its switches were handed over by migration before it left.
            handed = HANDED.findall(victim.proc.output())
            if len(handed) != cycle + 1:
                raise AssertionError(f"no hand-over logged by the stopping member: {handed}")
            ovsenv.wait_until(lambda: len(other.cluster()[0]) == INSTANCES - 1 and masters_live(other, 4), 5,
                              "the others to see the member gone", interval=0.1)
            outage, lost = ping.outage_after(t, 30)
        finally:
            ping.stop()
        ovsenv.wait_until(lambda: one_master_each(ctx, live), 30, "one master per switch among the others in OVS",
                          interval=0.2)
        ovsenv.wait_until(lambda: jvm_threads(victim)["hz."] == 0, 10, "Hazelcast's threads gone with the bundle",
                          interval=0.2)
        if cycle == 0:
            beacon_threads = jvm_threads(victim)["beacon-"]
        else:
            ovsenv.wait_until(lambda: jvm_threads(victim)["beacon-"] <= beacon_threads, 10,
                              f"no more Beacon threads after the second stop than after the first ({beacon_threads})",
                              interval=0.2)
        roles = ovs_roles(ctx)
        if any(by_target[f"tcp:127.0.0.1:{victim.of_port}"] != "slave" for by_target in roles.values()):
            raise AssertionError(f"the stopped member is not a connected slave of every switch: {roles}")
        t = time.time()
        victim.proc.command(f"start {bundle}")
        ovsenv.wait_until(lambda: all(len(inst.cluster()[0]) == INSTANCES for inst in ctx.instances), 60,
                          "the member to rejoin", interval=0.5)
        ovsenv.wait_until(lambda: (r := one_master_each(ctx, set(range(INSTANCES))))
                          and any(master_port(r, br) == victim.of_port for br in r), 60,
                          "the member to master a switch again", interval=0.5)
        ovsenv.wait_until(lambda: devices(victim, default={}) == host_ports(net), 20, "every host on the member",
                          interval=0.2)
        back = time.time() - t
        net.del_flows()
        pingall(net)
        threads.append(jvm_threads(victim))
        cycles.append(f"stop took {stopped:.1f}s, {handed[-1][0]} switch(es) handed over in {handed[-1][1]} ms,"
                      f" pings resumed {outage:.1f}s ({lost} lost), back {back:.1f}s")
    if connects_to(ctx, victim) != connects:
        raise AssertionError("switches reconnected to the member whose cluster bundle restarted")
    return (f"instance {victim.i}: " + "; ".join(cycles) + f"; no switch reconnected; Hazelcast's threads gone"
            f" after each stop, Beacon's {beacon_threads} after both; threads after each start"
            f" {[t['all'] for t in threads]}; pingall ok each time")


def test_cluster_core_update(ctx):
    """`update` + `refresh` of net.beaconcontroller.core on the member mastering the first switch, while a ping runs
    across the network (issue 23 on a cluster member). The refresh restarts the cluster bundle too: the member hands
    its switches to the others and leaves; its switches' connections wait in the connection holder while its core is
    swapped and the new core takes them over, so no switch reconnects to it; it rejoins and masters switches again."""
    net = ctx.net
    victim = first_switch_master(ctx)
    pingall(net)
    connects = connects_to(ctx, victim)
    core = victim.proc.wait_bundle_state("net.beaconcontroller.core", "ACTIVE")
    src, dst = net.spec.hosts[0], net.spec.hosts[-1]
    ping = BackgroundPing(ctx, net, src, dst, "cluster-core-update")
    try:
        ping.wait_reply_after(time.time(), 10)
        t = time.time()
        mark = len(victim.proc.output())
        victim.proc.command(f"update {core}")
        victim.proc.command(f"refresh {core}")
        victim.proc.wait_bundle_state("net.beaconcontroller.core", "ACTIVE")
        victim.proc.wait_bundle_state("net.beaconcontroller.cluster", "ACTIVE", timeout=60)
        taken = ovsenv.wait_until(
            lambda: (lambda n: n if n >= 2 * len(net.bridges) else None)(
                victim.proc.output(mark).count("connection taken over from the previous core")), 30,
            "the member's new core to take every switch over, twice (update, then refresh)", interval=0.2)
        ovsenv.wait_until(lambda: all(len(inst.cluster()[0]) == INSTANCES for inst in ctx.instances), 60,
                          "the member to rejoin", interval=0.5)
        ovsenv.wait_until(lambda: (r := one_master_each(ctx, set(range(INSTANCES))))
                          and any(master_port(r, br) == victim.of_port for br in r), 60,
                          "the member to master a switch again", interval=0.5)
        back = time.time() - t
        outage, lost = ping.outage_after(t, 30)
    finally:
        ping.stop()
    reconnects = connects_to(ctx, victim) - connects
    net.del_flows()
    pingall(net)
    summary = (f"instance {victim.i}: {taken} take-overs logged, back in the cluster and mastering {back:.1f}s after"
               f" the update, switches reconnected to it {reconnects}, the ping's longest pause {outage:.1f}s"
               f" ({lost} lost); pingall ok after")
    if reconnects:
        raise AssertionError(summary)
    return summary


def test_cluster_wrong_name(ctx):
    stray = Instance(ctx, INSTANCES, name="other")
    stray.start()
    try:
        log = ovsenv.wait_until(lambda: "running alone" in (o := stray.proc.output()) and o, 60,
                                "the warning of an instance that found no member")
        line = next(line for line in log.splitlines() if "running alone" in line)
        line = line[line.index("cluster '"):line.index("running alone") + len("running alone")]
        members = ctx.instances[0].cluster()[0]
        if len(members) != INSTANCES:
            raise AssertionError(f"the stray instance changed the cluster: {members}")
    finally:
        stray.proc.stop()
    return f"started alone, logging \"{line}\"; the cluster kept its 3 members"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--product", required=True, help="the built product directory (with beacon in it)")
    p.add_argument("--tests", default=",".join(TESTS))
    p.add_argument("--keep", action="store_true", help="keep the work directory")
    args = p.parse_args()
    args.product = os.path.abspath(args.product)
    args.transfer_mb = 100
    ctx = new_context(args, [os.path.abspath(__file__), *sys.argv[1:]], "cluster")
    passed = failed = 0
    try:
        t0 = time.monotonic()
        try:
            ctx.ovs.start()
            start_cluster(ctx)
            print(f"setup: private OVS + {INSTANCES} instances up in {time.monotonic() - t0:.1f}s", flush=True)
            tests = args.tests.split(",")
        except Exception as e:  # noqa: BLE001
            print(f"FAIL setup: {e}", flush=True)
            failed += 1
            tests = []
        for name in tests:
            t = time.monotonic()
            try:
                detail = globals()[f"test_{name}"](ctx)
                print(f"PASS {name} ({time.monotonic() - t:.1f}s): {detail}", flush=True)
                passed += 1
            except Exception as e:  # noqa: BLE001
                report_failure(ctx, name, t, e)
                failed += 1
                if name in ("cluster_formed",):
                    break
    finally:
        tear_down(ctx, keep=failed or args.keep)
    print(f"{passed} passed, {failed} failed", flush=True)
    sys.exit(1 if failed else 0)


def new_context(args, argv, name):
    """Runs `argv` (this script again) in private namespaces (see ovsenv) and returns, there, the test's context with a
    work directory of its own and a private Open vSwitch not started yet."""
    ovsenv.enter_private_namespaces(argv)
    workdir = tempfile.mkdtemp(prefix=f"{ovsenv.name_tag()}-{name}-")
    return SimpleNamespace(args=args, workdir=workdir, ovs=ovsenv.PrivateOvs(workdir), net=None, instances=[])


def start_cluster(ctx):
    """The instances and the ring connected to all of them; returns once every instance is up."""
    ctx.instances = [Instance(ctx, i) for i in range(INSTANCES)]
    build_network(ctx)
    for inst in ctx.instances:
        inst.proc.start()
    for inst in ctx.instances:
        inst.wait_up()


def report_failure(ctx, name, started, e):
    """The FAIL line, the traceback, the roles in Open vSwitch and each instance's last log lines."""
    print(f"FAIL {name} ({time.monotonic() - started:.1f}s): {e}", flush=True)
    traceback.print_exc(file=sys.stdout)
    if ctx.net is not None:
        print("== ovs roles\n" + repr(ovs_roles(ctx)), flush=True)
        print("== flows\n" + ctx.net.dump_flows(), flush=True)
    for inst in ctx.instances:
        for command in ("beacon:devices", "beacon:links"):
            try:
                print(f"== beacon{inst.i} {command}\n" + inst.proc.console(command, timeout=5), flush=True)
            except (RuntimeError, TimeoutError, OSError) as failed:
                print(f"== beacon{inst.i} {command}: {failed}", flush=True)
    for inst in ctx.instances:
        print(f"== beacon{inst.i}.log (tail)\n" + ovsenv.tail(inst.proc.log_path, 30), flush=True)


def tear_down(ctx, keep):
    """Stops the network, the instances and Open vSwitch; the work directory stays if `keep`."""
    if ctx.net is not None:
        ctx.net.teardown()
    for inst in ctx.instances:
        inst.proc.stop()
    ctx.ovs.stop()
    if keep:
        print(f"work dir kept: {ctx.workdir}", flush=True)
    else:
        shutil.rmtree(ctx.workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
