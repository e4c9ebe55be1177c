package net.beaconcontroller.topology.internal;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * One immutable picture of the topology: the active switches with their ports that are up, the links with when each
 * was first seen, and what follows from them (link ends, islands, a spanning tree per island). Pure: no clock, no
 * I/O; every change makes a new view, so readers on any thread use one without locks.
 *
 * <p>Islands and the spanning tree use only bidirectional links (both directions present): a link seen one way only
 * may be a broken cable, a half-duplex fault or a host relaying probes, and flooding must not rely on it.
 *
 * <p>Broadcast-domain links (a BDDP probe crossed switches Beacon does not manage) are kept apart from the links: they
 * are not told to listeners nor routed over; their ports stay edge ports (hosts behind those switches attach there),
 * but only the ports {@link BroadcastDomains} designates flood. One that an LLDP link ends at does not count: the
 * probe took the cable, not a bridge.
 */
final class TopologyView {
    /**
     * An active switch.
     *
     * @param ports      its physical ports that are up
     * @param quarantine ports that are new (the switch connected, or the port came up), each with the
     *                   {@code System.nanoTime()}-based instant until which it is left out of broadcasts unless
     *                   discovery has put it on the spanning tree: time for its probes to come back
     */
    record SwitchState(Set<Integer> ports, Map<Integer, Long> quarantine) {
        SwitchState {
            ports = Set.copyOf(ports);
            quarantine = Map.copyOf(quarantine);
        }

        /** With {@code these} ports in quarantine until {@code until} at least. */
        SwitchState quarantined(Collection<Integer> these, long until) {
            var q = new HashMap<>(quarantine);
            these.forEach(p -> q.merge(p, until, (a, b) -> b - a > 0 ? b : a));
            return new SwitchState(ports, q);
        }
    }

    static final TopologyView EMPTY = new TopologyView(Map.of(), Map.of(), Set.of());

    /** Unsigned order, as datapath ids are printed; ties between parallel links broken by port numbers. */
    private static final Comparator<Link> LINK_ORDER = Comparator.comparing((Link l) -> l.dst().dpid(),
            Long::compareUnsigned).thenComparingInt(l -> l.src().port()).thenComparingInt(l -> l.dst().port());

    private final Map<Long, SwitchState> switches;
    private final Map<Link, Instant> links;
    private final Set<SwitchPort> linkEnds;
    private final Map<Long, Set<Long>> islandOf;
    private final Set<Set<Long>> islands;
    private final Set<Link> tree;
    private final Map<Long, Set<Integer>> treePorts;
    private final Set<Link> domainLinks;
    private final BroadcastDomains domains;

    TopologyView(Map<Long, SwitchState> switches, Map<Link, Instant> links) {
        this(switches, links, Set.of());
    }

    /** @param domainLinks broadcast-domain links; those whose ends are not both up or end an LLDP link are dropped */
    TopologyView(Map<Long, SwitchState> switches, Map<Link, Instant> links, Set<Link> domainLinks) {
        this.switches = Map.copyOf(switches);
        this.links = Map.copyOf(links);
        var ends = new HashSet<SwitchPort>();
        var adjacency = new HashMap<Long, List<Link>>();
        for (Link l : this.links.keySet()) {
            ends.add(l.src());
            ends.add(l.dst());
            if (this.links.containsKey(l.reverse()) && this.switches.containsKey(l.src().dpid())
                    && this.switches.containsKey(l.dst().dpid())) {
                adjacency.computeIfAbsent(l.src().dpid(), k -> new ArrayList<>()).add(l);
            }
        }
        adjacency.values().forEach(list -> list.sort(LINK_ORDER));
        linkEnds = Set.copyOf(ends);

        var byIsland = new HashMap<Long, Set<Long>>();
        var allIslands = new HashSet<Set<Long>>();
        var treeLinks = new HashSet<Link>();
        var portsOnTree = new HashMap<Long, Set<Integer>>();
        var ordered = new TreeSet<Long>(Long::compareUnsigned);
        ordered.addAll(this.switches.keySet());
        for (long root : ordered) {
            if (byIsland.containsKey(root)) {
                continue;
            }
            // BFS from the island's lowest dpid over sorted adjacency: the same links always give the same tree.
            var members = new HashSet<Long>();
            var queue = new ArrayDeque<Long>();
            members.add(root);
            queue.add(root);
            while (!queue.isEmpty()) {
                long u = queue.poll();
                for (Link l : adjacency.getOrDefault(u, List.of())) {
                    long v = l.dst().dpid();
                    if (members.add(v)) {
                        queue.add(v);
                        treeLinks.add(l);
                        portsOnTree.computeIfAbsent(u, k -> new HashSet<>()).add(l.src().port());
                        portsOnTree.computeIfAbsent(v, k -> new HashSet<>()).add(l.dst().port());
                    }
                }
            }
            var island = Set.copyOf(members);
            allIslands.add(island);
            members.forEach(m -> byIsland.put(m, island));
        }
        islandOf = Map.copyOf(byIsland);
        islands = Set.copyOf(allIslands);
        tree = Set.copyOf(treeLinks);
        var frozen = new HashMap<Long, Set<Integer>>();
        portsOnTree.forEach((k, v) -> frozen.put(k, Set.copyOf(v)));
        treePorts = Map.copyOf(frozen);
        this.domainLinks = Set.copyOf(domainLinks.stream().filter(l -> hasPort(l.src()) && hasPort(l.dst())
                && !linkEnds.contains(l.src()) && !linkEnds.contains(l.dst())).toList());
        domains = BroadcastDomains.of(this.domainLinks, islandOf);
    }

    Map<Long, SwitchState> switches() {
        return switches;
    }

    Map<Link, Instant> links() {
        return links;
    }

    /** The broadcast-domain links that count: both ends up, neither an LLDP link's. */
    Set<Link> domainLinks() {
        return domainLinks;
    }

    /** Whether {@code p} ends a broadcast-domain link (it is an edge port too). */
    boolean isDomainPort(SwitchPort p) {
        return domains.ports().contains(p);
    }

    /** Whether {@code a} and {@code b} are ports of one broadcast domain. */
    boolean inOneDomain(SwitchPort a, SwitchPort b) {
        return domains.together(a, b);
    }

    /** Whether an LLDP link, either way, ends at {@code p}. */
    boolean endsLink(SwitchPort p) {
        return linkEnds.contains(p);
    }

    boolean hasPort(SwitchPort p) {
        var s = switches.get(p.dpid());
        return s != null && s.ports().contains(p.port());
    }

    boolean isBidirectional(Link l) {
        return links.containsKey(l) && links.containsKey(l.reverse());
    }

    boolean isEdgePort(long dpid, int port) {
        var s = switches.get(dpid);
        return s != null && s.ports().contains(port) && !linkEnds.contains(new SwitchPort(dpid, port));
    }

    Set<Set<Long>> islands() {
        return islands;
    }

    /** The island of {@code dpid}; empty when it is not an active switch. */
    Set<Long> island(long dpid) {
        return islandOf.getOrDefault(dpid, Set.of());
    }

    /** The spanning tree's links, each once, directed from the parent (nearer the island's lowest dpid) to the child. */
    Set<Link> tree() {
        return tree;
    }

    /**
     * Edge ports plus spanning-tree ports, whether or not the island has settled; of the ports of a broadcast domain,
     * the designated ones only.
     */
    Set<Integer> floodPorts(long dpid) {
        var s = switches.get(dpid);
        if (s == null) {
            return Set.of();
        }
        var result = new HashSet<>(treePorts.getOrDefault(dpid, Set.of()));
        for (int p : s.ports()) {
            var sp = new SwitchPort(dpid, p);
            if (!linkEnds.contains(sp) && (!domains.ports().contains(sp) || domains.designated().contains(sp))) {
                result.add(p);
            }
        }
        return Set.copyOf(result);
    }

    /**
     * {@link #floodPorts} without the ports still in quarantine at {@code now}: only a switch's new ports wait for
     * their probes, the rest of its island keeps flooding.
     */
    Set<Integer> broadcastPorts(long dpid, long now) {
        var ports = floodPorts(dpid);
        if (ports.isEmpty()) {
            return ports;
        }
        var quarantine = switches.get(dpid).quarantine();
        if (quarantine.isEmpty()) {
            return ports;
        }
        var onTree = treePorts.getOrDefault(dpid, Set.of());
        var result = new HashSet<>(ports);
        // A designated port of a broadcast domain is known to face bridges, as a tree port faces a switch.
        result.removeIf(p -> !onTree.contains(p) && !domains.designated().contains(new SwitchPort(dpid, p))
                && inQuarantine(quarantine, p, now));
        return Set.copyOf(result);
    }

    /** The ports in quarantine at {@code now}, on the spanning tree or not. */
    Set<SwitchPort> quarantined(long now) {
        var result = new HashSet<SwitchPort>();
        switches.forEach((dpid, s) -> s.quarantine().forEach((port, until) -> {
            if (until - now > 0) {
                result.add(new SwitchPort(dpid, port));
            }
        }));
        return result;
    }

    /** Whether {@code port} is in quarantine at {@code now}. */
    boolean isQuarantined(SwitchPort port, long now) {
        var s = switches.get(port.dpid());
        return s != null && inQuarantine(s.quarantine(), port.port(), now);
    }

    /** When {@code port}'s quarantine ends (maybe already), or null if it has none. */
    Long quarantineEnd(SwitchPort port) {
        var s = switches.get(port.dpid());
        return s == null ? null : s.quarantine().get(port.port());
    }

    /** Whether discovery has settled: there are switches and no port is in quarantine at {@code now}. */
    boolean isSettled(long now) {
        return !switches.isEmpty() && switches.values().stream()
                .allMatch(s -> s.quarantine().values().stream().allMatch(t -> t - now <= 0));
    }

    private static boolean inQuarantine(Map<Integer, Long> quarantine, int port, long now) {
        var until = quarantine.get(port);
        return until != null && until - now > 0;
    }

    // ------------------------------------------------------------------------------------------ changed copies

    /**
     * With {@code dpid} active on {@code ports}, each in quarantine until {@code quarantineUntil}; links at ports it
     * no longer has are dropped.
     */
    TopologyView withSwitch(long dpid, Set<Integer> ports, long quarantineUntil) {
        var s = new HashMap<>(switches);
        var quarantine = new HashMap<Integer, Long>();
        ports.forEach(p -> quarantine.put(p, quarantineUntil));
        s.put(dpid, new SwitchState(ports, quarantine));
        var l = new HashMap<>(links);
        l.keySet().removeIf(k -> lost(k.src(), dpid, ports) || lost(k.dst(), dpid, ports));
        return new TopologyView(s, l, domainLinks);
    }

    /**
     * Without {@code dpid} and its links; the ports at the far ends of those links, still up, go into quarantine until
     * {@code quarantineUntil}: they are edge ports now, and the switch may come back cabled as before.
     */
    TopologyView withoutSwitch(long dpid, long quarantineUntil) {
        if (!switches.containsKey(dpid)) {
            return this;
        }
        var s = new HashMap<>(switches);
        s.remove(dpid);
        var gone = links.keySet().stream().filter(k -> k.src().dpid() == dpid || k.dst().dpid() == dpid).toList();
        var l = new HashMap<>(links);
        l.keySet().removeAll(gone);
        quarantineEnds(s, gone, quarantineUntil);
        return new TopologyView(s, l, domainLinks);
    }

    /**
     * With {@code port} up on an active switch and in quarantine until {@code quarantineUntil}: it is not flooded to
     * before its probes had the time to find a link there (a new cable may close a loop).
     */
    TopologyView withPort(long dpid, int port, long quarantineUntil) {
        var old = switches.get(dpid);
        if (old == null) {
            return this;
        }
        var ports = new HashSet<>(old.ports());
        ports.add(port);
        var quarantine = new HashMap<>(old.quarantine());
        quarantine.put(port, quarantineUntil);
        var s = new HashMap<>(switches);
        s.put(dpid, new SwitchState(ports, quarantine));
        return new TopologyView(s, links, domainLinks);
    }

    /** Without {@code port} and every link ending there. */
    TopologyView withoutPort(long dpid, int port) {
        var old = switches.get(dpid);
        if (old == null) {
            return this;
        }
        var ports = new HashSet<>(old.ports());
        ports.remove(port);
        var quarantine = new HashMap<>(old.quarantine());
        quarantine.remove(port);
        var s = new HashMap<>(switches);
        s.put(dpid, new SwitchState(ports, quarantine));
        var at = new SwitchPort(dpid, port);
        var l = new HashMap<>(links);
        l.keySet().removeIf(k -> k.src().equals(at) || k.dst().equals(at));
        return new TopologyView(s, l, domainLinks);
    }

    TopologyView withLink(Link link, Instant firstSeen) {
        var l = new HashMap<>(links);
        l.put(link, firstSeen);
        return new TopologyView(switches, l, domainLinks);
    }

    /** With the broadcast-domain link {@code link} (the constructor drops it if it does not count). */
    TopologyView withDomainLink(Link link) {
        var d = new HashSet<>(domainLinks);
        d.add(link);
        return new TopologyView(switches, links, d);
    }

    /**
     * Without the broadcast-domain links {@code gone} (they timed out); their ends, still up, go into quarantine until
     * {@code quarantineUntil}, as those of a link that timed out: the bridge may still be there, its probes lost.
     */
    TopologyView withoutDomainLinks(Collection<Link> gone, long quarantineUntil) {
        var d = new HashSet<>(domainLinks);
        d.removeAll(gone);
        var s = new HashMap<>(switches);
        quarantineEnds(s, gone, quarantineUntil);
        return new TopologyView(s, links, d);
    }

    /**
     * Without the links {@code gone} (they timed out); their ends, still up, go into quarantine until
     * {@code quarantineUntil}: a link that timed out although its cable is there (probes lost or late) would otherwise
     * make both its ports edge ports at once, and close a loop.
     */
    TopologyView withoutLinks(Collection<Link> gone, long quarantineUntil) {
        var l = new HashMap<>(links);
        l.keySet().removeAll(gone);
        var s = new HashMap<>(switches);
        quarantineEnds(s, gone, quarantineUntil);
        return new TopologyView(s, l, domainLinks);
    }

    /** With each of {@code ports} that is up in quarantine until its deadline at least. */
    TopologyView withPortsQuarantined(Map<SwitchPort, Long> ports) {
        var s = new HashMap<>(switches);
        ports.forEach((p, until) -> quarantineIfUp(s, p, until));
        return new TopologyView(s, links, domainLinks);
    }

    /** Without the quarantine of each of {@code ports} that still ends at its deadline: nothing extended it since. */
    TopologyView withQuarantineEnded(Map<SwitchPort, Long> ports) {
        var s = new HashMap<>(switches);
        ports.forEach((p, until) -> {
            var st = s.get(p.dpid());
            if (st != null && until.equals(st.quarantine().get(p.port()))) {
                var q = new HashMap<>(st.quarantine());
                q.remove(p.port());
                s.put(p.dpid(), new SwitchState(st.ports(), q));
            }
        });
        return new TopologyView(s, links, domainLinks);
    }

    /** Without the quarantine entries that ended before {@code now}; {@code this} if there are none. */
    TopologyView withoutEndedQuarantine(long now) {
        var s = new HashMap<>(switches);
        boolean changed = false;
        for (var e : switches.entrySet()) {
            var q = e.getValue().quarantine();
            if (q.values().stream().anyMatch(t -> t - now <= 0)) {
                var kept = new HashMap<>(q);
                kept.values().removeIf(t -> t - now <= 0);
                s.put(e.getKey(), new SwitchState(e.getValue().ports(), kept));
                changed = true;
            }
        }
        return changed ? new TopologyView(s, links, domainLinks) : this;
    }

    private static void quarantineEnds(Map<Long, SwitchState> switches, Collection<Link> gone, long until) {
        for (var link : gone) {
            quarantineIfUp(switches, link.src(), until);
            quarantineIfUp(switches, link.dst(), until);
        }
    }

    private static void quarantineIfUp(Map<Long, SwitchState> switches, SwitchPort port, long until) {
        var st = switches.get(port.dpid());
        if (st != null && st.ports().contains(port.port())) {
            switches.put(port.dpid(), st.quarantined(List.of(port.port()), until));
        }
    }

    private static boolean lost(SwitchPort end, long dpid, Set<Integer> ports) {
        return end.dpid() == dpid && !ports.contains(end.port());
    }
}
