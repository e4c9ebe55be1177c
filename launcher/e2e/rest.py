"""HTTP helpers for the REST tests: JSON requests against Beacon's web server and the Prometheus text format
parsed by the reference parser (prometheus_client), standard library otherwise."""

import json
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
