"""Maple end to end (issue 27): the example policy bundle (shortest path, telnet dropped) installed at runtime beside
routing in Beacon's default configuration, on a ring of four switches. Maple goes before routing in the PACKET_IN
pipeline and, while a policy runs, decides every packet; stopped, it deletes its rules and routing forwards again."""

import subprocess
import time

import ovsenv
import rest
from firewall_e2e import connections, pipeline_calls

MAPLE_COOKIE = "cookie=0xbe06"
ROUTING_COOKIE = "cookie=0xbe01"
EXAMPLES_BSN = "net.beaconcontroller.maple.examples"
# New TCP connections between the same two hosts for the PACKET_IN count: twice, to show how it grows.
CONNECTIONS = (10, 50)
# Seconds for a ping to get through again after a link failure or a host move.
BOUND = 10


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


def connection_cost(net, api, listener, src, dst, cookie, fresh):
    """For each count of CONNECTIONS, new connections after `fresh()` (empty tables; for Maple an empty tree too)
    and a ping (ARP done): the PACKET_INs reaching `listener` and the flows with `cookie` after them."""
    costs = []
    for n in CONNECTIONS:
        fresh()
        if not net.ping_retry(src, dst):
            raise AssertionError(f"{src.name} -> {dst.name} unreachable")
        before = pipeline_calls(api, listener)
        ok = connections(net, src, dst, n)
        packet_ins = int(pipeline_calls(api, listener) - before)
        if ok != n:
            raise AssertionError(f"{listener}: {ok}/{n} connections established")
        costs.append((n, packet_ins, net.dump_flows().count(cookie)))
    return costs


def start_policy(ctx, net, bundle):
    """Starts the example bundle and waits for Maple to run its policy, from an empty tree."""
    c = ctx.controller
    c.command(f"start {bundle}")
    c.wait_bundle_state(EXAMPLES_BSN, "ACTIVE")
    ovsenv.wait_until(lambda: "policy shortest path" in c.console("beacon:maple"), 10,
                      "beacon:maple naming the example policy")


def stop_policy(ctx, net, bundle):
    """Stops the example bundle; Maple deletes its rules."""
    ctx.controller.command(f"stop {bundle}")
    ctx.controller.wait_bundle_state(EXAMPLES_BSN, "RESOLVED")
    ovsenv.wait_until(lambda: MAPLE_COOKIE not in net.dump_flows(), 5, "Maple's rules deleted")


def describe(costs):
    return ", ".join(f"{n} connections: {ins} PACKET_INs, {flows} flows" for n, ins, flows in costs)


def no_storm(net, seconds=3, bound=100):
    """No broadcast goes round the ring: over `seconds` with no traffic started, no port moves more than `bound`
    packets (LLDP moves a few; a loop thousands a second). Looser than `quiet_ports`, which counts LLDP alone: the
    hosts' ARP refreshes after the connections add a few."""
    before = net.port_packets()
    time.sleep(seconds)
    worst = max(v - before.get(k, 0) for k, v in net.port_packets().items())
    if worst > bound:
        raise AssertionError(f"{worst} packets on a port in {seconds} s of quiet: a broadcast going round the ring?")
    return f"no broadcast circulating (quiet {seconds} s: at most {worst} packets on a port)"


def pings_within(net, src, dst, what):
    """Seconds until `src` gets a reply from `dst`, at most BOUND."""
    t = time.monotonic()
    ovsenv.wait_until(lambda: net.ping(src, dst), BOUND, f"{what}: {src.name} -> {dst.name} answered")
    return time.monotonic() - t


def survives_link_failures(ctx, net, src, dst):
    """Each of the two ways round the ring from `src`'s switch to `dst`'s taken down in turn (and put back): the
    decisions over it are invalidated and the pings take the other way."""
    took = []
    for port in (3, 2):  # s1's link to s2, then to s4
        net.dirty = True
        net.set_link(src.switch, port, False)
        took.append(pings_within(net, src, dst, f"{src.switch}/{port} down"))
        net.set_link(src.switch, port, True)
        net.dirty = False
        ctx.network(net.spec)  # the same network, once the ports that came back are out of quarantine
    return "link down either way round: pings again in " + " and ".join(f"{t:.1f}s" for t in took)


def follows_a_move(ctx, net, src, host):
    """`host` moved to port 4 of the next switch and back: reachable from `src` again after each move."""
    home = (host.switch, host.port)
    took = []
    net.dirty = True
    for switch, port in ((net.spec.switches[1], 4), home):
        net.move_host(host, switch, port)
        net.ping(host, src)  # a moved host is silent until it sends something
        took.append(pings_within(net, src, host, f"{host.name} moved to {switch}/{port}"))
    net.dirty = False
    return f"{host.name} moved and back: reachable again in " + " and ".join(f"{t:.1f}s" for t in took)


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
        routing = connection_cost(net, api, "routing", src, dst, ROUTING_COOKIE, net.del_flows)
        steps.append("routing: " + describe(routing))

        bundle = c.install(ctx.args.maple_jar.resolve().as_uri(), EXAMPLES_BSN)
        net.del_flows()
        start_policy(ctx, net, bundle)
        steps.append("maple: " + pingall(net))

        def restart():
            stop_policy(ctx, net, bundle)
            start_policy(ctx, net, bundle)
        maple = connection_cost(net, api, "maple", src, dst, MAPLE_COOKIE, restart)
        steps.append("maple: " + describe(maple))
        for (n, ins, _), (_, routed_ins, _) in zip(maple, routing):
            if ins > 10 or ins * 4 > routed_ins:
                raise AssertionError(f"{ins} PACKET_INs for {n} connections under Maple (routing: {routed_ins}):"
                                     " wildcard rules should make it a handful, whatever the count")
        routed = pipeline_calls(api, "routing")

        rules = net.dump_flows().count(MAPLE_COOKIE)
        net.del_flows()
        ovsenv.wait_until(lambda: net.dump_flows().count(MAPLE_COOKIE) >= rules, 2,
                          f"Maple's {rules} rules written again after ovs-ofctl del-flows")
        steps.append(f"its {rules} rules deleted by ovs-ofctl: written again")
        steps.append(no_storm(net))
        steps.append(survives_link_failures(ctx, net, src, dst))
        steps.append(follows_a_move(ctx, net, src, dst))
        if pipeline_calls(api, "routing") != routed:
            raise AssertionError("routing got packets while Maple ran")

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
        stop_policy(ctx, net, bundle)
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
