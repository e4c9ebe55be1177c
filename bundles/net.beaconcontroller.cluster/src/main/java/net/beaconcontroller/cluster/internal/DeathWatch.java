package net.beaconcontroller.cluster.internal;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.EndpointQualifier;
import com.hazelcast.instance.impl.HazelcastInstanceImpl;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;

/**
 * Tells Hazelcast at once of a member whose process is gone. Hazelcast suspects a member only after several failed
 * reconnections, paced by its heartbeats: a kill -9 took 3-4 s to notice, which is most of the 2 s a switch may go
 * without a master. A member whose connection to this one has closed and whose cluster port now refuses connections
 * has no process listening there: that is as certain as a death gets, and it is suspected at once. A member that is
 * frozen or cut off by the network still answers or times out, never refuses, and is left to the heartbeats
 * ({@code cluster.failureTimeout}).
 *
 * <p>This reaches into Hazelcast's internal API (the node, its connection manager and cluster service), which the
 * Hazelcast bundle exports; nothing else in Beacon does.
 */
final class DeathWatch {
    private static final Logger log = LoggerFactory.getLogger(DeathWatch.class);
    /** A process that is gone refuses at once; a member that is frozen or cut off makes a probe wait this long. */
    private static final int CONNECT_TIMEOUT_MILLIS = 50;
    /** A member that did not refuse is probed again only after this, so that one cut off costs the thread little. */
    private static final long REPROBE_NANOS = 1_000_000_000L;

    private final HazelcastInstance hz;
    /** When each member without a connection was last probed (System.nanoTime); the calling thread's own. */
    private final Map<UUID, Long> probed = new HashMap<>();

    DeathWatch(HazelcastInstance hz) {
        this.hz = hz;
    }

    /** The coordinator thread, every few hundred milliseconds. */
    void check() {
        if (!(hz instanceof HazelcastInstanceProxy proxy)) {
            return;
        }
        HazelcastInstanceImpl impl = proxy.getOriginal();
        if (impl == null) {
            return;
        }
        var node = impl.node;
        var connections = node.getServer().getConnectionManager(EndpointQualifier.MEMBER);
        var members = hz.getCluster().getMembers();
        probed.keySet().retainAll(members.stream().map(m -> m.getUuid()).toList());
        long now = System.nanoTime();
        for (var m : members) {
            if (m.localMember()) {
                continue;
            }
            var connection = connections.get(m.getAddress());
            if (connection != null && connection.isAlive()) {
                probed.remove(m.getUuid());
                continue;
            }
            var last = probed.get(m.getUuid());
            if (last != null && now - last < REPROBE_NANOS) {
                continue;
            }
            probed.put(m.getUuid(), now);
            if (refused(new InetSocketAddress(m.getAddress().getHost(), m.getAddress().getPort()))) {
                log.warn("cluster: member {} refuses connections: its process is gone; it leaves the cluster now",
                        m.getAddress());
                node.getClusterService().suspectMember(m, "its process is gone (connection refused)", true);
            }
        }
    }

    private static boolean refused(InetSocketAddress address) {
        try (var s = new Socket()) {
            s.connect(address, CONNECT_TIMEOUT_MILLIS);
            return false;
        } catch (ConnectException e) {
            return true;
        } catch (IOException e) {
            return false; // a timeout or an unreachable network: frozen or cut off, for the heartbeats to judge
        }
    }
}
