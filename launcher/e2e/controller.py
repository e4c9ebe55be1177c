"""The controller under test: a shell command run by the harness, its stdin kept as a console.

Beacon's product runs the OSGi (Gogo) console on stdin/stdout, prompting with `osgi> `. The harness types commands
into it and reads the text that comes back before the next prompt.
"""

import os
import re
import shutil
import signal
import subprocess
import threading
import time

from ovsenv import run, wait_until

def product_copy(product, dest):
    """A copy of the product as shipped: without what earlier runs left in its configuration area (the firewall's, the
    ACL's and the static flow pusher's state files, logs, the framework's cache). A test that changes that state
    (rest_fuzz enables the firewall) runs on a copy; one that starts from a copy sees none of it (a firewall left
    enabled would deny every packet)."""
    def run_state(directory, names):
        if os.path.basename(directory) != "configuration":
            return []
        return [n for n in names if n.endswith((".txt", ".log")) or n == "org.eclipse.osgi"]
    shutil.copytree(product, dest, symlinks=True, ignore=run_state)
    return dest


PROMPT = "osgi>"
SS_LINE = re.compile(r"^\s*(\d+)\s+([A-Z<>]+)\s+(\S+?)_(\d\S*)\s*$")
BUNDLE_ID = re.compile(r"Bundle id is (\d+)")


class ControllerProcess:
    def __init__(self, command, port, log_path, env=None, netns=None):
        self.cmdline = command
        self.netns = netns
        self.env = env
        self.port = port
        self.log_path = log_path
        self._proc = None
        self._out = []
        self._len = 0
        self._lock = threading.Lock()

    def start(self):
        # Appends: a restarted controller's log follows its earlier runs', which a failure often needs.
        self._log = open(self.log_path, "ab")
        self._log.write(f"==== started {time.strftime('%H:%M:%S')}: {self.cmdline}\n".encode())
        # A new session gives the controller (and whatever its command line forks) a process group of its own,
        # so stop() ends exactly those processes.
        self._proc = subprocess.Popen(self.cmdline, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, start_new_session=True, env=self.env)
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        fd = self._proc.stdout.fileno()
        while chunk := os.read(fd, 65536):
            self._log.write(chunk)
            self._log.flush()
            with self._lock:
                self._out.append(chunk.decode(errors="replace"))
                self._len += len(self._out[-1])

    def output(self, start=0):
        with self._lock:
            text = "".join(self._out)
        return text[start:]

    def pid(self):
        """The controller's process id (the JVM's: Beacon's launcher script execs java)."""
        return self._proc.pid

    def alive(self):
        return self._proc is not None and self._proc.poll() is None

    def wait_listening(self, timeout=60):
        """Waits until the controller accepts TCP connections on its port (in its network namespace, if it has one)."""
        # Asks the kernel rather than connecting: a probe connection would show up as a broken switch.
        ss = ["ss", "-Hltn", f"sport = :{self.port}"]
        if self.netns:
            ss = ["ip", "netns", "exec", self.netns, *ss]

        def listening():
            if not self.alive():
                raise RuntimeError(f"controller exited with {self._proc.returncode} before listening")
            return run(ss).stdout.strip()
        wait_until(listening, timeout, f"controller listening on port {self.port}", interval=0.2)

    def wait_prompt(self, timeout=60, since=0):
        """Waits for a prompt in the output from `since` on (a restarted controller's output follows the old one's)."""
        wait_until(lambda: PROMPT in self.output(since), timeout, "the first console prompt", interval=0.1)

    def console(self, command, timeout=30):
        """Types one console command and returns what was printed before the next prompt."""
        with self._lock:
            mark = self._len
        self._proc.stdin.write((command + "\n").encode())
        self._proc.stdin.flush()

        def answered():
            if not self.alive():
                raise RuntimeError(f"controller exited while running '{command}'")
            text = self.output(mark)
            # A one-element tuple stays truthy for wait_until even when the answer is empty.
            return (text[:text.index(PROMPT)],) if PROMPT in text else None
        try:
            return wait_until(answered, timeout, f"console answer to '{command}'", interval=0.05)[0]
        except TimeoutError:
            self.dump_threads()
            # Seen after `stop` of the cluster bundle, about one run in four: the command had finished (no thread of
            # it left, the shell reading its input) but no prompt came. An empty line brings one if the shell is
            # waiting; a command still running still fails.
            self._proc.stdin.write(b"\n")
            self._proc.stdin.flush()
            text = wait_until(answered, 5, f"console answer to '{command}' after an empty line", interval=0.05)[0]
            print(f"  (console: no prompt after '{command}' until an empty line; threads in {self.log_path})",
                  flush=True)
            return text

    def dump_threads(self):
        """The JVM's threads into its log (the launcher script execs java, so the process is the JVM): what a command
        that never answered is waiting for."""
        if not self.alive():
            return
        try:
            out = run(["jcmd", str(self._proc.pid), "Thread.print"], check=False, timeout=30)
            text = out.stdout + out.stderr
        except (OSError, subprocess.TimeoutExpired) as e:  # no JDK tools here, or a JVM that does not answer
            text = f"jcmd: {e}\n"
        self._log.write(f"==== threads at {time.strftime('%H:%M:%S')}\n{text}".encode())
        self._log.flush()

    def command(self, command, timeout=30):
        """A console command that must not fail: Gogo reports failures on lines starting with `gogo: `."""
        out = self.console(command, timeout)
        if errors := [line for line in out.splitlines() if line.startswith("gogo: ")]:
            raise RuntimeError(f"'{command}' failed: {' '.join(errors)}")
        return out

    def bundles(self):
        """`ss` as {symbolic name: (id, state)}."""
        found = {}
        for line in self.console("ss").splitlines():
            if m := SS_LINE.match(line):
                found[m.group(3)] = (int(m.group(1)), m.group(2))
        return found

    def wait_bundle_state(self, symbolic_name, state, timeout=30):
        """Polls `ss` until the bundle is in `state` (None: no longer listed); returns its id."""
        def reached():
            entry = self.bundles().get(symbolic_name)
            if state is None:
                return entry is None and (-1,)
            return entry is not None and entry[1] == state and (entry[0],)
        return wait_until(reached, timeout, f"{symbolic_name} {state or 'gone'}", interval=0.3)[0]

    def install(self, url, symbolic_name):
        """Installs a bundle and returns its id (from `Bundle id is N`, else from `ss`)."""
        out = self.command(f"install {url}")
        if m := BUNDLE_ID.search(out):
            return int(m.group(1))
        return self.wait_bundle_state(symbolic_name, "INSTALLED")

    def stop(self):
        if self._proc is None:
            return
        try:
            self._proc.stdin.close()
        except OSError:
            pass
        self._signal_group(signal.SIGTERM)
        try:
            self._proc.wait(10)
        except subprocess.TimeoutExpired:
            self._signal_group(signal.SIGKILL)
            self._proc.wait()
        self._proc = None

    def kill(self):
        """kill -9 of the controller's process group: a crash, nothing shut down."""
        if self._proc is None:
            return
        self._signal_group(signal.SIGKILL)
        self._proc.wait()
        self._proc = None

    def _signal_group(self, sig):
        try:
            os.killpg(self._proc.pid, sig)
        except ProcessLookupError:
            pass
