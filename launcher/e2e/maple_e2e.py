"""Maple end to end (issue 27): the example policy bundle (shortest path, telnet dropped) installed at runtime beside
routing in Beacon's default configuration, on a ring of four switches. Maple goes before routing in the PACKET_IN
pipeline and, while a policy runs, decides every packet; stopped, it deletes its rules and routing forwards again."""

import subprocess

import ovsenv
import rest
from firewall_e2e import connections, pipeline_calls

MAPLE_COOKIE = "cookie=0xbe06"
ROUTING_COOKIE = "cookie=0xbe01"
EXAMPLES_BSN = "net.beaconcontroller.maple.examples"
# New TCP connections between the same two hosts for the PACKET_IN count.
CONNECTIONS = 50


def reachable(net, src, dst, port):
    """Whether a TCP connection from `src` to `dst`:`port` is established within 2 s."""
    return net.exec(src, "nc", "-z", "-w", "2", dst.ip, str(port), check=False, timeout=10).returncode == 0


def pingall(net):
    """Every host pings every other (a first attempt may be lost to ARP)."""
    hosts = net.spec.hosts
    failed = [f"{a.name}->{b.name}" for a in hosts for b in hosts if a is not b and not net.ping_retry(a, b)]
    if failed:
        raise AssertionError(f"unreachable: {' '.join(failed)}")
    return f"{len(hosts) * (len(hosts) - 1)} pairs ping"


def connection_cost(net, api, listener, src, dst, cookie):
    """PACKET_INs reaching `listener` and flows with `cookie` for CONNECTIONS new connections, from empty tables."""
    net.del_flows()
    if not net.ping_retry(src, dst):
        raise AssertionError(f"{src.name} -> {dst.name} unreachable")
    before = pipeline_calls(api, listener)
    ok = connections(net, src, dst, CONNECTIONS)
    packet_ins = pipeline_calls(api, listener) - before
    if ok != CONNECTIONS:
        raise AssertionError(f"{listener}: {ok}/{CONNECTIONS} connections established")
    return int(packet_ins), net.dump_flows().count(cookie)


def test_maple(ctx):
    net = ctx.network(ovsenv.ring(4, dpid_base=0x900))
    src, dst = net.spec.hosts[0], net.spec.hosts[2]
    api = rest.Rest()
    c = ctx.controller
    steps = []
    servers = [net.popen(dst, "nc", "-lk", str(port), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for port in (5001, 23)]
    bundle = None
    try:
        # Routing alone (EXACT, the default): every new connection pays round trips to the controller.
        # Also waits for the listeners to be up.
        ovsenv.wait_until(lambda: reachable(net, src, dst, 23) and reachable(net, src, dst, 5001), 15,
                          "telnet and port 5001 on h3 reached from h1 through routing")
        routing_ins, routing_flows = connection_cost(net, api, "routing", src, dst, ROUTING_COOKIE)
        steps.append(f"routing: {routing_ins} PACKET_INs, {routing_flows} flows for {CONNECTIONS} connections")

        bundle = c.install(ctx.args.maple_jar.resolve().as_uri(), EXAMPLES_BSN)
        c.command(f"start {bundle}")
        c.wait_bundle_state(EXAMPLES_BSN, "ACTIVE")
        ovsenv.wait_until(lambda: "policy shortest path" in c.console("beacon:maple"), 10,
                          "beacon:maple naming the example policy")
        routed = pipeline_calls(api, "routing")
        net.del_flows()
        steps.append("maple: " + pingall(net))
        maple_ins, maple_flows = connection_cost(net, api, "maple", src, dst, MAPLE_COOKIE)
        steps.append(f"maple: {maple_ins} PACKET_INs, {maple_flows} flows for {CONNECTIONS} connections")
        if pipeline_calls(api, "routing") != routed:
            raise AssertionError("routing got packets while Maple ran")
        if maple_ins > 10 or maple_ins * 4 > routing_ins:
            raise AssertionError(f"{maple_ins} PACKET_INs for {CONNECTIONS} connections under Maple (routing:"
                                 f" {routing_ins}): wildcard rules should make it a handful, whatever the count")

        if reachable(net, src, dst, 23):
            raise AssertionError("telnet from h1 to h3 connected under the no-telnet policy")
        if not reachable(net, src, dst, 5001):
            raise AssertionError("port 5001 no longer connects after the telnet attempt")
        drops = [line for line in net.dump_flows().splitlines()
                 if MAPLE_COOKIE in line and "tp_dst=23" in line and "actions=drop" in line]
        if len(drops) != len(net.spec.switches):
            raise AssertionError(f"want a telnet drop rule on each of the 4 switches, found: {drops}")
        steps.append("telnet dropped by a rule on every switch, port 5001 still connects")
        print("  beacon:maple\n" + c.console("beacon:maple"), flush=True)

        # Stopped, Maple deletes its rules and routing takes over.
        c.command(f"stop {bundle}")
        c.wait_bundle_state(EXAMPLES_BSN, "RESOLVED")
        ovsenv.wait_until(lambda: MAPLE_COOKIE not in net.dump_flows(), 5, "Maple's rules deleted")
        if not reachable(net, src, dst, 23):
            raise AssertionError("Maple stopped: telnet from h1 to h3 is still refused")
        steps.append("policy stopped: its rules gone, routing forwards telnet again")
    finally:
        for s in servers:
            s.kill()
            s.wait()
        if bundle is not None:
            c.command(f"uninstall {bundle}")
    return "; ".join(steps)
