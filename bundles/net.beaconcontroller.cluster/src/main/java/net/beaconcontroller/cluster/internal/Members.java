package net.beaconcontroller.cluster.internal;

import java.util.LinkedHashMap;
import java.util.List;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;

/**
 * The members this one sees now, as Hazelcast's member list has them: a local read that never waits for another
 * member, so any thread may ask.
 *
 * @param configured how many distinct members {@code cluster.members} names
 */
record Members(HazelcastInstance hz, int configured) {

    /** The live members' ids, oldest first. */
    List<String> live() {
        return hz.getCluster().getMembers().stream().map(m -> m.getUuid().toString()).toList();
    }

    boolean isOldest() {
        return hz.getCluster().getMembers().iterator().next().localMember();
    }

    /**
     * Whether this member sees a majority of the configured members: only then does the oldest one reassign switches
     * or balance, and only then does a member assert MASTER. A member cut off from it (or a minority of them) then
     * never takes switches from masters that are alive on the other side.
     */
    boolean quorum() {
        return size() >= configured / 2 + 1;
    }

    int size() {
        return hz.getCluster().getMembers().size();
    }

    /** Whether {@code id} is a member this one sees now (itself included). */
    boolean contains(String id) {
        return find(id) != null;
    }

    /** A member's {@code host:port}, or a short form of its id once it has left. */
    String describe(String id) {
        var m = find(id);
        return m != null ? address(m) : id.length() > 8 ? id.substring(0, 8) : id;
    }

    /** A member named by its id, a unique id prefix or its {@code host:port}. */
    String resolve(String name) {
        var matches = new LinkedHashMap<String, String>();
        for (var m : hz.getCluster().getMembers()) {
            var id = m.getUuid().toString();
            var address = address(m);
            if (id.equals(name) || address.equals(name)) {
                return id;
            }
            if (id.startsWith(name)) {
                matches.put(id, address);
            }
        }
        if (matches.size() != 1) {
            throw new IllegalArgumentException(matches.isEmpty() ? "no member " + name
                    : "member " + name + " is ambiguous: " + matches.values());
        }
        return matches.keySet().iterator().next();
    }

    static String address(Member m) {
        return m.getAddress().getHost() + ":" + m.getAddress().getPort();
    }

    private Member find(String id) {
        for (var m : hz.getCluster().getMembers()) {
            if (m.getUuid().toString().equals(id)) {
                return m;
            }
        }
        return null;
    }
}
