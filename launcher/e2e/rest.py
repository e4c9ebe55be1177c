"""HTTP helpers for the REST tests: JSON requests against Beacon's web server and the Prometheus text format
parsed by the reference parser (prometheus_client), standard library otherwise."""

import json
import queue
import threading
import time
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families


class Rest:
    def __init__(self, base="http://127.0.0.1:8080"):
        self.base = base

    def call(self, method, path, body=None, headers=None, timeout=5):
        """(status, parsed JSON or text) for `method path`; `body` goes as JSON unless it is already bytes/str."""
        data = None
        hdrs = dict(headers or {})
        if body is not None:
            data = body.encode() if isinstance(body, str) else body if isinstance(body, bytes) else \
                json.dumps(body).encode()
            hdrs.setdefault("Content-Type", "application/json")
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=hdrs)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, self._parse(r)
        except urllib.error.HTTPError as e:
            return e.code, self._parse(e)

    @staticmethod
    def _parse(r):
        text = r.read().decode()
        kind = r.headers.get("Content-Type", "")
        return json.loads(text) if "json" in kind and text else text

    def get(self, path, expect=200):
        status, body = self.call("GET", path)
        if status != expect:
            raise AssertionError(f"GET {path}: HTTP {status} (want {expect}): {body}")
        return body

    def status(self, path):
        """The HTTP status of GET `path`, or None while nothing listens."""
        try:
            return self.call("GET", path, timeout=2)[0]
        except OSError:
            return None

    def up(self):
        return self.status("/wm/core/health/json") == 200

    def metrics(self):
        """/metrics as {(sample name, frozenset of label items): value}, through the Prometheus parser."""
        text = self.get("/metrics")
        samples = {}
        for family in text_string_to_metric_families(text):
            for s in family.samples:
                samples[(s.name, frozenset(s.labels.items()))] = s.value
        return samples


class EventStream:
    """A client of /wm/beacon/events (server-sent events), read by a thread of its own into a queue."""

    def __init__(self, rest, topics=""):
        self._events = queue.Queue()
        self._response = urllib.request.urlopen(f"{rest.base}/wm/beacon/events?topics={topics}", timeout=60)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        self.wait_for("hello", lambda data: True, 5)

    def _read(self):
        name = None
        try:
            for raw in self._response:
                line = raw.decode().rstrip("\r\n")
                if line.startswith("event:"):
                    name = line[6:].strip()
                elif line.startswith("data:") and name is not None:
                    self._events.put((name, json.loads(line[5:])))
                    name = None
        except (OSError, ValueError):
            pass

    def wait_for(self, name, predicate, timeout):
        """The data of the first event `name` whose data satisfies `predicate`, skipping others."""
        return self.wait_for_each(name, [predicate], timeout)[0]

    def wait_for_each(self, name, predicates, timeout):
        """The data of events `name` satisfying each of `predicates`, whichever order they come in (the two
        directions of a cable, say); other events are skipped."""
        deadline = time.time() + timeout
        pending = list(predicates)
        found = []
        while pending:
            left = deadline - time.time()
            if left <= 0:
                raise AssertionError(f"no {name} event within {timeout} s"
                                     + (f" ({len(pending)} of {len(predicates)} missing)" if len(predicates) > 1 else ""))
            try:
                event, data = self._events.get(timeout=left)
            except queue.Empty:
                continue
            if event == name:
                match = next((p for p in pending if p(data)), None)
                if match is not None:
                    pending.remove(match)
                    found.append(data)
        return found

    def close(self):
        self._response.close()
