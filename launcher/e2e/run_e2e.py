#!/usr/bin/env python3
"""End-to-end tests of an OpenFlow 1.0 controller against a private Open vSwitch (see README.md).

Prints one line per test, then `N passed, N failed` (`, N skipped` when some were skipped); exits non-zero on any
failure. Runs itself inside private network/mount/PID namespaces; needs root.
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

import ovsenv
from controller import ControllerProcess

TESTS = ("linear4_pingall", "tcp_transfer", "modularity", "tree22_pingall", "ring4_pingall")
# Against a learning switch a loop is a broadcast storm: ring4 runs only with the network apps (--network-apps).
DEFAULT_TESTS = ("linear4_pingall", "tcp_transfer", "modularity", "tree22_pingall")
NETWORK_APP_TESTS = ("ring4_pingall", "linear4_pingall", "tcp_transfer", "tree22_pingall")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--controller-cmd", default="ovs-testcontroller ptcp:6633:127.0.0.1",
                   help="shell command starting the controller; it must listen on 127.0.0.1:PORT "
                        "(default: %(default)s)")
    p.add_argument("--port", type=int, default=6633, help="controller port (default: %(default)s)")
    p.add_argument("--beacon", action="store_true",
                   help="the controller is Beacon: wait for its osgi> console and run the modularity test")
    p.add_argument("--learningswitch-jar", type=Path, help="learning switch bundle jar (modularity test: update)")
    p.add_argument("--hub-jar", type=Path, help="hub bundle jar (modularity test: install)")
    p.add_argument("--learningswitch-bsn", default="net.beaconcontroller.learningswitch")
    p.add_argument("--hub-bsn", default="net.beaconcontroller.hub")
    p.add_argument("--core-bsn", default="net.beaconcontroller.core")
    p.add_argument("--util-bsn", default="net.beaconcontroller.util")
    p.add_argument("--settings", type=Path,
                   help="Beacon's beacon.properties: the harness runs Beacon with a copy (--config) to which the "
                        "modularity test adds keys")
    p.add_argument("--network-apps", action="store_true",
                   help="Beacon runs the network apps (topology, device manager, routing): wait for LLDP discovery to "
                        "settle on every new topology; default tests: " + ", ".join(NETWORK_APP_TESTS))
    p.add_argument("--tests", help="comma-separated subset of: " + ", ".join(TESTS))
    p.add_argument("--transfer-mb", type=int, default=10, help="size of the TCP transfer (default: %(default)s)")
    p.add_argument("--startup-timeout", type=float, default=90, help="seconds for the controller to come up")
    p.add_argument("--keep", action="store_true", help="keep the work directory (logs, OVS db) even on success")
    args = p.parse_args(argv)
    if args.tests is None:
        args.tests = ",".join(NETWORK_APP_TESTS if args.network_apps else DEFAULT_TESTS)
    args.tests = [t.strip() for t in args.tests.split(",") if t.strip()]
    if "ring4_pingall" in args.tests and not args.network_apps:
        p.error("ring4_pingall needs a loop-safe controller: --network-apps")
    unknown = set(args.tests) - set(TESTS)
    if unknown:
        p.error(f"unknown tests: {', '.join(sorted(unknown))}")
    if args.beacon and "modularity" in args.tests:
        for jar in (args.learningswitch_jar, args.hub_jar, args.settings):
            if jar is None or not jar.is_file():
                p.error("--beacon with the modularity test needs existing --learningswitch-jar, --hub-jar and "
                        "--settings")
    return args


class Context:
    """What the tests share: one private OVS, one controller process, the topology currently built."""

    def __init__(self, args, workdir):
        self.args = args
        self.workdir = workdir
        self.ovs = ovsenv.PrivateOvs(workdir)
        command = args.controller_cmd
        self.settings = None
        if args.beacon and args.settings is not None:
            # A copy the modularity test may edit: the keys of a bundle installed later are read from it then.
            self.settings = Path(workdir) / "beacon.properties"
            shutil.copyfile(args.settings, self.settings)
            command += f" --config '{self.settings}'"
        # The OVS directories go to the controller too: ovs-testcontroller puts its control socket in OVS_RUNDIR.
        self.controller = ControllerProcess(command, args.port, os.path.join(workdir, "controller.log"),
                                            env=self.ovs.env)
        self.net = None

    def start(self):
        self.ovs.start()
        self.controller.start()
        if self.args.beacon:
            self.controller.wait_prompt(self.args.startup_timeout)
        self.controller.wait_listening(self.args.startup_timeout)

    def network(self, spec):
        """The topology `spec`, built (replacing any other) and with every switch connected."""
        if self.net is not None and self.net.spec.name == spec.name:
            return self.net
        if self.net is not None:
            self.net.teardown()
            self.net = None
        self.net = ovsenv.Network(self.ovs, spec, f"tcp:127.0.0.1:{self.args.port}")
        self.net.build()
        self.net.wait_connected()
        if self.args.network_apps:
            wait_settled(self)
        return self.net

    def diagnostics(self):
        parts = []
        if self.net is not None:
            parts.append("== ovs-ofctl dump-flows\n" + self.net.dump_flows())
            parts.append("== ovs-vsctl list controller (target, is_connected, status)\n" + self.ovs.vsctl(
                "--columns=target,is_connected,status", "list", "controller", check=False).stdout)
        parts.append("== controller log (tail)\n" + ovsenv.tail(self.controller.log_path))
        parts.append("== ovs-vswitchd.log (tail)\n" + ovsenv.tail(self.ovs.vswitchd_log))
        return "\n".join(parts)

    def close(self):
        if self.net is not None:
            self.net.teardown()
        self.controller.stop()
        self.ovs.stop()


def pingall(net):
    """Every host pings every other host; a pair may retry (first ARP, flow setup) but must end up answered."""
    hosts = net.spec.hosts
    pairs = [(s, d) for s in hosts for d in hosts if s is not d]
    failed = [f"{s.name}->{d.name}" for s, d in pairs if not net.ping_retry(s, d, tries=3)]
    if failed:
        raise AssertionError(f"{len(failed)}/{len(pairs)} pairs unreachable: {' '.join(failed)}")
    return f"{len(pairs)} pairs, 0% loss"


def test_linear4_pingall(ctx):
    return pingall(ctx.network(ovsenv.linear(4)))


def test_tree22_pingall(ctx):
    return pingall(ctx.network(ovsenv.tree(2, 2, dpid_base=0x100)))


def wait_settled(ctx, timeout=60):
    """With Beacon's topology app: waits until discovery has settled (before that, nothing is flooded)."""
    ovsenv.wait_until(lambda: ", settled" in ctx.controller.console("beacon:links"), timeout,
                      "LLDP discovery settled (beacon:links)", interval=0.5)


def test_ring4_pingall(ctx):
    """A loop of 4 switches: every host reaches every other, and afterwards no broadcast circulates."""
    net = ctx.network(ovsenv.ring(4, dpid_base=0x200))
    result = pingall(net)
    # Quiet period: only the topology's LLDP probes (one per port per probe interval) may move the counters; a
    # broadcast going round the loop would add thousands of packets per second.
    quiet = 5.0
    before = net.port_packets()
    time.sleep(quiet)
    after = net.port_packets()
    grown = {k: after[k] - before.get(k, 0) for k in after}
    worst = max(grown.values())
    if worst > 10:
        raise AssertionError(f"port counters grew in a quiet {quiet:.0f} s (a broadcast storm?): "
                             f"{sorted(grown.items(), key=lambda kv: -kv[1])[:4]}")
    return f"{result}; quiet {quiet:.0f} s afterwards: at most {worst} packets on any port"


def test_tcp_transfer(ctx):
    net = ctx.network(ovsenv.linear(4))
    src, dst = net.spec.hosts[0], net.spec.hosts[-1]
    data_path, out_path = os.path.join(ctx.workdir, "tcp.bin"), os.path.join(ctx.workdir, "tcp.out")
    with open(data_path, "wb") as f:
        f.write(os.urandom(ctx.args.transfer_mb * 1024 * 1024))
    if not net.ping_retry(src, dst):
        raise AssertionError(f"{src.name} cannot reach {dst.name} before the transfer")
    port = 5001
    with open(out_path, "wb") as out:
        # -d: the receiver never reads its stdin, so it ends when the sender closes the connection.
        receiver = net.popen(dst, "nc.openbsd", "-d", "-l", str(port), stdin=subprocess.DEVNULL, stdout=out,
                             stderr=subprocess.STDOUT)
    try:
        ovsenv.wait_until(lambda: net.exec(dst, "ss", "-Hltn", f"sport = :{port}").stdout.strip(), 10,
                          f"nc listening on {dst.name}:{port}")
        start = time.monotonic()
        with open(data_path, "rb") as data:
            # -N: half-close after the file so the receiver sees EOF; -w bounds a stalled connection.
            net.exec(src, "nc.openbsd", "-N", "-w", "10", dst.ip, str(port), stdin=data, timeout=120)
        receiver.wait(30)
        elapsed = time.monotonic() - start
    finally:
        if receiver.poll() is None:
            receiver.kill()
            receiver.wait()
    sent, got = sha256(data_path), sha256(out_path)
    size = os.path.getsize(out_path)
    if sent != got:
        raise AssertionError(f"sha256 mismatch: sent {sent}, received {got} ({size} bytes)")
    return f"{size} bytes {src.name}->{dst.name}, sha256 ok, {size / elapsed / 1e6:.1f} MB/s"


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
    return h.hexdigest()


def java_threads(pid):
    """Names of the JVM's threads, without the JIT compiler threads HotSpot adds and removes as it likes."""
    names = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = (task / "comm").read_text().strip()
        except OSError:
            continue  # the thread ended while we looked
        if "CompilerThre" not in name:
            names.append(name)
    return sorted(names)


def test_modularity(ctx):
    """Beacon's runtime modularity: settings changed live, core and util updated, the learning switch stopped,
    started, updated and uninstalled, the hub installed with settings of its own (a good and a bad value)."""
    args, c = ctx.args, ctx.controller
    net = ctx.network(ovsenv.linear(4))
    h1, h2, h3, h4 = net.spec.hosts
    ls, hub = args.learningswitch_bsn, args.hub_bsn
    steps = []
    connects = [net.ovs.controller_connects()]

    def connected(phase):
        # is_connected is refreshed only every few seconds; a reconnection in between shows in the vswitchd log.
        if not net.all_connected() or net.ovs.controller_connects() != connects[0]:
            raise AssertionError(f"{phase}: switches lost their controller connection "
                                 f"(is_connected {net.ovs.controller_states()})")

    def reachable(phase, src, dst):
        # del-flows first: whatever answers the ping must be the controller as it is now, not flows of before.
        net.del_flows()
        connected(phase)
        if not net.ping_retry(src, dst, tries=5):
            raise AssertionError(f"{phase}: {src.name} cannot ping {dst.name}")
        steps.append(f"{phase} ok")

    def unreachable(phase, src, dst):
        net.del_flows()
        connected(phase)
        if net.ping(src, dst, count=2):
            raise AssertionError(f"{phase}: {src.name} pings {dst.name} although no app should forward")
        steps.append(f"{phase} ok")

    def setting(key):
        """The `beacon:config` line of one key: value, default, source."""
        for line in c.command("beacon:config").splitlines():
            if line.split()[:1] == [key]:
                return line
        raise AssertionError(f"beacon:config does not list {key}")

    # A setting changed live: the next flow the learning switch installs carries it.
    out = c.command("beacon:config set learningswitch.idleTimeout 7")
    if "applied" not in out:
        raise AssertionError(f"beacon:config set did not apply: {out.strip()}")
    reachable("config set", h1, h2)
    flows = net.dump_flows()
    if "idle_timeout=7" not in flows:
        raise AssertionError(f"after beacon:config set the flows do not carry idle_timeout=7:\n{flows}")
    out = c.console("beacon:config set learningswitch.idleTimeout seven")
    if "not allowed" not in out or "idleTimeout" not in setting("learningswitch.idleTimeout") \
            or " 7 " not in f" {setting('learningswitch.idleTimeout')} ":
        raise AssertionError(f"a bad value was not refused, or changed the setting: {out.strip()}")
    steps.append("bad config set refused")

    # Core and util updated in place (and refreshed, so their dependents rewire): the switches reconnect to the
    # new core, and no thread of the old bundles is left behind.
    pid = c._proc.pid
    threads_before = java_threads(pid)
    for bsn in (args.core_bsn, args.util_bsn):
        bid = c.wait_bundle_state(bsn, "ACTIVE")
        c.command(f"update {bid}")
        c.command(f"refresh {bid}")
        c.wait_bundle_state(bsn, "ACTIVE")
        c.wait_bundle_state(ls, "ACTIVE")
        # The connections belonged to the old core: every switch must come back, once.
        want = connects[0] + len(net.spec.switches)
        ovsenv.wait_until(lambda: net.ovs.controller_connects() >= want, 60,
                          f"every switch reconnected after updating {bsn}")
        net.wait_connected(30)  # is_connected in the database lags the reconnection by up to ~5 s
        connects[0] = net.ovs.controller_connects()
        reachable(f"update {bsn.rsplit('.', 1)[-1]}", h1, h4)
    try:
        ovsenv.wait_until(lambda: java_threads(pid) == threads_before, 15, "the same threads as before the updates")
    except TimeoutError:
        raise AssertionError(f"threads differ after updating core and util: before {threads_before}, "
                             f"after {java_threads(pid)}") from None
    steps.append(f"{len(threads_before)} threads before and after")

    ls_id = c.wait_bundle_state(ls, "ACTIVE")
    c.command(f"stop {ls_id}")
    c.wait_bundle_state(ls, "RESOLVED")
    unreachable("stop", h1, h4)

    c.command(f"start {ls_id}")
    c.wait_bundle_state(ls, "ACTIVE")
    reachable("start", h2, h4)

    c.command(f"update {ls_id} {args.learningswitch_jar.resolve().as_uri()}")
    c.wait_bundle_state(ls, "ACTIVE")
    reachable("update", h1, h3)

    c.command(f"uninstall {ls_id}")
    c.wait_bundle_state(ls, None)
    unreachable("uninstall", h3, h1)

    # The hub brings its own setting: a bad value in the file keeps only the hub from running...
    with open(ctx.settings, "a") as f:
        f.write("\nhub.output = BOGUS\n")
    mark = len(c.output())
    hub_id = c.install(args.hub_jar.resolve().as_uri(), hub)
    c.command(f"start {hub_id}")
    c.wait_bundle_state(hub, "ACTIVE")
    ovsenv.wait_until(lambda: "hub.output = 'BOGUS' is not allowed" in c.output(mark), 10,
                      "the one-line error for hub.output = BOGUS on the console")
    unreachable("hub with a bad setting", h4, h1)
    # ...and a good one, read from the file when the bundle arrives, lets it run.
    text = ctx.settings.read_text().replace("hub.output = BOGUS", "hub.output = ALL")
    ctx.settings.write_text(text)
    c.command(f"uninstall {hub_id}")
    c.wait_bundle_state(hub, None)
    hub_id = c.install(args.hub_jar.resolve().as_uri(), hub)
    c.command(f"start {hub_id}")
    c.wait_bundle_state(hub, "ACTIVE")
    if " ALL " not in f" {setting('hub.output')} ":
        raise AssertionError(f"hub.output from the file is not ALL: {setting('hub.output')}")
    reachable("hub", h4, h1)

    # Leave the controller as the other tests expect it: learning switch active, no hub.
    c.command(f"uninstall {hub_id}")
    c.wait_bundle_state(hub, None)
    c.command(f"start {c.install(args.learningswitch_jar.resolve().as_uri(), ls)}")
    c.wait_bundle_state(ls, "ACTIVE")
    reachable("restore", h3, h2)
    return ", ".join(steps)


def main():
    args = parse_args(sys.argv[1:])
    ovsenv.enter_private_namespaces([os.path.abspath(__file__), *sys.argv[1:]])
    workdir = tempfile.mkdtemp(prefix=f"{ovsenv.name_tag()}-e2e-")
    ctx = Context(args, workdir)
    passed = failed = skipped = 0
    try:
        t0 = time.monotonic()
        try:
            ctx.start()
            print(f"setup: private OVS + controller up in {time.monotonic() - t0:.1f}s (work dir {workdir})",
                  flush=True)
        except Exception as e:  # noqa: BLE001 - any setup failure is reported the same way
            print(f"FAIL setup: {e}", flush=True)
            print(ctx.diagnostics(), flush=True)
            failed += 1
            args.tests = []
        for name in args.tests:
            if name == "modularity" and not args.beacon:
                print(f"SKIP {name} (runs only against Beacon: --beacon)", flush=True)
                skipped += 1
                continue
            t = time.monotonic()
            try:
                detail = globals()[f"test_{name}"](ctx)
                print(f"PASS {name} ({time.monotonic() - t:.1f}s): {detail}", flush=True)
                passed += 1
            except Exception as e:  # noqa: BLE001 - a test's failure, whatever it is, is reported and counted
                print(f"FAIL {name} ({time.monotonic() - t:.1f}s): {e}", flush=True)
                if not isinstance(e, (AssertionError, TimeoutError, ovsenv.CommandError)):
                    traceback.print_exc(file=sys.stdout)
                print(ctx.diagnostics(), flush=True)
                failed += 1
        print(f"total {time.monotonic() - t0:.1f}s", flush=True)
    finally:
        ctx.close()
        if failed or args.keep:
            print(f"work dir kept: {workdir}", flush=True)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""), flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
