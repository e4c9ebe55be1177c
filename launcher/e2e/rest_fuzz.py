#!/usr/bin/env python3
"""A seeded fuzz test of the REST API against the product in its default configuration (issue 28).

Sends a few thousand hostile or malformed requests over raw sockets across every endpoint of docs/rest.md (bad
methods, odd path segments, percent-encodings, overlong paths, broken JSON, wrong content types and charsets, foreign
Host/Origin, cross-site writes, bodies shorter than declared) and checks the oracle:
- never a 5xx, never a reset or a hang;
- every 4xx carries a JSON problem body;
- a refused request changes nothing (static flows, bundles and settings compared against the last accepted state);
- afterwards a plain GET is served and the log holds no ERROR and no stack trace.
The seed is printed; `--seed N` repeats a run. Ends with `N passed, N failed` like the other e2e scripts.
"""

import argparse
import http.client
import json
import random
import re
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from launcher_test import DEFAULT_PRODUCT, Beacon  # noqa: E402
from controller import product_copy  # noqa: E402
from ovsenv import wait_until  # noqa: E402

DPID = "00:00:00:00:00:00:00:01"
# (methods the endpoint takes, path template); templates name their variable segments in braces.
ENDPOINTS = [
    ("GET", "/wm/core/controller/switches/json"), ("GET", "/wm/core/controller/summary/json"),
    ("GET", "/wm/core/health/json"), ("GET", "/wm/core/memory/json"), ("GET", "/wm/core/system/uptime/json"),
    ("GET", "/wm/core/switch/{dpid}/{stat}/json"), ("GET POST", "/wm/core/switch/{dpid}/role/json"),
    ("GET", "/wm/device/"), ("GET", "/wm/device/all/json"),
    ("GET", "/wm/topology/links/json"), ("GET", "/wm/topology/directed-links/json"),
    ("GET", "/wm/topology/switchclusters/json"), ("GET", "/wm/topology/route/{dpid}/{port}/{dpid}/{port}/json"),
    ("POST DELETE", "/wm/staticflowpusher/json"), ("POST", "/wm/staticflowpusher/json/store"),
    ("POST DELETE", "/wm/staticflowentrypusher/json"), ("POST", "/wm/staticflowpusher/json/delete"),
    ("GET", "/wm/staticflowpusher/list/{dpid}/json"), ("GET POST DELETE", "/wm/staticflowpusher/clear/{dpid}/json"),
    ("GET", "/wm/statistics/bandwidth/{dpid}/{port}/json"), ("POST PUT", "/wm/statistics/config/{change}/json"),
    ("GET", "/wm/beacon/settings/json"), ("GET PUT", "/wm/beacon/settings/{key}/json"),
    ("GET POST", "/wm/beacon/bundles/json"), ("POST", "/wm/beacon/bundles/{id}/start/json"),
    ("POST", "/wm/beacon/bundles/{id}/stop/json"), ("POST", "/wm/beacon/bundles/{id}/update/json"),
    ("DELETE", "/wm/beacon/bundles/{id}/json"),
    ("GET DELETE", "/wm/beacon/switch/{dpid}/flows/json"), ("GET", "/wm/beacon/listeners/json"),
    ("GET", "/wm/beacon/system/json"), ("GET", "/wm/beacon/switches/json"), ("GET", "/wm/beacon/topology/json"),
    ("GET", "/wm/beacon/ui/pages/json"), ("GET", "/wm/beacon/cluster/json"), ("POST", "/wm/beacon/cluster/migrate/json"),
    ("GET", "/metrics"), ("GET", "/"), ("GET", "/ui/"), ("GET", "/ui/{file}"),
    ("GET PUT", "/wm/firewall/module/enable/json"), ("GET PUT", "/wm/firewall/module/disable/json"),
    ("GET", "/wm/firewall/module/status/json"), ("GET POST", "/wm/firewall/module/subnet-mask/json"),
    ("GET POST DELETE", "/wm/firewall/rules/json"), ("GET POST DELETE", "/wm/acl/rules/json"),
    ("GET POST DELETE", "/wm/acl/clear/json"),
]
METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "CONNECT", "PROPFIND", "get", "FOO",
           "G\x01T"]
# Hostile values for each kind of path segment; a valid one is among them so deeper code runs too.
SEGMENTS = {
    "dpid": [DPID, "all", "1", "0", "-1", "zz", "00:00:00:00:00:00:00:0g", "ffffffffffffffff", "1" * 40,
             "00%3A00%3A00%3A00%3A00%3A00%3A00%3A01", "%00", "%ZZ", "%C3%28", "..", "%2e%2e", "%2F", "a;b=c",
             "%E2%98%83", "9223372036854775808", " ", "%20"],
    "port": ["1", "all", "0", "-1", "65536", "4294967296", "local", "%00", "1e9", "x" * 300],
    "stat": ["port", "flow", "features", "desc", "table", "aggregate", "queue", "role", "nonsense", "%00", ""],
    "id": ["0", "-1", "999999", "abc", "1.5", "99999999999999999999", "%00", "1;x"],
    "key": ["routing.idleTimeout", "web.port", "routing.nope", "", "%00", "a" * 500, "..%2F..", "x.y.z"],
    "change": ["enable", "disable", "ENABLE", "maybe", "%00"],
    "file": ["index.html", "app.js", "../beacon.properties", "%2e%2e%2fx.html", "x.exe", "a" * 300 + ".js"],
}
CONTENT_TYPES = [None, "application/json", "application/json; charset=utf-8", "application/json; charset=@",
                 "application/json; charset=nope", "application/json; charset=utf-16", "text/plain",
                 "application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=@",
                 "multipart/form-data", "multipart/form-data; boundary=xyz", "multipart/form-data; boundary=",
                 "application/xml", "*/*", ";;;", "application/json; boundary=\x7f", "text/html; charset=utf-8"]
FLOW = {"switch": DPID, "name": "fuzz", "priority": "100", "in_port": "1", "actions": "output=2"}
# A firewall or ACL rule as Floodlight's docs write them; the fuzz puts junk into some of its keys.
RULE = {"src-ip": "10.0.0.1/32", "dst-ip": "10.0.0.2/32", "nw-proto": "ICMP", "action": "deny", "priority": "5"}
RULE_KEYS = list(RULE) + ["ruleid", "switchid", "src-inport", "src-mac", "dst-mac", "dl-type", "tp-src", "tp-dst",
                          "subnet-mask", "bogus"]
JUNK_VALUES = [[1], {"a": 1}, None, True, 1e309, 10 ** 40, -1, "", " ", ",", "output=1,,", "\u0000", "\ud800",
               "\u2603" * 50, "x" * 70000, "#x", "0x", "-0", "1e3"]


def body_for(rng):
    """A hostile body: broken JSON, a flow or setting with a junk value, odd encodings, or nothing."""
    kind = rng.randrange(11)
    if kind == 0:
        return b""
    if kind == 1:
        return json.dumps(FLOW).encode()[: rng.randrange(1, 60)]  # truncated JSON
    if kind == 2:
        return rng.choice([b"[]", b"null", b"1", b'"x"', b"{", b"}", b"[{}]", b"{{}}", b'{"a":}', b"\x00" * 8,
                           b"\xff\xfe\xfd", b"\xc3\x28", b"a=%ZZ&b", b"switch=%C3%28", b"\xef\xbb\xbf{}"])
    if kind == 3:
        return json.dumps({"value": rng.choice(JUNK_VALUES), "save": rng.choice([False, "yes", [1]])}).encode()
    if kind == 4:
        return json.dumps({"role": rng.choice(["MASTER", "boss", 1, None, [], "\u0000"])}).encode()
    if kind == 5:
        return json.dumps({"switch": rng.choice(SEGMENTS["dpid"]), "member": rng.choice(["x", "", 1, None])}).encode()
    if kind == 6:
        return ("--xyz\r\nContent-Disposition: form-data; name=\"jar\"; filename=\"a.jar\"\r\n\r\nPK\x03\x04junk"
                + ("\r\n--xyz--\r\n" if rng.random() < 0.5 else "")).encode()
    if kind == 7:
        return json.dumps({"name": rng.choice(["fuzz", "", "#x", "\u0000", [1], "a" * 3000])}).encode()
    if kind == 8:
        rule = dict(RULE)
        for _ in range(rng.randrange(1, 4)):
            rule[rng.choice(RULE_KEYS)] = rng.choice(JUNK_VALUES + ["10.0.0.300/32", "10.0.0.1/33", "ARP", "UDP",
                                                                    "allow", "0", "65536", "255.0.255.0"])
        return json.dumps(rule, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")
    flow = dict(FLOW, name=f"fz{rng.randrange(1000)}")
    for _ in range(rng.randrange(1, 3)):
        flow[rng.choice(list(FLOW) + ["eth_type", "ipv4_dst", "idle_timeout", "cookie", "bogus"])] = \
            rng.choice(JUNK_VALUES)
    if rng.random() < 0.1:
        flow["actions"] = ",".join(["output=1"] * 9000)  # over OpenFlow's 64 KB message
    # An invalid-JSON unicode surrogate or a bare NUL must not break the server either.
    return json.dumps(flow, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")


def path_for(rng, template):
    def segment(m):
        return rng.choice(SEGMENTS[m.group(1)])
    path = re.sub(r"\{(\w+)\}", segment, template)
    r = rng.random()
    if r < 0.05:
        path += "/" + "a" * rng.choice([300, 5000, 20000])
    elif r < 0.10:
        path = path.replace("/", "//", 1)
    elif r < 0.15:
        path += rng.choice(["?a=%ZZ", "?mac=not-a-mac", "?ipv4=%C3%28", "?" + "x=1&" * 500, "?;", "#frag", "?\u2603"])
    elif r < 0.18:
        path = path.upper()
    elif r < 0.20:
        path = path.replace("json", "json/../../../etc/passwd")
    return path


class Request:
    def __init__(self, method, path, headers, body, declared=None):
        self.method, self.path, self.headers, self.body = method, path, headers, body
        self.declared = len(body) if declared is None else declared

    def mutating(self):
        return self.method.upper() not in ("GET", "HEAD", "OPTIONS") or "/clear/" in self.path

    def raw(self):
        head = f"{self.method} {self.path} HTTP/1.1\r\n"
        for k, v in self.headers.items():
            head += f"{k}: {v}\r\n"
        if self.body or self.method in ("POST", "PUT", "DELETE"):
            head += f"Content-Length: {self.declared}\r\n"
        return head.encode("utf-8", "surrogateescape") + b"Connection: close\r\n\r\n" + self.body

    def __str__(self):
        return f"{self.method} {self.path[:120]} {self.headers} body={self.body[:80]!r} (declared {self.declared})"


def request_for(rng, port):
    methods, template = rng.choice(ENDPOINTS)
    method = rng.choice(methods.split()) if rng.random() < 0.7 else rng.choice(METHODS)
    headers = {"Host": f"127.0.0.1:{port}"}
    r = rng.random()
    if r < 0.05:
        headers["Host"] = rng.choice([f"rebind.evil.example:{port}", "", "127.0.0.1:1", "[::1", "a" * 300,
                                      f"localhost:{port}", f"[::1]:{port}"])
    elif r < 0.07:
        del headers["Host"]
    if rng.random() < 0.15:
        headers["Origin"] = rng.choice(["http://evil.example", "null", f"http://127.0.0.1:{port}",
                                        f"http://rebind.evil.example:{port}", "http://127.0.0.1:1", "\u2603"])
    if rng.random() < 0.08:
        headers["Sec-Fetch-Site"] = rng.choice(["cross-site", "same-site", "same-origin", "none", "x"])
    body = body_for(rng) if method.upper() not in ("GET", "HEAD") or rng.random() < 0.05 else b""
    ctype = rng.choice(CONTENT_TYPES)
    if ctype is not None and (body or rng.random() < 0.2):
        headers["Content-Type"] = ctype
    if rng.random() < 0.03:
        headers["Transfer-Encoding"] = rng.choice(["chunked", "gzip", "identity"])
    return Request(method, path_for(rng, template), headers, body)


class Failure(Exception):
    pass


def send(req, port, timeout):
    """(status, headers, body) of one request on a fresh connection; raises Failure on a reset or a hang."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(req.raw())
            resp = http.client.HTTPResponse(s, method=req.method.upper())
            resp.begin()
            body = resp.read()
            return resp.status, resp.headers, body
    except socket.timeout as e:
        raise Failure(f"no answer within {timeout} s: {req}") from e
    except (ConnectionError, http.client.HTTPException) as e:
        raise Failure(f"{type(e).__name__} {e}: {req}") from e


def problem(status, headers, body, req):
    """Why this answer breaks the oracle, or None."""
    if status >= 500:
        return f"HTTP {status}: {body[:300]!r}"
    if 400 <= status < 500 and req.method.upper() != "HEAD":
        kind = headers.get("Content-Type", "")
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = None
        if "json" not in kind or not isinstance(parsed, dict):
            return f"HTTP {status} without a JSON problem body ({kind!r}): {body[:200]!r}"
    return None


def get_json(port, path):
    status, _, body = send(Request("GET", path, {"Host": f"127.0.0.1:{port}"}, b""), port, 10)
    if status != 200:
        raise Failure(f"GET {path}: HTTP {status} {body[:200]!r}")
    return json.loads(body)


def state(port):
    """What a refused request must not change: static flows, bundles and their states, settings, firewall and ACL."""
    bundles = sorted((b.get("id"), b.get("symbolicName"), b.get("state"))
                     for b in get_json(port, "/wm/beacon/bundles/json"))
    settings = sorted((s["key"], s.get("value")) for s in get_json(port, "/wm/beacon/settings/json"))
    return {"flows": get_json(port, "/wm/staticflowpusher/list/all/json"), "bundles": bundles, "settings": settings,
            "firewall": [get_json(port, "/wm/firewall/module/status/json"),
                         get_json(port, "/wm/firewall/module/subnet-mask/json"),
                         get_json(port, "/wm/firewall/rules/json")],
            "acl": get_json(port, "/wm/acl/rules/json")}


def short_bodies(port, rng, results):
    """Clients that declare a body and send less (nothing, or a few bytes) must get an answer (408), not a hang."""
    for n in range(6):
        sent = b"" if n % 2 == 0 else json.dumps(FLOW).encode()[:10]
        req = Request("POST", "/wm/staticflowpusher/json", {"Host": f"127.0.0.1:{port}",
                                                            "Content-Type": "application/json"}, sent, declared=500)
        t0 = time.monotonic()
        try:
            status, headers, body = send(req, port, 40)
            results.append((req, status, headers, body, time.monotonic() - t0))
        except Failure as e:
            results.append((req, None, None, str(e).encode(), time.monotonic() - t0))


LOG_ERROR = re.compile(r"^(.*\bERROR\b.*|\s+at [\w.$]+\(.*\)|.*Exception.*)$", re.MULTILINE)


def fuzz(product, workdir, seed, count, short_bound):
    rng = random.Random(seed)
    findings = []
    # On a copy: the fuzz enables the firewall, adds rules and flows, which the product keeps in its configuration area.
    product = product_copy(product, Path(workdir) / "product")
    with Beacon(product, workdir, "fuzz") as b:
        b.wait_listening()
        port = b.web_port
        wait_until(lambda: _up(port), 60, "the REST API up", interval=0.5)
        for web in ("staticflowpusher", "firewall", "acl"):
            b.wait_bundle_state(f"net.beaconcontroller.{web}.web", "ACTIVE")
        mark = len(b.output())
        # One stored flow, so a refused delete or clear that deletes anyway shows.
        pushed = send(Request("POST", "/wm/staticflowpusher/json", {"Host": f"127.0.0.1:{port}",
                      "Content-Type": "application/json"}, json.dumps(dict(FLOW, name="keep")).encode()), port, 10)
        if pushed[0] != 200:
            raise Failure(f"pushing the reference flow: HTTP {pushed[0]} {pushed[2][:200]!r}")
        short = []
        slow = threading.Thread(target=short_bodies, args=(port, rng, short), daemon=True)
        slow.start()
        baseline, since, accepted, statuses = state(port), [], 0, {}
        t0 = time.monotonic()
        for i in range(count):
            req = request_for(rng, port)
            try:
                status, headers, body = send(req, port, 10)
            except Failure as e:
                findings.append(str(e))
                if not _up(port):
                    findings.append("the REST API stopped answering")
                    break
                continue
            statuses[status] = statuses.get(status, 0) + 1
            why = problem(status, headers, body, req)
            if why:
                findings.append(f"{why} <- {req}")
            if req.mutating() and 200 <= status < 300:
                accepted += 1
                baseline, since = state(port), []  # an accepted change is the new reference
            elif req.mutating():
                since.append(f"{status} {req}")
            if since and (len(since) >= 50 or i == count - 1):
                now = state(port)
                if now != baseline:
                    diff = {k: (baseline[k], now[k]) for k in now if now[k] != baseline[k]}
                    findings.append(f"state changed by one of {len(since)} refused requests: "
                                    f"{json.dumps(diff)[:600]}; requests: {since[:5]}...")
                    baseline = now
                since = []
        elapsed = time.monotonic() - t0
        slow.join(60)
        waits = [w for *_, w in short]
        for req, status, headers, body, waited in short:
            if status is None or status != 408 or waited > short_bound:
                findings.append(f"short body: HTTP {status} after {waited:.1f} s (want 408 within {short_bound} s):"
                                f" {req} {body[:200]!r}")
        if not _up(port):
            findings.append("no normal GET served after the run")
        log = b.output(mark)
        errors = LOG_ERROR.findall(log)
        if errors:
            findings.append(f"{len(errors)} ERROR/stack trace line(s) in the log, first: {errors[:6]}")
    summary = (f"seed {seed}: {count} requests in {elapsed:.1f} s ({count / elapsed:.0f}/s), {accepted} changes"
               f" accepted, statuses {dict(sorted(statuses.items()))}; short bodies answered after "
               f"{', '.join(f'{w:.1f}' for w in waits)} s")
    return findings, summary


def _up(port):
    try:
        return send(Request("GET", "/wm/core/health/json", {"Host": f"127.0.0.1:{port}"}, b""), port, 5)[0] == 200
    except Failure:
        return False


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--product", type=Path, default=DEFAULT_PRODUCT)
    parser.add_argument("--seed", type=int, default=None, help="repeat a run (printed at the start)")
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--short-bound", type=float, default=10.0,
                        help="seconds a client that sends less than its declared body may wait for its 408")
    args = parser.parse_args()
    if not (args.product / "beacon").exists():
        sys.exit(f"no product at {args.product}: run ./mvnw -B package -DskipTests first")
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    print(f"rest_fuzz seed {seed} (repeat with --seed {seed})", flush=True)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="beacon-fuzz-") as workdir:
        try:
            findings, summary = fuzz(args.product, workdir, seed, args.requests, args.short_bound)
        except Exception as e:  # noqa: BLE001 - a crash of the harness is a failure like any other
            findings, summary = [f"{type(e).__name__}: {e}"], f"seed {seed}"
    took = time.monotonic() - t0
    if findings:
        for f in findings[:40]:
            print("  " + f[:1200], flush=True)
        print(f"FAIL rest_fuzz ({took:.1f}s): {len(findings)} finding(s); {summary}")
        print("0 passed, 1 failed")
        sys.exit(1)
    print(f"PASS rest_fuzz ({took:.1f}s): {summary}")
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
