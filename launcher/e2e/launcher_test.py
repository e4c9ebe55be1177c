#!/usr/bin/env python3
"""The product as a user starts it: console, bundles, `beacon:` commands, settings errors, shutdown.

Runs the built `beacon` script (no root, no Open vSwitch needed), each check with its own Beacon on a free
loopback port, and ends with `N passed, N failed`.
"""

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from controller import ControllerProcess  # noqa: E402
from ovsenv import wait_until  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
DEFAULT_PRODUCT = REPO / "launcher/target/products/net.beaconcontroller.product/linux/gtk/x86_64/beacon"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Beacon(ControllerProcess):
    """The product's start script on its own port, as a context manager that starts and stops it. With
    `settings` (the text of a beacon.properties), Beacon reads that file instead of the product's."""

    def __init__(self, product, workdir, name, settings=None):
        port = free_port()
        self.web_port = free_port()
        env = dict(os.environ, JAVA_OPTS=f"-Dcontroller.listenPort={port} -Dcontroller.legacyListenPort=-1"
                   " -Dcontroller.listenAddress=127.0.0.1"
                   f" -Dweb.port={self.web_port}")
        args = ""
        if settings is not None:
            self.settings_file = Path(workdir) / f"{name}.properties"
            self.settings_file.write_text(settings)
            args = f"--config '{self.settings_file}'"
        super().__init__(f"cd '{product}' && exec ./beacon -clean {args}", port, Path(workdir) / f"{name}.log", env)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def wait_exit(self, timeout):
        try:
            return self._proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None


def check_console(product, workdir):
    """`ss`: every bundle ACTIVE; `switches`; stop/start the learning switch by name."""
    with Beacon(product, workdir, "console") as b:
        b.wait_listening()
        b.wait_prompt()
        # Applications start at level 5, after the core opened its port; then every bundle is ACTIVE but the
        # learning switch (installed, not started: it is the alternative to routing, and the learning-switch
        # configuration starts it) and the fragment of Jetty's server (resolved with its host; fragments never start).
        b.wait_bundle_state("net.beaconcontroller.routing", "ACTIVE")
        resolved = {"net.beaconcontroller.learningswitch", "net.beaconcontroller.web.jetty"}

        def inactive():
            return {n: s for n, (_, s) in b.bundles().items()
                    if s != "ACTIVE" and not (n in resolved and s == "RESOLVED")}
        try:
            wait_until(lambda: not inactive(), 20, "every bundle ACTIVE", interval=0.5)
        except TimeoutError as e:
            raise AssertionError(f"bundles not ACTIVE: {inactive()}") from e
        bundles = b.bundles()
        expected = {"net.beaconcontroller.core", "net.beaconcontroller.openflow", "net.beaconcontroller.packet",
                    "net.beaconcontroller.util", "net.beaconcontroller.routing", "org.apache.felix.scr",
                    "net.beaconcontroller.web", "net.beaconcontroller.web.jetty", "net.beaconcontroller.core.web"}
        missing = expected - bundles.keys()
        if missing:
            raise AssertionError(f"ss lacks {sorted(missing)}")
        table = b.command("switches")
        if "DPID" not in table or "0 switch(es)" not in table:
            raise AssertionError(f"unexpected 'switches' output: {table!r}")
        b.command("stop net.beaconcontroller.routing")
        b.wait_bundle_state("net.beaconcontroller.routing", "RESOLVED")
        b.command("start net.beaconcontroller.routing")
        b.wait_bundle_state("net.beaconcontroller.routing", "ACTIVE")
        web = f"http://127.0.0.1:{b.web_port}/wm/core/health/json"

        def healthy():
            # The web bundle is ACTIVE before its server listens: Jetty starts off the framework's thread.
            try:
                with urllib.request.urlopen(web, timeout=5) as r:
                    return json.loads(r.read()) == {"healthy": True}
            except OSError:
                return False
        try:
            wait_until(healthy, 20, "REST health", interval=0.25)
        except TimeoutError as e:
            raise AssertionError(f"{web} did not answer healthy within 20 s") from e
        return f"{len(bundles)} bundles ACTIVE, switches table, stop/start by name, REST answers"


def check_sigterm(product, workdir):
    """SIGTERM stops the framework in order (controller stopped) and the process exits within 5 s."""
    with Beacon(product, workdir, "sigterm") as b:
        b.wait_listening()
        b.wait_prompt()
        started = time.monotonic()
        b._signal_group(signal.SIGTERM)
        code = b.wait_exit(5)
        took = time.monotonic() - started
        if code is None:
            raise AssertionError("still running 5 s after SIGTERM")
        out = b.output()
        if "controller stopped" not in out:
            raise AssertionError("the framework was not stopped: no 'controller stopped' in the log")
        if "Exception" in out:
            raise AssertionError("stack trace during shutdown:\n" + out[-2000:])
        return f"exited in {took:.1f} s, framework stopped cleanly"


def check_bad_setting(product, workdir):
    """A malformed or out-of-range value stops start-up quickly with exactly one line naming key, value and what is
    allowed, and exit code 2."""
    details = []
    for key, value, allowed in (("controller.threadCount", "zero", "an integer from 1 to 256"),
                                ("controller.threadCount", "0", "an integer from 1 to 256"),
                                ("controller.foreignFlows", "MAYBE", "one of KEEP, REPORT, DELETE"),
                                # Refused by the web server, whose users then fail too: the line names the setting.
                                ("web.listenAddress", "0.0.0.0", None)):
        with Beacon(product, workdir, f"bad-{value}", settings=f"{key}={value}\n") as b:
            started = time.monotonic()
            code = b.wait_exit(30)
            if code != 2:
                raise AssertionError(f"{key}={value}: exit code {code}, expected 2")
            line = f"{key} = '{value}' is not allowed: expected {allowed}" if allowed else \
                "web.keystore = '' is not allowed: expected a value because web.listenAddress = 0.0.0.0 is not a" \
                " loopback address"
            if f"beacon: {b.settings_file}: {line}" not in b.output():
                raise AssertionError("the one-line error is missing:\n" + b.output()[-2000:])
            # stderr and the console share the output, so the line may not start a line of it: count occurrences.
            if b.output().count("beacon: ") != 1:
                raise AssertionError("expected exactly one 'beacon: ' line:\n" + b.output()[-2000:])
            details.append(f"{key}='{value}' exit 2 in {time.monotonic() - started:.1f} s")
    return ", ".join(details)


def check_unknown_key(product, workdir):
    """An unknown key is a warning with a suggestion; Beacon still starts."""
    with Beacon(product, workdir, "typo", settings="controller.threadcount=2\n") as b:
        b.wait_listening()
        wait_until(lambda: "did you mean controller.threadCount?" in b.output(), 10, "the typo warning")
        return "warned with a suggestion, started"


def check_config_list(product, workdir):
    """`beacon:config` lists every bundle's settings with value, default and source."""
    with Beacon(product, workdir, "config-list", settings="routing.idleTimeout=9\n") as b:
        b.wait_listening()
        b.wait_prompt()
        b.wait_bundle_state("net.beaconcontroller.routing", "ACTIVE")
        table = b.command("beacon:config")
        rows = {line.split()[0]: line.split() for line in table.splitlines() if line.strip()}
        for key in ("routing.idleTimeout", "controller.threadCount", "controller.listenPort"):
            if key not in rows:
                raise AssertionError(f"beacon:config does not list {key}:\n{table}")
        if rows["routing.idleTimeout"][1:] != ["9", "5", "config-list.properties:1"]:
            raise AssertionError(f"routing.idleTimeout row: {rows['routing.idleTimeout']}")
        if rows["controller.listenPort"][-1] != "-D":
            raise AssertionError(f"controller.listenPort (given with -D) row: {rows['controller.listenPort']}")
        return f"{len(rows) - 2} settings listed, file and -D sources shown"


def check_config_set(product, workdir):
    """`beacon:config set` applies a valid value at once, refuses a bad one without changing anything, and with
    --save writes the file, keeping its comments."""
    settings = "# my comment\n#routing.idleTimeout=5\n"
    with Beacon(product, workdir, "config-set", settings=settings) as b:
        b.wait_listening()
        b.wait_prompt()
        b.wait_bundle_state("net.beaconcontroller.routing", "ACTIVE")
        out = b.command("beacon:config set routing.idleTimeout 7")
        if "routing.idleTimeout = 7: applied" not in out:
            raise AssertionError(f"set was not applied: {out!r}")
        before = b.command("beacon:config get controller.threadCount")
        out = b.command("beacon:config set controller.threadCount abc")
        line = "console: controller.threadCount = 'abc' is not allowed: expected an integer from 1 to 256"
        if line not in out:
            raise AssertionError(f"a bad value was not refused with the one line: {out!r}")
        after = b.command("beacon:config get controller.threadCount")
        if before != after:
            raise AssertionError(f"a refused value changed the setting: {before!r} -> {after!r}")
        out = b.command("beacon:config set routing.idleTimeout 8 --save")
        if "applied" not in out or "saved to" not in out:
            raise AssertionError(f"set --save: {out!r}")
        if b.settings_file.read_text() != "# my comment\nrouting.idleTimeout=8\n":
            raise AssertionError(f"--save wrote {b.settings_file.read_text()!r}")
        return "applied, refused 'abc' with nothing changed, --save kept the comment"


def check_runtime_bundle(product, workdir):
    """A bundle installed at runtime reads its keys from the file; a bad value keeps only it from starting."""
    hub = next((REPO / "bundles/net.beaconcontroller.hub/target").glob("net.beaconcontroller.hub-*.jar"), None)
    if hub is None:
        raise AssertionError("no hub jar: build the repository first")
    with Beacon(product, workdir, "runtime", settings="hub.output=flood\n") as b:
        b.wait_listening()
        b.wait_prompt()
        b.wait_bundle_state("net.beaconcontroller.routing", "ACTIVE")
        b.command("stop net.beaconcontroller.routing")
        bid = b.install(f"file:{hub}", "net.beaconcontroller.hub")
        mark = len(b.output())
        b.command(f"start {bid}")
        line = f"beacon: {b.settings_file}: hub.output = 'flood' is not allowed: expected one of FLOOD, ALL"
        wait_until(lambda: line in b.output(mark), 15, "the hub's bad value reported")
        if not b.alive():
            raise AssertionError("Beacon stopped because of an installed bundle's bad value")
        b.wait_listening()
        out = b.command("beacon:config set hub.output ALL")
        if "hub.output = ALL: applied" not in out:
            raise AssertionError(f"the corrected value was not applied: {out!r}")
        return "bad value reported, Beacon kept running, corrected from the console"


def check_close(product, workdir):
    """`close` on the console stops the framework and ends the process."""
    with Beacon(product, workdir, "close") as b:
        b.wait_listening()
        b.wait_prompt()
        b._proc.stdin.write(b"close\ny\n")
        b._proc.stdin.flush()
        code = b.wait_exit(10)
        if code is None:
            raise AssertionError("still running 10 s after close")
        if "controller stopped" not in b.output():
            raise AssertionError("the framework was not stopped: no 'controller stopped' in the log")
        return f"exited with {code}"


CHECKS = [check_console, check_sigterm, check_bad_setting, check_unknown_key, check_config_list, check_config_set,
          check_runtime_bundle, check_close]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--product", type=Path, default=DEFAULT_PRODUCT)
    args = parser.parse_args()
    if not (args.product / "beacon").exists():
        sys.exit(f"no product at {args.product}: run ./mvnw -B package -DskipTests first")
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="beacon-launcher-") as workdir:
        for check in CHECKS:
            name = check.__name__.removeprefix("check_")
            t0 = time.monotonic()
            try:
                detail = check(args.product, workdir)
                print(f"PASS launcher_{name} ({time.monotonic() - t0:.1f}s): {detail}", flush=True)
                passed += 1
            except Exception as e:  # noqa: BLE001 - every failure is reported the same way
                print(f"FAIL launcher_{name} ({time.monotonic() - t0:.1f}s): {e}", flush=True)
                failed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
