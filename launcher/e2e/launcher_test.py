#!/usr/bin/env python3
"""The product as a user starts it: console, bundles, `beacon:` commands, settings errors, shutdown.

Runs the built `beacon` script (no root, no Open vSwitch needed), each check with its own Beacon on a free
loopback port, and ends with `N passed, N failed`.
"""

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
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
        env = dict(os.environ, JAVA_OPTS=f"-Dcontroller.listenPort={port} -Dcontroller.listenAddress=127.0.0.1")
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
        # Applications start at level 5, after the core opened its port.
        b.wait_bundle_state("net.beaconcontroller.learningswitch", "ACTIVE")
        bundles = b.bundles()
        expected = {"net.beaconcontroller.core", "net.beaconcontroller.openflow", "net.beaconcontroller.packet",
                    "net.beaconcontroller.util", "net.beaconcontroller.learningswitch", "org.apache.felix.scr"}
        missing = expected - bundles.keys()
        if missing:
            raise AssertionError(f"ss lacks {sorted(missing)}")
        inactive = {n: s for n, (_, s) in bundles.items() if s != "ACTIVE"}
        if inactive:
            raise AssertionError(f"bundles not ACTIVE: {inactive}")
        table = b.command("switches")
        if "DPID" not in table or "0 switch(es)" not in table:
            raise AssertionError(f"unexpected 'switches' output: {table!r}")
        b.command("stop net.beaconcontroller.learningswitch")
        b.wait_bundle_state("net.beaconcontroller.learningswitch", "RESOLVED")
        b.command("start net.beaconcontroller.learningswitch")
        b.wait_bundle_state("net.beaconcontroller.learningswitch", "ACTIVE")
        return f"{len(bundles)} bundles ACTIVE, switches table, stop/start by name"


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
    """A malformed value stops start-up with one line naming key, value and what is allowed, and exit code 2."""
    with Beacon(product, workdir, "bad", settings="controller.threadCount=zero\n") as b:
        code = b.wait_exit(30)
        if code != 2:
            raise AssertionError(f"exit code {code}, expected 2")
        line = "controller.threadCount = 'zero' is not allowed: expected an integer from 1 to 256"
        if f"beacon: {b.settings_file}: {line}" not in b.output():
            raise AssertionError("the one-line error is missing:\n" + b.output()[-2000:])
        return "exit 2: " + line


def check_unknown_key(product, workdir):
    """An unknown key is a warning with a suggestion; Beacon still starts."""
    with Beacon(product, workdir, "typo", settings="controller.threadcount=2\n") as b:
        b.wait_listening()
        wait_until(lambda: "did you mean controller.threadCount?" in b.output(), 10, "the typo warning")
        return "warned with a suggestion, started"


CHECKS = [check_console, check_sigterm, check_bad_setting, check_unknown_key]


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
