"""The firewall end to end (issue 25): Floodlight's REST driven exactly as its docs do (`curl -X POST -d '{...}'`, no
content type) against Beacon's default configuration on a line of three switches, one host each."""

import json
import re
import subprocess
import time

import ovsenv
import rest

BASE = "http://127.0.0.1:8080/wm/firewall"
DROP_COOKIE = "cookie=0xbe04"
# A change must reach traffic already flowing within this (issue 25); pings every 50 ms measure it.
BOUND = 1.0


def curl(method, path, body=None, base=BASE):
    """(HTTP status, parsed JSON) of Floodlight's documented request: curl's default form content type."""
    cmd = ["curl", "-s", "-m", "5", "-X", method, "-w", "\n%{http_code}"]
    if body is not None:
        cmd += ["-d", body]
    out = subprocess.run(cmd + [base + path], capture_output=True, text=True, check=True).stdout
    text, _, code = out.rpartition("\n")
    return int(code), json.loads(text) if text else None


def expect(method, path, body, status, want, base=BASE):
    code, got = curl(method, path, body, base)
    if code != status or any(got.get(k) != v for k, v in want.items()):
        raise AssertionError(f"{method} {path} {body!r}: HTTP {code} {got}, want {status} {want}")
    return got


class Pinger:
    """A ping every 50 ms from `src` to `dst` for `seconds`, each reply timestamped (ping -D)."""

    def __init__(self, net, src, dst, seconds):
        self.proc = net.popen(src, "ping", "-n", "-D", "-i", "0.05", "-W", "1", "-w", str(seconds), dst.ip,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def replies(self):
        out = self.proc.communicate(timeout=60)[0]
        return [float(m.group(1)) for m in re.finditer(r"^\[(\d+\.\d+)\] \d+ bytes from", out, re.M)]


def around(net, src, dst, change):
    """The time of `change()`, made 1.5 s into a 4 s ping from `src` to `dst`, and the ping's reply times."""
    pinger = Pinger(net, src, dst, 4)
    time.sleep(1.5)
    t = time.time()
    change()
    return t, pinger.replies()


def stopped_within(net, src, dst, change, what, bound=BOUND):
    """Seconds from `change()` until the replies of a ping already flowing stopped."""
    t, replies = around(net, src, dst, change)
    before = [r for r in replies if r < t]
    after = [r for r in replies if r >= t]
    if len(before) < 5:
        raise AssertionError(f"{what}: the ping was not flowing before the change ({len(before)} replies)")
    took = (after[-1] - t) if after else 0.0
    if took > bound:
        raise AssertionError(f"{what}: replies went on {took:.2f}s after the change (bound {bound}s)")
    return took


def resumed_within(net, src, dst, change, what):
    """Seconds from `change()` until a ping that was refused is answered."""
    t, replies = around(net, src, dst, change)
    if [r for r in replies if r < t]:
        raise AssertionError(f"{what}: the ping was answered before the change")
    if not replies:
        raise AssertionError(f"{what}: no reply within 2.5 s of the change")
    took = replies[0] - t
    if took > BOUND:
        raise AssertionError(f"{what}: first reply {took:.2f}s after the change (bound {BOUND}s)")
    return took


def reset():
    """No rules, off: as a run left by a failed one must not be seen by the next test (the file outlives -clean)."""
    curl("PUT", "/module/disable/json", "")
    for r in curl("GET", "/rules/json")[1]:
        curl("DELETE", "/rules/json", json.dumps({"ruleid": str(r["ruleid"])}))


def add(body):
    got = expect("POST", "/rules/json", body, 200, {"status": "Rule added"})
    if not re.fullmatch(r"\d+", got.get("rule-id", "")):
        raise AssertionError(f"POST {body}: rule-id {got.get('rule-id')!r} is not a quoted integer")
    return got["rule-id"]


def test_firewall(ctx):
    net = ctx.network(ovsenv.linear(3, dpid_base=0x700))
    h1, h2, h3 = net.spec.hosts
    api = rest.Rest()
    steps = []
    reset()
    try:
        for a, b in ((h1, h2), (h1, h3), (h2, h3)):
            if not net.ping_retry(a, b):
                raise AssertionError(f"firewall off: {a.name} -> {b.name} unreachable")

        # On: default deny, acting on the ping already flowing.
        expect("GET", "/module/enable/json", None, 405, {"status": "failure", "details": "Use PUT to enable firewall"})
        took = stopped_within(net, h1, h3, lambda: expect("PUT", "/module/enable/json", "", 200,
                                                          {"status": "success", "details": "firewall running"}),
                              "enable")
        steps.append(f"enable stopped a flowing ping in {took:.2f}s")
        expect("GET", "/module/status/json", None, 200, {"result": "firewall enabled"})
        net.exec(h1, "ip", "neigh", "flush", "all")
        if net.ping(h1, h2, count=2):
            raise AssertionError("default deny: h1 -> h2 answered")
        neigh = net.exec(h1, "ip", "neigh", "show", h2.ip).stdout
        if "lladdr" not in neigh:
            raise AssertionError(f"default deny: h1's ARP request for h2 was not answered ({neigh.strip()!r})")
        steps.append("default deny, ARP requests answered")

        # Malformed rules: an error, nothing changed.
        before = curl("GET", "/rules/json")[1]
        for bad in ('{"src-ip":"10.0.0.300/32"}', '{"src-ip": "10.0.0.1", ', '{"action":"permit"}',
                    '{"tp-dst":"80"}', '{"src_ip":"10.0.0.1"}', '["src-ip"]'):
            code, got = curl("POST", "/rules/json", bad)
            if code != 400 or not got["status"].startswith("Error!") or "rule-id" in got:
                raise AssertionError(f"malformed {bad}: HTTP {code} {got}")
        code, got = curl("DELETE", "/rules/json", '{"ruleid":"abc"}')
        if code != 400 or not got["status"].startswith("Error!"):
            raise AssertionError(f"DELETE ruleid abc: HTTP {code} {got}")
        expect("DELETE", "/rules/json", '{"ruleid":"12345"}', 404,
               {"status": "Error! Can't delete, a rule with this ID doesn't exist."})
        if curl("GET", "/rules/json")[1] != before:
            raise AssertionError("a refused request changed the rules")
        steps.append("7 malformed requests refused, rules unchanged")

        # ALLOW ARP and ICMP between h1 and h2: they ping, the others do not.
        ids = {}
        for a, b in ((h1, h2), (h2, h1)):
            ids[f"arp {a.name}"] = add(f'{{"src-mac": "{a.mac}", "dst-mac": "{b.mac}", "dl-type": "ARP",'
                                       f' "priority": "10"}}')
            ids[f"icmp {a.name}"] = add(f'{{"src-ip": "{a.ip}/32", "dst-ip": "{b.ip}/32", "nw-proto": "ICMP",'
                                        f' "priority": "10"}}')
        expect("POST", "/rules/json", f'{{"src-ip": "{h1.ip}/32", "dst-ip": "{h2.ip}/32", "nw-proto": "ICMP"}}',
               409, {"status": "Error! A similar firewall rule already exists."})
        rules = curl("GET", "/rules/json")[1]
        if sorted(str(r["ruleid"]) for r in rules) != sorted(ids.values()):
            raise AssertionError(f"GET rules {rules} != the ids added {ids}")
        if not (net.ping_retry(h1, h2) and net.ping_retry(h2, h1)):
            raise AssertionError("h1 and h2 allowed both ways, yet no ping")
        for a, b in ((h1, h3), (h3, h1), (h2, h3)):
            if net.ping(a, b, count=2):
                raise AssertionError(f"{a.name} -> {b.name} answered without a rule")
        steps.append("4 ALLOW rules: h1<->h2 ping, h1/h2<->h3 do not")

        # A DENY with a smaller priority number wins, at once; deleted, the pair pings again.
        deny = [None]

        def add_deny():
            deny[0] = add(f'{{"src-ip": "{h1.ip}/32", "dst-ip": "{h2.ip}/32", "nw-proto": "ICMP",'
                          f' "action": "DENY", "priority": "1"}}')
        took = stopped_within(net, h1, h2, add_deny, "DENY priority 1 over ALLOW priority 10")
        order = [str(r["ruleid"]) for r in curl("GET", "/rules/json")[1]]
        if order[0] != deny[0] or curl("GET", "/rules/json")[1][0]["action"] != "DROP":
            raise AssertionError(f"the DENY rule is not listed first as DROP: {order}")
        steps.append(f"DENY priority 1 stopped the ping in {took:.2f}s")
        took = resumed_within(net, h1, h2, lambda: expect("DELETE", "/rules/json",
                                                          json.dumps({"ruleid": deny[0]}), 200,
                                                          {"status": "Rule deleted"}), "DENY deleted")
        steps.append(f"its DELETE restored it in {took:.2f}s")

        # DELETE of the rule that allowed a flowing ping stops it.
        took = stopped_within(net, h1, h2, lambda: expect("DELETE", "/rules/json",
                                                          json.dumps({"ruleid": ids["icmp h1"]}), 200,
                                                          {"status": "Rule deleted"}), "DELETE of ALLOW icmp h1")
        steps.append(f"DELETE of the ALLOW stopped the ping in {took:.2f}s")

        m = api.metrics()
        rules_now = m.get(("beacon_firewall_rules", frozenset()))
        allowed = m.get(("beacon_firewall_packets_total", frozenset({("rule", ids["icmp h2"]),
                                                                     ("action", "allow")})), 0)
        denied = m.get(("beacon_firewall_packets_total", frozenset({("rule", "default"), ("action", "deny")})), 0)
        if rules_now != 3 or allowed < 1 or denied < 1:
            raise AssertionError(f"/metrics: rules {rules_now} (want 3), allowed by icmp h2 {allowed}, default"
                                 f" denied {denied}")
        steps.append(f"/metrics: 3 rules, {allowed:.0f} allowed by one, {denied:.0f} denied by default")

        # Stopping the bundle restores forwarding without it (its drop flows go with it); started again, it reads
        # its file and removes the flows installed meanwhile that its rules refuse.
        c = ctx.controller
        bsn = "net.beaconcontroller.firewall"
        fw = c.wait_bundle_state(bsn, "ACTIVE")
        took = resumed_within(net, h1, h3, lambda: (c.command(f"stop {fw}"), c.wait_bundle_state(bsn, "RESOLVED")),
                              "firewall bundle stopped")
        steps.append(f"bundle stopped: a refused ping answered {took:.2f}s after the stop")
        took = stopped_within(net, h1, h3, lambda: (c.command(f"start {fw}"), c.wait_bundle_state(bsn, "ACTIVE")),
                              "firewall bundle started", bound=2 * BOUND)
        ovsenv.wait_until(lambda: api.status("/wm/firewall/module/status/json") == 200, 10, "the firewall's REST back")
        expect("GET", "/module/status/json", None, 200, {"result": "firewall enabled"})
        if len(curl("GET", "/rules/json")[1]) != 3:
            raise AssertionError("the rules did not survive the bundle's restart")
        steps.append(f"started again: enabled with its 3 rules, the ping refused {took:.2f}s after the start")

        # Off: everything flows again, the refused ping at once, and no drop flow is left.
        took = resumed_within(net, h1, h3, lambda: expect("PUT", "/module/disable/json", "", 200,
                                                          {"status": "success", "details": "firewall stopped"}),
                              "disable")
        ovsenv.wait_until(lambda: DROP_COOKIE not in net.dump_flows(), BOUND, "no firewall drop flow left")
        for a, b in ((h1, h2), (h1, h3), (h2, h3), (h3, h1)):
            if not net.ping_retry(a, b):
                raise AssertionError(f"firewall off again: {a.name} -> {b.name} unreachable")
        steps.append(f"disable restored a refused ping in {took:.2f}s, every pair pings")
    finally:
        reset()
    return "; ".join(steps)


def pipeline_calls(api, listener):
    return api.metrics().get(("beacon_listener_calls_total", frozenset({("type", "PACKET_IN"),
                                                                        ("listener", listener)})), 0)


def verdicts(api):
    """Packets the firewall judged (where they entered the network), every rule and verdict summed."""
    return sum(v for (name, _), v in api.metrics().items() if name == "beacon_firewall_packets_total")


def connections(net, src, dst, n):
    """`n` TCP connections from `src` to `dst` port 5001, one after the other (at once, packets overtaking the flows
    being installed add PACKET_INs that measure the race, not the firewall); returns how many were established."""
    script = f"for i in $(seq {n}); do nc -z -w 2 {dst.ip} 5001 && echo ok; done"
    return net.exec(src, "sh", "-c", script, check=False, timeout=30).stdout.count("ok")


def test_firewall_cost(ctx):
    """Enforcement cost on the k=4 fat tree: PACKET_INs reaching routing and routing flows installed for 100 new TCP
    connections between pods, with the firewall off and on (rules allowing them). A measurement; it passes when
    every connection is established both times. PACKET_INs beyond two per connection are packets that reached a
    switch of the route before its flow (routing sends no barrier), with or without the firewall."""
    net = ctx.network(ovsenv.fattree(4, dpid_base=0x1000))
    src, dst = net.spec.hosts[0], net.spec.hosts[-1]
    api = rest.Rest()
    reset()
    listener = net.popen(dst, "nc", "-lk", "5001", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = []
    try:
        if not (net.ping_retry(src, dst) and net.ping_retry(dst, src)):
            raise AssertionError(f"{src.name} and {dst.name} do not reach each other")
        for mode in ("off", "on"):
            if mode == "on":
                for a, b in ((src, dst), (dst, src)):
                    add(f'{{"src-ip": "{a.ip}", "dst-ip": "{b.ip}", "nw-proto": "TCP"}}')
                    add(f'{{"src-mac": "{a.mac}", "dst-mac": "{b.mac}", "dl-type": "ARP"}}')
                curl("PUT", "/module/enable/json", "")
            net.del_flows()
            before = pipeline_calls(api, "routing")
            judged = verdicts(api)

            ok = connections(net, src, dst, 100)
            flows = net.dump_flows().count("cookie=0xbe01")
            packet_ins = pipeline_calls(api, "routing") - before
            if ok != 100:
                raise AssertionError(f"firewall {mode}: {ok}/100 connections established")
            results.append(f"firewall {mode}: {packet_ins:.0f} PACKET_INs to routing, {flows} routing flows"
                           + (f", {verdicts(api) - judged:.0f} judged at an edge port" if mode == "on" else ""))
    finally:
        listener.kill()
        listener.wait()
        reset()
    return "per 100 new connections: " + "; ".join(results)
