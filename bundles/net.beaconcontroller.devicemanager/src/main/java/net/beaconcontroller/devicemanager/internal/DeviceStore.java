package net.beaconcontroller.devicemanager.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The hosts and their indexes, readable from any thread without locks.
 *
 * <p>Consistency: the map by (MAC, VLAN) holds the truth. A change to one host runs inside that map's
 * {@link ConcurrentHashMap#compute} for the host's key, and the secondary indexes are updated inside the same call, so
 * two threads changing the same host take turns and the indexes see its changes in order; different hosts never wait
 * for each other unless they share a hash bin. Locks are taken in one order only (host, then port, then switch), so
 * there is no deadlock. A reader may find a key in a secondary index a moment before or after the host's record
 * agrees with it, so every look-up through an index checks the record it finds.
 *
 * <p>Memory and speed: an index entry (the hosts with one MAC, one IPv4 address, at one port) is a small immutable set,
 * replaced on change, while it holds up to {@value #SMALL} hosts; beyond, a concurrent set changed in place, so a port
 * with thousands of hosts behind it costs no copying per host.
 */
final class DeviceStore {
    /** A host before and after one update ({@code null} for absent); the same record twice when nothing changed. */
    record Change(Device before, Device after) {
        boolean changed() {
            return before != after;
        }
    }

    /** Index entries up to this size are immutable sets. */
    static final int SMALL = 16;

    private final ConcurrentHashMap<Long, Tracked> byKey = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, Set<Long>> byMac = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Integer, Set<Long>> byIp = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<SwitchPort, Set<Long>> byPort = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, Set<SwitchPort>> portsOf = new ConcurrentHashMap<>();

    /** The key of a host: its 48-bit MAC and its 16-bit VLAN ({@link Device#NO_VLAN} included) in one long. */
    static long key(long mac, int vlan) {
        return mac << 16 | vlan;
    }

    Tracked get(long mac, int vlan) {
        return byKey.get(key(mac, vlan));
    }

    /**
     * Replaces the host's entry by what {@code next} makes of it ({@code null} in, absent; {@code null} out, removed;
     * the same instance out, unchanged), atomically for this host, indexes included. {@code next} runs once, under the
     * host's lock: keep it short and free of calls out.
     */
    Change update(long mac, int vlan, UnaryOperator<Tracked> next) {
        var before = new Device[1];
        Tracked after = byKey.compute(key(mac, vlan), (key, old) -> {
            Tracked now = next.apply(old);
            Device was = old == null ? null : old.device();
            before[0] = was;
            if (now != old) {
                reindex(key, was, now == null ? null : now.device());
            }
            return now;
        });
        return new Change(before[0], after == null ? null : after.device());
    }

    private void reindex(Long key, Device was, Device now) {
        if (was == null) {
            addTo(byMac, now.mac(), key);
        } else if (now == null) {
            removeFrom(byMac, was.mac(), key);
        }
        Set<Integer> oldIps = was == null ? Set.of() : was.ipv4();
        Set<Integer> newIps = now == null ? Set.of() : now.ipv4();
        if (oldIps != newIps) {
            oldIps.stream().filter(ip -> !newIps.contains(ip)).forEach(ip -> removeFrom(byIp, ip, key));
            newIps.stream().filter(ip -> !oldIps.contains(ip)).forEach(ip -> addTo(byIp, ip, key));
        }
        SwitchPort oldAt = was == null ? null : was.attachment();
        SwitchPort newAt = now == null ? null : now.attachment();
        if (!Objects.equals(oldAt, newAt)) {
            if (oldAt != null) {
                leavePort(oldAt, key);
            }
            if (newAt != null) {
                joinPort(newAt, key);
            }
        }
    }

    private static <K> void addTo(ConcurrentHashMap<K, Set<Long>> index, K at, Long key) {
        index.compute(at, (k, keys) -> plus(keys, key));
    }

    private static <K> void removeFrom(ConcurrentHashMap<K, Set<Long>> index, K at, Long key) {
        index.computeIfPresent(at, (k, keys) -> minus(keys, key));
    }

    private void joinPort(SwitchPort port, Long key) {
        byPort.compute(port, (p, keys) -> {
            if (keys == null) {
                portsOf.computeIfAbsent(p.dpid(), d -> ConcurrentHashMap.newKeySet()).add(p);
            }
            return plus(keys, key);
        });
    }

    private void leavePort(SwitchPort port, Long key) {
        byPort.computeIfPresent(port, (p, keys) -> {
            Set<Long> left = minus(keys, key);
            if (left == null) {
                portsOf.computeIfPresent(p.dpid(), (d, ports) -> {
                    ports.remove(p);
                    return ports.isEmpty() ? null : ports;
                });
            }
            return left;
        });
    }

    /** An index entry with {@code key} added: small ones are replaced, large ones changed in place. */
    private static Set<Long> plus(Set<Long> keys, Long key) {
        if (keys == null) {
            return Set.of(key);
        }
        if (keys instanceof ConcurrentHashMap.KeySetView<?, ?>) {
            keys.add(key);
            return keys;
        }
        if (keys.contains(key)) {
            return keys;
        }
        if (keys.size() < SMALL) {
            var more = new ArrayList<>(keys);
            more.add(key);
            return Set.copyOf(more);
        }
        Set<Long> large = ConcurrentHashMap.newKeySet();
        large.addAll(keys);
        large.add(key);
        return large;
    }

    /** An index entry without {@code key}, or {@code null} when none is left. */
    private static Set<Long> minus(Set<Long> keys, Long key) {
        if (keys instanceof ConcurrentHashMap.KeySetView<?, ?>) {
            keys.remove(key);
            return keys.isEmpty() ? null : keys;
        }
        if (!keys.contains(key)) {
            return keys;
        }
        var fewer = new ArrayList<>(keys);
        fewer.remove(key);
        return fewer.isEmpty() ? null : Set.copyOf(fewer);
    }

    // ------------------------------------------------------------------------------------------------ look-ups

    int size() {
        return byKey.size();
    }

    Collection<Tracked> entries() {
        return byKey.values();
    }

    List<Device> all() {
        return byKey.values().stream().map(Tracked::device).toList();
    }

    List<Device> withMac(long mac) {
        return devices(byMac.get(mac), d -> true);
    }

    List<Device> withIp(int ip) {
        return devices(byIp.get(ip), d -> d.ipv4().contains(ip));
    }

    List<Device> at(SwitchPort port) {
        return devices(byPort.get(port), d -> d.attachment().equals(port));
    }

    List<Device> on(long dpid) {
        var ports = portsOf.get(dpid);
        if (ports == null) {
            return List.of();
        }
        var found = new ArrayList<Device>();
        ports.forEach(p -> found.addAll(at(p)));
        return found;
    }

    /** A host on {@code vlan} using {@code ip}, or {@code null}: the destination of an ARP request. */
    Device find(int ip, int vlan) {
        var keys = byIp.get(ip);
        if (keys == null) {
            return null;
        }
        for (Long key : keys) {
            Tracked t = byKey.get(key);
            if (t != null && t.device().vlan() == vlan && t.device().ipv4().contains(ip)) {
                return t.device();
            }
        }
        return null;
    }

    private List<Device> devices(Set<Long> keys, java.util.function.Predicate<Device> stillTrue) {
        if (keys == null) {
            return List.of();
        }
        var found = new ArrayList<Device>(keys.size());
        for (Long key : keys) {
            Tracked t = byKey.get(key);
            if (t != null && stillTrue.test(t.device())) {
                found.add(t.device());
            }
        }
        return found;
    }

    /** Every index entry points at a host whose record agrees, and every host is in every index it belongs to. */
    List<String> inconsistencies() {
        var problems = new ArrayList<String>();
        byKey.forEach((key, t) -> {
            Device d = t.device();
            if (key != key(d.mac(), d.vlan())) {
                problems.add("key " + Long.toHexString(key) + " holds " + d);
            }
            if (!byMac.getOrDefault(d.mac(), Set.of()).contains(key)) {
                problems.add("not indexed by MAC: " + d);
            }
            d.ipv4().forEach(ip -> {
                if (!byIp.getOrDefault(ip, Set.of()).contains(key)) {
                    problems.add("not indexed by IP " + ip + ": " + d);
                }
            });
            if (!byPort.getOrDefault(d.attachment(), Set.of()).contains(key)
                    || !portsOf.getOrDefault(d.attachment().dpid(), Set.of()).contains(d.attachment())) {
                problems.add("not indexed by port: " + d);
            }
        });
        byMac.forEach((mac, keys) -> keys.forEach(key -> {
            if (!byKey.containsKey(key)) {
                problems.add("MAC index holds a removed host " + Long.toHexString(key));
            }
        }));
        byIp.forEach((ip, keys) -> keys.forEach(key -> {
            Tracked t = byKey.get(key);
            if (t == null || !t.device().ipv4().contains(ip)) {
                problems.add("IP index holds a stale host " + Long.toHexString(key) + " for " + ip);
            }
        }));
        byPort.forEach((port, keys) -> keys.forEach(key -> {
            Tracked t = byKey.get(key);
            if (t == null || !t.device().attachment().equals(port)) {
                problems.add("port index holds a stale host " + Long.toHexString(key) + " at " + port);
            }
        }));
        return problems;
    }
}
