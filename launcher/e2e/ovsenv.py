"""Private Open vSwitch, network-namespace hosts and Mininet-like topologies.

Everything here is built with `ip` and `ovs-vsctl` directly (never Mininet, whose cleanup kills processes by name
machine-wide). OVS runs as its own ovsdb-server + ovs-vswitchd pair with run/db/log/sysconf directories under a
temporary directory, and every process, link and namespace created is remembered so that exactly those are removed.
"""

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

OVS_SCHEMA = "/usr/share/openvswitch/vswitch.ovsschema"
INSIDE_ENV = "BCN_E2E_PRIVATE_NS"
TAG_ENV = "BCN_E2E_TAG"

# OVS daemons, ip and unshare live in sbin, which a non-login root shell (CI) may not have on its PATH.
os.environ["PATH"] = ":".join(dict.fromkeys(os.environ.get("PATH", "").split(":") + ["/usr/sbin", "/sbin"]))


class CommandError(RuntimeError):
    """A helper command exited non-zero."""


def run(cmd, *, env=None, timeout=30, check=True, stdin=None):
    """Runs a command to completion and returns the CompletedProcess (text mode)."""
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout, stdin=stdin)
    if check and proc.returncode != 0:
        raise CommandError(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.strip() or proc.stdout.strip()}")
    return proc


def wait_until(predicate, timeout, what, interval=0.05):
    """Polls predicate until it returns something truthy (returned) or the deadline passes (TimeoutError)."""
    deadline = time.monotonic() + timeout
    while True:
        result = predicate()
        if result:
            return result
        if time.monotonic() >= deadline:
            raise TimeoutError(f"timed out after {timeout:g}s waiting for {what}")
        time.sleep(interval)


def tail(path, lines=40):
    """Last lines of a text file, or a note that it does not exist."""
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError as e:
        return f"<{path}: {e.strerror}>\n"


def enter_private_namespaces(argv):
    """Re-executes this program inside new network, mount and PID namespaces, unless already inside.

    The network namespace keeps every veth, bridge tap and TCP socket off the machine's real network. The PID
    namespace makes the kernel kill whatever is left when the program ends, whatever happens to it. The mount
    namespace keeps `ip netns` bookkeeping (a tmpfs on /run/netns) and the new /proc private.
    """
    if os.environ.get(INSIDE_ENV) == "1":
        os.makedirs("/run/netns", exist_ok=True)
        run(["mount", "-t", "tmpfs", "bcn-netns", "/run/netns"])
        run(["ip", "link", "set", "lo", "up"])
        # PID 1 of a namespace ignores signals it has no handler for: turn SIGTERM into a normal exit + cleanup.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        return
    if os.geteuid() != 0:
        sys.exit("must run as root (network namespaces, veth pairs, OVS)")
    env = dict(os.environ, **{INSIDE_ENV: "1", TAG_ENV: os.environ.get(TAG_ENV) or f"bcn{os.getpid() % 10000:04d}"})
    cmd = ["unshare", "--net", "--mount", "--pid", "--kill-child=SIGTERM", "--mount-proc",
           "--propagation", "private", sys.executable, *argv]
    os.execvpe(cmd[0], cmd, env)


def name_tag():
    """Short unique prefix for every name this run creates (interface names are limited to 15 characters)."""
    return os.environ.get(TAG_ENV, f"bcn{os.getpid() % 10000:04d}")


class PrivateOvs:
    """An ovsdb-server + ovs-vswitchd pair owned by this process, with all state under `workdir/ovs`."""

    def __init__(self, workdir):
        self.dir = os.path.join(workdir, "ovs")
        for sub in ("run", "db", "log", "etc"):
            os.makedirs(os.path.join(self.dir, sub), exist_ok=True)
        self.env = dict(os.environ,
                        OVS_RUNDIR=f"{self.dir}/run", OVS_DBDIR=f"{self.dir}/db",
                        OVS_LOGDIR=f"{self.dir}/log", OVS_SYSCONFDIR=f"{self.dir}/etc")
        self.db_sock = f"{self.dir}/run/db.sock"
        self.vswitchd_log = f"{self.dir}/log/ovs-vswitchd.log"
        self._procs = []

    def start(self):
        db = f"{self.dir}/db/conf.db"
        run(["ovsdb-tool", "create", db, OVS_SCHEMA], env=self.env)
        self._spawn(["ovsdb-server", db, f"--remote=punix:{self.db_sock}", "--pidfile", "--log-file",
                     "-vconsole:off"], "ovsdb-server")
        wait_until(lambda: os.path.exists(self.db_sock), 10, "ovsdb-server socket")
        self.vsctl("--no-wait", "init")
        self._spawn(["ovs-vswitchd", f"unix:{self.db_sock}", "--pidfile", "--log-file", "-vconsole:off"],
                    "ovs-vswitchd")
        wait_until(lambda: self.appctl("version", check=False).returncode == 0, 10, "ovs-vswitchd control socket")

    def _spawn(self, cmd, name):
        log = open(f"{self.dir}/log/{name}.stderr", "w")
        proc = subprocess.Popen(cmd, env=self.env, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        self._procs.append(proc)

    def vsctl(self, *args, check=True, timeout=30):
        return run(["ovs-vsctl", f"--db=unix:{self.db_sock}", f"--timeout={timeout}", *args],
                   env=self.env, check=check, timeout=timeout + 5)

    def ofctl(self, *args, check=True, timeout=30):
        return run(["ovs-ofctl", "-O", "OpenFlow10", *args], env=self.env, check=check, timeout=timeout)

    def appctl(self, *args, check=True):
        return run(["ovs-appctl", "-t", "ovs-vswitchd", *args], env=self.env, check=check)

    def controller_states(self):
        """is_connected of every Controller record, as booleans."""
        out = self.vsctl("--format=csv", "--data=bare", "--no-headings", "--columns=is_connected",
                         "list", "controller").stdout
        return [line.strip() == "true" for line in out.splitlines() if line.strip()]

    def controller_targets(self):
        """The target of every Controller record, e.g. tcp:127.0.0.1:6653."""
        out = self.vsctl("--format=csv", "--data=bare", "--no-headings", "--columns=target",
                         "list", "controller").stdout
        return [line.strip().strip('"') for line in out.splitlines() if line.strip()]

    def controller_connects(self):
        """How many times ovs-vswitchd has logged a controller connection coming up."""
        with open(self.vswitchd_log, errors="replace") as f:
            return sum(1 for line in f if "|rconn|" in line and line.rstrip().endswith(": connected"))

    def stop(self):
        for proc in reversed(self._procs):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        self._procs.clear()


@dataclass
class Host:
    name: str
    index: int
    switch: str
    port: int
    netns: str = ""
    ip: str = ""
    mac: str = ""
    ifname: str = ""  # the switch end of its veth pair (keeps its name when the host moves)


@dataclass
class TopologySpec:
    """Switches s1..sN (dpid = dpid_base + i unless `dpids` names it), hosts h1..hM, links as (switch, port,
    switch, port)."""
    name: str
    switches: list
    hosts: list
    links: list
    dpid_base: int = 0
    dpids: dict = field(default_factory=dict)

    def dpid(self, switch):
        return self.dpids.get(switch) or self.dpid_base + self.switches.index(switch) + 1

    def link_ends(self, switch, port):
        """Both ends, (switch, port) and (switch, port), of the link on `port` of `switch`."""
        for a, pa, b, pb in self.links:
            if (switch, port) in ((a, pa), (b, pb)):
                return (a, pa), (b, pb)
        raise KeyError(f"no link on {switch} port {port}")


def linear(n, dpid_base=0):
    """Mininet's `linear,n`: s1 - s2 - ... - sn, host hi on port 1 of si."""
    switches = [f"s{i}" for i in range(1, n + 1)]
    hosts = [Host(f"h{i}", i, f"s{i}", 1) for i in range(1, n + 1)]
    # si: port 1 host, port 2 link to the left neighbour (s1: to the right), port 3 link to the right.
    links = [(f"s{i}", 2 if i == 1 else 3, f"s{i + 1}", 2) for i in range(1, n)]
    return TopologySpec(f"linear,{n}", switches, hosts, links, dpid_base)


def ring(n, dpid_base=0):
    """A loop: s1 - s2 - ... - sn - s1, host hi on port 1 of si, port 2 to the left neighbour, port 3 to the right."""
    switches = [f"s{i}" for i in range(1, n + 1)]
    hosts = [Host(f"h{i}", i, f"s{i}", 1) for i in range(1, n + 1)]
    links = [(f"s{i}", 3, f"s{i % n + 1}", 2) for i in range(1, n + 1)]
    return TopologySpec(f"ring,{n}", switches, hosts, links, dpid_base)


def tree(depth, fanout, dpid_base=0):
    """Mininet's `tree,depth,fanout`: a full tree of switches, fanout hosts below each leaf switch."""
    switches, hosts, links = [], [], []

    def add(level):
        switches.append(f"s{len(switches) + 1}")
        me = switches[-1]
        for port in range(1, fanout + 1):
            if level == depth:
                hosts.append(Host(f"h{len(hosts) + 1}", len(hosts) + 1, me, port))
            else:
                child = add(level + 1)
                links.append((me, port, child, fanout + 1))
        return me

    add(1)
    return TopologySpec(f"tree,{depth},{fanout}", switches, hosts, links, dpid_base)


def fattree(k, dpid_base=0):
    """A k-ary fat tree (Al-Fares et al.): (k/2)^2 core switches, k pods of k/2 aggregation and k/2 edge switches,
    k/2 hosts on each edge switch; k=4: 20 switches, 16 hosts, 32 links.

    Ports: an edge switch has its hosts on 1..k/2 and aggregation switch j of its pod on k/2+1+j; an aggregation
    switch has edge switch j of its pod on 1+j and core switch i on k/2+1+i of its group; core switch c has pod p on
    port 1+p. Datapath ids say where a switch is: dpid_base + 0x100 * layer (1 core, 2 aggregation, 3 edge) + 0x10 * pod
    + index, e.g. 0x312 is edge switch 2 of pod 1 (names: c1..c4, a1..a8, e1..e8, hosts h1..h16 edge by edge).
    """
    half = k // 2
    core = [f"c{i + 1}" for i in range(half * half)]
    agg = [[f"a{p * half + j + 1}" for j in range(half)] for p in range(k)]
    edge = [[f"e{p * half + j + 1}" for j in range(half)] for p in range(k)]
    dpids = {c: dpid_base + 0x100 + i + 1 for i, c in enumerate(core)}
    for p in range(k):
        for j in range(half):
            dpids[agg[p][j]] = dpid_base + 0x200 + 0x10 * p + j + 1
            dpids[edge[p][j]] = dpid_base + 0x300 + 0x10 * p + j + 1
    switches = core + [s for pod in agg for s in pod] + [s for pod in edge for s in pod]
    hosts, links = [], []
    for p in range(k):
        for j, e in enumerate(edge[p]):
            for port in range(1, half + 1):
                hosts.append(Host(f"h{len(hosts) + 1}", len(hosts) + 1, e, port))
            links += [(e, half + 1 + a, agg[p][a], 1 + j) for a in range(half)]
        for a, sw in enumerate(agg[p]):
            links += [(sw, half + 1 + i, core[a * half + i], 1 + p) for i in range(half)]
    return TopologySpec(f"fattree,{k}", switches, hosts, links, dpid_base, dpids)


@dataclass
class Network:
    """A built topology: bridges in the private OVS, hosts in their own network namespaces."""
    ovs: PrivateOvs
    spec: TopologySpec
    controller_target: str
    tag: str = field(default_factory=name_tag)
    dirty: bool = False  # changed by a test that has not put it back yet
    bridges: dict = field(default_factory=dict)
    _veths: list = field(default_factory=list)
    _netns: list = field(default_factory=list)

    def bridge_of(self, switch):
        return self.bridges[switch]

    def build(self):
        """Bridges, hosts and cables; each bridge pointed at the controller, unless `controller_target` is None
        (then `connect` does it later)."""
        vsctl = []
        for i, sw in enumerate(self.spec.switches, 1):
            br = f"{self.tag}{sw}"
            self.bridges[sw] = br
            vsctl += ["--", "add-br", br,
                      "--", "set", "Bridge", br, "datapath_type=netdev", "protocols=OpenFlow10", "fail_mode=secure",
                      "other_config:disable-in-band=true",
                      f"other_config:datapath-id={self.spec.dpid(sw):016x}"]
            if self.controller_target:
                vsctl += self._controller_args(br, i)
        for h in self.spec.hosts:
            vsctl += self._add_host(h)
        for a, pa, b, pb in self.spec.links:
            ia, ib = f"{self.tag}{a}p{pa}", f"{self.tag}{b}p{pb}"
            run(["ip", "link", "add", "name", ia, "type", "veth", "peer", "name", ib])
            self._veths.append(ia)
            for ifname, sw, port in ((ia, a, pa), (ib, b, pb)):
                self._quiet_and_up(ifname)
                vsctl += ["--", "add-port", self.bridges[sw], ifname,
                          "--", "set", "Interface", ifname, f"ofport_request={port}"]
        self.ovs.vsctl(*vsctl)

    def _controller_args(self, br, i):
        return ["--", f"--id=@c{i}", "create", "Controller", f"target=\"{self.controller_target}\"",
                "max_backoff=1000", "connection_mode=out-of-band", "--", "set", "Bridge", br, f"controller=@c{i}"]

    def connect(self, target, switches=None):
        """Points the bridges of `switches` (default: all) at `target`, in one transaction."""
        self.controller_target = target
        vsctl = []
        for i, sw in enumerate(switches or self.spec.switches, 1):
            vsctl += self._controller_args(self.bridges[sw], i)
        self.ovs.vsctl(*vsctl)

    def disconnect(self, switch):
        """Takes the controller away from one bridge; with fail_mode=secure it keeps its flows and adds none."""
        self.ovs.vsctl("del-controller", self.bridges[switch])

    def fast_arp(self):
        """Hosts retry an unanswered ARP every 100 ms rather than every second, so that the time until a host is
        reached measures the network, not the host's ARP timer."""
        for h in self.spec.hosts:
            self.exec(h, "sysctl", "-q", "-w", "net.ipv4.neigh.eth0.retrans_time_ms=100")

    def _add_host(self, h):
        h.netns, h.ip, h.mac = f"{self.tag}{h.name}", f"10.0.0.{h.index}", f"00:00:00:00:00:{h.index:02x}"
        outer, inner = f"{self.tag}{h.name}e", f"{self.tag}{h.switch}p{h.port}"
        h.ifname = inner
        run(["ip", "netns", "add", h.netns])
        self._netns.append(h.netns)
        run(["ip", "link", "add", "name", outer, "type", "veth", "peer", "name", inner])
        self._veths.append(inner)
        run(["ip", "link", "set", outer, "netns", h.netns])
        ns = ["ip", "-n", h.netns]
        # No IPv6: its router solicitations and DAD would add unrelated PACKET_INs to every check.
        self.exec(h, "sysctl", "-q", "-w", "net.ipv6.conf.all.disable_ipv6=1")
        self.exec(h, "sysctl", "-q", "-w", "net.ipv6.conf.default.disable_ipv6=1")
        run(ns + ["link", "set", outer, "name", "eth0"])
        run(ns + ["link", "set", "eth0", "address", h.mac])
        run(ns + ["addr", "add", f"{h.ip}/24", "dev", "eth0"])
        run(ns + ["link", "set", "lo", "up"])
        run(ns + ["link", "set", "eth0", "up"])
        # The userspace datapath forwards frames as the host's kernel left them: with TX checksum offload the TCP
        # checksum is never filled in and the receiver drops every segment.
        self.exec(h, "ethtool", "-K", "eth0", "tx", "off")
        self._quiet_and_up(inner)
        return ["--", "add-port", self.bridges[h.switch], inner,
                "--", "set", "Interface", inner, f"ofport_request={h.port}"]

    @staticmethod
    def _quiet_and_up(ifname):
        with open(f"/proc/sys/net/ipv6/conf/{ifname}/disable_ipv6", "w") as f:
            f.write("1")
        run(["ip", "link", "set", ifname, "up"])

    def set_link(self, a, pa, up):
        """Takes both veth ends of the link on port `pa` of switch `a` down (their carrier goes: OVS reports
        PORT_STATUS with link down on both ports) or up again."""
        for sw, port in self.spec.link_ends(a, pa):
            run(["ip", "link", "set", f"{self.tag}{sw}p{port}", "up" if up else "down"])

    def move_host(self, h, switch, port):
        """Unplugs the host (its eth0 goes down), moves the switch end of its veth pair to `port` of `switch` and
        plugs it in again; same MAC and IP (its ARP cache is gone, as after any unplugging)."""
        self.exec(h, "ip", "link", "set", "eth0", "down")
        self.ovs.vsctl("del-port", self.bridges[h.switch], h.ifname,
                       "--", "add-port", self.bridges[switch], h.ifname,
                       "--", "set", "Interface", h.ifname, f"ofport_request={port}")
        h.switch, h.port = switch, port
        self.exec(h, "ip", "link", "set", "eth0", "up")

    def exec(self, host, *cmd, check=True, timeout=30, stdin=None):
        return run(["ip", "netns", "exec", host.netns, *cmd], check=check, timeout=timeout, stdin=stdin)

    def popen(self, host, *cmd, **kwargs):
        return subprocess.Popen(["ip", "netns", "exec", host.netns, *cmd], **kwargs)

    def wait_connected(self, timeout=30):
        """Waits until every bridge's controller shows is_connected: true."""
        n = len(self.spec.switches)
        wait_until(lambda: (s := self.ovs.controller_states()) and len(s) == n and all(s),
                   timeout, f"all {n} switches connected to the controller", interval=0.1)

    def all_connected(self):
        states = self.ovs.controller_states()
        return len(states) == len(self.spec.switches) and all(states)

    def del_flows(self):
        for br in self.bridges.values():
            self.ovs.ofctl("del-flows", br)

    def dump_flows(self):
        return "".join(f"--- {br}\n{self.ovs.ofctl('dump-flows', br, check=False).stdout}"
                       for br in self.bridges.values())

    def port_packets(self):
        """{(bridge, port): rx + tx packets} of every switch port, from `ovs-ofctl dump-ports`."""
        counts = {}
        for br in self.bridges.values():
            out = self.ovs.ofctl("dump-ports", br).stdout
            port = None
            for line in out.splitlines():
                line = line.strip()
                if line.startswith("port"):
                    port = line.split(":")[0].split()[-1]
                    rx = int(line.split("pkts=")[1].split(",")[0]) if "pkts=" in line else 0
                    counts[(br, port)] = rx
                elif line.startswith("tx") and port is not None and "pkts=" in line:
                    counts[(br, port)] += int(line.split("pkts=")[1].split(",")[0])
        return counts

    def quiet_ports(self, quiet=5.0, liveness=1.0, interval=5.0):
        """Sleeps `quiet` seconds and returns the most any port's rx + tx counters grew meanwhile; raises if that is
        more than LLDP alone moves them: a probe out and one in per link port every `liveness` seconds, per other
        port every probe `interval` (a broadcast going round a loop adds thousands a second)."""
        bound = 2 * (quiet / liveness + quiet / interval + 2)
        before = self.port_packets()
        time.sleep(quiet)
        grown = {k: v - before.get(k, 0) for k, v in self.port_packets().items()}
        worst = max(grown.values())
        if worst > bound:
            raise AssertionError(f"port counters grew in a quiet {quiet:.0f} s beyond LLDP's {bound:.0f} packets (a"
                                 f" broadcast storm?): {sorted(grown.items(), key=lambda kv: -kv[1])[:4]}")
        return worst

    def ping(self, src, dst, count=1, wait=1):
        """True when src gets at least one echo reply from dst."""
        return self.exec(src, "ping", "-n", "-q", "-c", str(count), "-i", "0.2", "-W", str(wait), dst.ip,
                         check=False, timeout=count + wait + 5).returncode == 0

    def ping_retry(self, src, dst, tries=3):
        """A ping that may lose its first attempts to ARP and flow setup, bounded by `tries` attempts."""
        return any(self.ping(src, dst) for _ in range(tries))

    def teardown(self):
        if self.bridges:
            args = []
            for br in self.bridges.values():
                args += ["--", "--if-exists", "del-br", br]
            self.ovs.vsctl(*args, check=False)
            self.bridges.clear()
        for veth in self._veths:
            run(["ip", "link", "del", veth], check=False)
        for ns in self._netns:
            run(["ip", "netns", "del", ns], check=False)
        self._veths.clear()
        self._netns.clear()
