package net.beaconcontroller.cluster.internal;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.EndpointQualifier;

/**
 * Tells Hazelcast at once of a member whose process is gone. Hazelcast suspects a member only after several failed
 * reconnections, paced by its heartbeats: a kill -9 took 3-4 s to notice, which is most of the 2 s a switch may go
 * without a master. A member whose connection to this one has closed and whose cluster port now refuses connections,
 * on two checks in a row, has no process listening there: that is as certain as a death gets, and it is suspected at
 * once. A member that is frozen or cut off by the network still answers or times out, never refuses, and is left to
 * the heartbeats ({@code cluster.failureTimeout}).
 *
 * <p>This reaches into Hazelcast's internal API (the node's connection manager and cluster service, see
 * {@link Internals}).
 */
final class DeathWatch {
    private static final Logger log = LoggerFactory.getLogger(DeathWatch.class);
    /** A process that is gone refuses at once; a member that is frozen or cut off makes a probe wait this long. */
    private static final int CONNECT_TIMEOUT_MILLIS = 50;
    /** A member that did not refuse is probed again only after this, so that one cut off costs the thread little. */
    private static final long REPROBE_NANOS = 1_000_000_000L;

    private final HazelcastInstance hz;
    private final long periodMillis;
    private final Refusals refusals = new Refusals();

    DeathWatch(HazelcastInstance hz, long periodMillis) {
        this.hz = hz;
        this.periodMillis = periodMillis;
    }

    /** The coordinator thread, every {@code periodMillis}. */
    void check() {
        var node = Internals.node(hz);
        if (node == null) {
            return;
        }
        var connections = node.getServer().getConnectionManager(EndpointQualifier.MEMBER);
        var members = hz.getCluster().getMembers();
        refusals.retain(members.stream().map(m -> m.getUuid()).toList());
        long now = System.nanoTime();
        for (var m : members) {
            var id = m.getUuid();
            if (m.localMember()) {
                continue;
            }
            var connection = connections.get(m.getAddress());
            if (connection != null && connection.isAlive()) {
                refusals.connected(id);
                continue;
            }
            if (!refusals.due(id, now)) {
                continue;
            }
            var refusal = refusal(new InetSocketAddress(m.getAddress().getHost(), m.getAddress().getPort()));
            if (refusals.dead(id, refusal)) {
                log.warn("cluster: member {} refuses connections ({}, twice {} ms apart): its process is gone; it"
                        + " leaves the cluster now", m.getAddress(), refusal, periodMillis);
                node.getClusterService().suspectMember(m, "its process is gone (connection refused)", true);
            }
        }
    }

    /** Why a connection to {@code address} was refused; {@code null} if it was not. */
    private static String refusal(InetSocketAddress address) {
        try (var s = new Socket()) {
            s.connect(address, CONNECT_TIMEOUT_MILLIS);
            return null;
        } catch (ConnectException e) {
            return e.getMessage();
        } catch (IOException e) {
            return null; // a timeout or an unreachable network: frozen or cut off, for the heartbeats to judge
        }
    }

    /**
     * When to probe a member that has no live connection, and when its refusals add up to a death: two checks in a
     * row. One refusal is not enough: fault-injection runs saw a live member's port refuse a probe while it was in the
     * cluster, and suspecting it split the cluster. A dead process refuses again on the next check; the cost is one
     * check period. The calling thread's own.
     */
    static final class Refusals {
        /** When each member without a connection was last probed (System.nanoTime). */
        private final Map<UUID, Long> probed = new HashMap<>();
        /** Members the last probe found refusing. */
        private final Map<UUID, String> refusedOnce = new HashMap<>();

        void retain(Collection<UUID> members) {
            probed.keySet().retainAll(members);
            refusedOnce.keySet().retainAll(members);
        }

        /** Its connection to this member is up: whatever was refused before is forgotten. */
        void connected(UUID id) {
            probed.remove(id);
            refusedOnce.remove(id);
        }

        /**
         * Whether to probe {@code id} now: at once after a refusal, else at most once per {@link #REPROBE_NANOS},
         * so that a member cut off by the network (each probe waits for its timeout) costs the thread little.
         */
        boolean due(UUID id, long now) {
            var last = probed.get(id);
            if (last != null && now - last < REPROBE_NANOS && !refusedOnce.containsKey(id)) {
                return false;
            }
            probed.put(id, now);
            return true;
        }

        /**
         * @param refusal why the probe was refused, null if it was not
         * @return whether this refusal is the second in a row: the member's process is gone
         */
        boolean dead(UUID id, String refusal) {
            if (refusal == null) {
                refusedOnce.remove(id);
                return false;
            }
            if (refusedOnce.putIfAbsent(id, refusal) == null) {
                return false;
            }
            refusedOnce.remove(id);
            return true;
        }
    }
}
