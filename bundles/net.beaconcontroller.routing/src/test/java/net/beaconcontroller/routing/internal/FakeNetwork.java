package net.beaconcontroller.routing.internal;

import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.routing.Hop;
import net.beaconcontroller.routing.IRoutingEngine;
import net.beaconcontroller.routing.RouteChanges;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * Fakes of the services routing uses: a topology of given links and broadcast ports, a device manager of given hosts
 * (and its listener leaving them in the context), a breadth-first routing engine over the topology's links that
 * reports the changed pairs, and a recorder of what routing writes to which switch, in order.
 */
final class FakeNetwork {
    final Set<Link> links = ConcurrentHashMap.newKeySet();
    final Map<Long, Set<Integer>> broadcastPorts = new ConcurrentHashMap<>();
    final Map<Long, Device> hosts = new ConcurrentHashMap<>();
    /** "dpid TYPE" for every message routing wrote, "dpid flush" for every flush, in call order. */
    final List<String> writes = new CopyOnWriteArrayList<>();

    void cable(long a, int aPort, long b, int bPort) {
        links.add(Link.of(a, aPort, b, bPort));
        links.add(Link.of(b, bPort, a, aPort));
    }

    Device host(long mac, long dpid, int port, int... ips) {
        var ipv4 = new HashSet<Integer>();
        for (int ip : ips) {
            ipv4.add(ip);
        }
        var d = new Device(mac, Device.NO_VLAN, ipv4, new SwitchPort(dpid, port), Instant.EPOCH, Instant.EPOCH);
        hosts.put(mac, d);
        return d;
    }

    final ITopology topology = new ITopology() {
        @Override
        public Map<Link, Instant> getLinks() {
            return links.stream().collect(Collectors.toMap(l -> l, l -> Instant.EPOCH));
        }

        @Override
        public boolean isEdgePort(long dpid, int port) {
            return links.stream().noneMatch(l -> l.src().equals(new SwitchPort(dpid, port)));
        }

        @Override
        public Set<Set<Long>> getIslands() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Set<Integer> getBroadcastPorts(long dpid) {
            return broadcastPorts.getOrDefault(dpid, Set.of());
        }

        @Override
        public boolean isSettled() {
            return true;
        }
    };

    final IDeviceManager devices = new IDeviceManager() {
        @Override
        public Collection<Device> getDevices() {
            return List.copyOf(hosts.values());
        }

        @Override
        public Optional<Device> getDevice(long mac, int vlan) {
            return Optional.ofNullable(hosts.get(mac)).filter(d -> d.vlan() == vlan);
        }

        @Override
        public Collection<Device> getDevicesByMac(long mac) {
            return Optional.ofNullable(hosts.get(mac)).stream().toList();
        }

        @Override
        public Collection<Device> getDevicesByIpv4(int ipv4) {
            return hosts.values().stream().filter(d -> d.ipv4().contains(ipv4)).toList();
        }

        @Override
        public Collection<Device> getDevicesAt(SwitchPort port) {
            return hosts.values().stream().filter(d -> d.attachment().equals(port)).toList();
        }

        @Override
        public Collection<Device> getDevicesOn(long dpid) {
            return hosts.values().stream().filter(d -> d.attachment().dpid() == dpid).toList();
        }
    };

    /** What the device manager does for routing: the frame's source and destination hosts in the context. */
    final IOFMessageListener deviceTagger = new IOFMessageListener() {
        @Override
        public String getName() {
            return "devicemanager";
        }

        @Override
        public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
            var f = ctx.frame();
            Optional.ofNullable(hosts.get(f.dlSrc())).ifPresent(d -> ctx.put(IDeviceManager.SRC_DEVICE, d));
            Optional.ofNullable(hosts.get(f.dlDst())).ifPresent(d -> ctx.put(IDeviceManager.DST_DEVICE, d));
            return Command.CONTINUE;
        }
    };

    /** Shortest paths by breadth-first search, links tried in (switch, port) order: deterministic. */
    final class BfsEngine implements IRoutingEngine {
        @Override
        public List<Hop> getRoute(SwitchPort src, SwitchPort dst) {
            var path = getPath(src.dpid(), dst.dpid());
            if (path.isEmpty()) {
                return List.of();
            }
            var hops = new ArrayList<Hop>();
            int in = src.port();
            for (var link : path.get()) {
                hops.add(new Hop(link.src().dpid(), in, link.src().port()));
                in = link.dst().port();
            }
            hops.add(new Hop(dst.dpid(), in, dst.port()));
            return hops;
        }

        @Override
        public Optional<List<Link>> getPath(long srcDpid, long dstDpid) {
            var sorted = links.stream().sorted(Comparator.comparingLong((Link l) -> l.src().dpid())
                    .thenComparingInt(l -> l.src().port())).toList();
            var via = new HashMap<Long, Link>();
            var queue = new ArrayDeque<Long>(List.of(srcDpid));
            var seen = new HashSet<Long>(List.of(srcDpid));
            while (!queue.isEmpty()) {
                long at = queue.poll();
                for (var l : sorted) {
                    if (l.src().dpid() == at && seen.add(l.dst().dpid())) {
                        via.put(l.dst().dpid(), l);
                        queue.add(l.dst().dpid());
                    }
                }
            }
            if (!seen.contains(dstDpid)) {
                return Optional.empty();
            }
            var path = new ArrayList<Link>();
            for (long at = dstDpid; at != srcDpid; at = via.get(at).src().dpid()) {
                path.add(0, via.get(at));
            }
            return Optional.of(path);
        }

        /** Every pair's path now, to compare before and after a change. */
        Map<List<Long>, Optional<List<Link>>> allPaths() {
            var switches = links.stream().map(l -> l.src().dpid()).collect(Collectors.toSet());
            var all = new HashMap<List<Long>, Optional<List<Link>>>();
            for (long s : switches) {
                for (long t : switches) {
                    if (s != t) {
                        all.put(List.of(s, t), getPath(s, t));
                    }
                }
            }
            return all;
        }
    }

    /** The pairs whose path differs between two {@link BfsEngine#allPaths()}. */
    static RouteChanges changes(Map<List<Long>, Optional<List<Link>>> before,
            Map<List<Long>, Optional<List<Link>>> after) {
        var keys = new HashSet<>(before.keySet());
        keys.addAll(after.keySet());
        var changed = keys.stream()
                .filter(k -> !before.getOrDefault(k, Optional.empty()).equals(after.getOrDefault(k, Optional.empty())))
                .collect(Collectors.toSet());
        return new RouteChanges() {
            @Override
            public boolean contains(long srcDpid, long dstDpid) {
                return changed.contains(List.of(srcDpid, dstDpid));
            }

            @Override
            public int size() {
                return changed.size();
            }

            @Override
            public void forEach(PairConsumer action) {
                changed.forEach(p -> action.accept(p.get(0), p.get(1)));
            }
        };
    }

    /** The controller as routing sees it, its switches recording into {@link #writes}. */
    IBeaconProvider recording(IBeaconProvider real) {
        return (IBeaconProvider) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {IBeaconProvider.class}, (p, m, args) -> {
                    if (m.getName().equals("getSwitches")) {
                        return real.getSwitches().entrySet().stream()
                                .collect(Collectors.toMap(Map.Entry::getKey, e -> recording(e.getValue())));
                    }
                    return m.invoke(real, args);
                });
    }

    IOFSwitch recording(IOFSwitch real) {
        return (IOFSwitch) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {IOFSwitch.class},
                (p, m, args) -> {
                    if (m.getName().equals("write") && args[0] instanceof OFMessage msg) {
                        writes.add(real.getId() + " " + msg.type());
                    } else if (m.getName().equals("flush")) {
                        writes.add(real.getId() + " flush");
                    }
                    return m.invoke(real, args);
                });
    }

    /** {@code routing} as the controller calls it, with recording switches. */
    IOFMessageListener recorded(Routing routing) {
        return new IOFMessageListener() {
            @Override
            public String getName() {
                return routing.getName();
            }

            @Override
            public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
                return routing.receive(recording(sw), msg, ctx);
            }
        };
    }
}
