"""The ACL end to end (issue 25): Floodlight's /wm/acl REST driven as its docs do (`curl -X POST -d '{...}'`, no
content type) against Beacon's default configuration on a line of three switches, one host each: a DENY for one
pair's ICMP blocks exactly that pair, at once; DELETE and clear restore it; malformed bodies change nothing."""

import json
import subprocess

import ovsenv
import rest
from firewall_e2e import connections, curl, expect, resumed_within, stopped_within

BASE = "http://127.0.0.1:8080/wm/acl"
ADDED = {"status": "Success! New rule added."}


def acl(method, path, body=None):
    return curl(method, path, body, BASE)


def acl_expect(method, path, body, status, want):
    return expect(method, path, body, status, want, BASE)


def static_flow_names(api):
    """The names of the static flows, as /wm/staticflowpusher/list shows them."""
    return [name for name in json.dumps(api.get("/wm/staticflowpusher/list/all/json")).split('"')
            if name.startswith("ACLRule_")]


def test_acl(ctx):
    net = ctx.network(ovsenv.linear(3, dpid_base=0x800))
    h1, h2, h3 = net.spec.hosts
    api = rest.Rest()
    steps = []
    acl("DELETE", "/clear/json")  # as a failed run may have left rules: the file outlives -clean
    listener = net.popen(h3, "nc", "-lk", "5001", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for a, b in ((h1, h2), (h1, h3), (h2, h3)):
            if not (net.ping_retry(a, b) and net.ping_retry(b, a)):
                raise AssertionError(f"no ACL: {a.name} <-> {b.name} unreachable")

        # Malformed requests: an error, nothing changed.
        for bad in ('{"src-ip":"10.0.0.300/32"}', '{"src-ip":"10.0.0.1"}', '{"src-ip": "10.0.0.1/32", ',
                    '{"nw-proto":"ICMP"}', '{"src-ip":"10.0.0.1/32","action":"permit"}',
                    '{"src-ip":"10.0.0.1/32","nw-proto":"TCP","tp-dst":"http"}', '{"src_ip":"10.0.0.1/32"}',
                    '["src-ip"]'):
            code, got = acl("POST", "/rules/json", bad)
            if code != 400 or not got["status"].startswith("Failed!"):
                raise AssertionError(f"malformed {bad}: HTTP {code} {got}")
        acl_expect("DELETE", "/rules/json", '{"ruleid":"abc"}', 400,
                   {"status": "Failed! ruleid must be specified as a number."})
        acl_expect("DELETE", "/rules/json", '{"ruleid":"99"}', 404,
                   {"status": "Failed! a rule with this ID doesn't exist."})
        if acl("GET", "/rules/json")[1] != []:
            raise AssertionError("a refused request added a rule")
        steps.append("10 malformed requests refused, no rule")

        # DENY h1 -> h3 ICMP: a flowing ping stops at once; exactly that pair is blocked.
        deny = f'{{"src-ip":"{h1.ip}/32","dst-ip":"{h3.ip}/32","nw-proto":"ICMP","action":"deny"}}'
        took = stopped_within(net, h1, h3, lambda: acl_expect("POST", "/rules/json", deny, 200, ADDED), "ACL DENY")
        steps.append(f"DENY stopped a flowing h1->h3 ping in {took:.2f}s")
        rules = acl("GET", "/rules/json")[1]
        want = {"id": 1, "nw_src": f"{h1.ip}/32", "nw_dst": f"{h3.ip}/32", "nw_proto": 1, "tp_dst": 0,
                "action": "DENY"}
        if len(rules) != 1 or any(rules[0].get(k) != v for k, v in want.items()):
            raise AssertionError(f"GET rules: {rules}, want one like {want}")
        names = static_flow_names(api)
        if names != ["ACLRule_1_" + switch_of(net, h1)]:
            raise AssertionError(f"static flows {names}: want ACLRule_1 on h1's switch only")
        for a, b in ((h1, h3), (h3, h1)):
            if net.ping(a, b, count=2):
                raise AssertionError(f"{a.name} -> {b.name} answered under the DENY")
        for a, b in ((h1, h2), (h2, h1), (h2, h3), (h3, h2)):
            if not net.ping_retry(a, b):
                raise AssertionError(f"{a.name} -> {b.name} blocked, but the DENY is for h1 -> h3 only")
        if connections(net, h1, h3, 3) != 3:
            raise AssertionError("h1 -> h3 TCP blocked, but the DENY is for ICMP only")
        steps.append("h1<->h3 ICMP blocked; h1<->h2, h2<->h3 ping and h1->h3 TCP connects")
        acl_expect("POST", "/rules/json", f'{{"src-ip":"{h1.ip}/32","dst-ip":"{h3.ip}/32","nw-proto":"ICMP",'
                   '"action":"allow"}', 409, {"status": "Failed! The new ACL rule matches an existing rule."})

        # DELETE restores it at once.
        took = resumed_within(net, h1, h3, lambda: acl_expect("DELETE", "/rules/json", '{"ruleid":"1"}', 200,
                                                              {"status": "Success! Rule deleted"}), "ACL DELETE")
        steps.append(f"DELETE restored the ping in {took:.2f}s")
        if static_flow_names(api) or acl("GET", "/rules/json")[1] != []:
            raise AssertionError("the rule or its static flow outlived its DELETE")

        # Again, then clear: restored at once, ids start at 1 again.
        acl_expect("POST", "/rules/json", deny, 200, ADDED)
        if acl("GET", "/rules/json")[1][0]["id"] != 2 or net.ping(h1, h3, count=2):
            raise AssertionError("the DENY added again is not rule 2, or does not block")
        # Floodlight's GET clear is a GET that deletes: refused unless web.floodlightGetClear (any page could send it).
        code, got = acl("GET", "/clear/json")
        if code != 405 or "web.floodlightGetClear" not in json.dumps(got) or len(acl("GET", "/rules/json")[1]) != 1:
            raise AssertionError(f"GET clear: HTTP {code} {got}, want 405 naming web.floodlightGetClear, rule kept")
        took = resumed_within(net, h1, h3, lambda: acl("DELETE", "/clear/json"), "ACL clear")
        steps.append(f"clear restored it in {took:.2f}s")
        if static_flow_names(api) or acl("GET", "/rules/json")[1] != []:
            raise AssertionError("rules or static flows outlived the clear")
        acl_expect("POST", "/rules/json", deny, 200, ADDED)
        if acl("GET", "/rules/json")[1][0]["id"] != 1:
            raise AssertionError("after a clear, ids do not start at 1 again")

        m = api.metrics()
        installed = m.get(("beacon_acl_flows_installed_total", frozenset()), 0)
        rules_now = m.get(("beacon_acl_rules", frozenset()))
        if rules_now != 1 or installed < 3:
            raise AssertionError(f"/metrics: {rules_now} rules (want 1), {installed} flows installed (want >= 3)")
        steps.append(f"/metrics: 1 rule, {installed:.0f} flows installed")
    finally:
        acl("DELETE", "/clear/json")
        listener.kill()
        listener.wait()
    return "; ".join(steps)


def switch_of(net, host):
    """The dpid of `host`'s switch as Beacon writes it: 00:00:00:00:00:00:08:01."""
    return ":".join(f"{b:02x}" for b in net.spec.dpid(host.switch).to_bytes(8, "big"))
