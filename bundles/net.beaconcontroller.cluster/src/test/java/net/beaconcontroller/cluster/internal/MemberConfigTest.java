package net.beaconcontroller.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;

import org.junit.jupiter.api.Test;

import com.hazelcast.cluster.Address;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.EndpointQualifier;

import net.beaconcontroller.core.test.Configs;

/**
 * The members' Hazelcast configuration against a frozen peer: a process stopped by SIGSTOP (or a long pause) whose
 * kernel still completes the TCP handshake on its cluster port but which never answers. Through Hazelcast's unified
 * port, a connection to it made one I/O output thread spin at 100% (its protocol encoder reported nothing to do
 * while the member handshake waited in the queue, and the pipeline put itself back on the thread's task queue
 * forever, never returning to the selector). A connection to another member on that thread that was waiting to
 * become writable then sent nothing: with a few megabytes queued for it, the other member stopped hearing this
 * one's heartbeats and the two split into clusters of one. That is how the survivors of a member frozen right after
 * a join or a merge split in the fault runs (issue 21, docs/cluster.md).
 */
class MemberConfigTest {
    private static final int FAILURE_TIMEOUT_SECONDS = 2;

    @Test
    void aConnectionToAFrozenPeerStarvesNoOtherMember() throws Exception {
        int[] ports = ClusterTest.freePorts(3);
        // A listening socket that never accepts: the kernel completes the handshake, nothing ever answers.
        try (var frozen = new ServerSocket(ports[2], 50, InetAddress.getLoopbackAddress())) {
            var members = new ArrayList<HazelcastInstance>();
            try {
                for (int i = 0; i < 2; i++) {
                    var settings = Configs.of(ClusterConfig.class, "cluster.enabled=true",
                            "cluster.name=frozen-" + ports[0], "cluster.bindAddress=127.0.0.1",
                            "cluster.members=127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1],
                            "cluster.port=" + ports[i], "cluster.failureTimeout=" + FAILURE_TIMEOUT_SECONDS);
                    var config = MemberConfig.of(settings);
                    // One output thread, so that the connection between the two shares it with the frozen peer's.
                    config.setProperty("hazelcast.io.output.thread.count", "1");
                    members.add(Hazelcast.newHazelcastInstance(config));
                }
                var a = members.get(0);
                var b = members.get(1);
                assertEquals(2, b.getCluster().getMembers().size());
                Internals.node(a).getServer().getConnectionManager(EndpointQualifier.MEMBER)
                        .getOrConnect(new Address("127.0.0.1", ports[2]));
                Thread.sleep(300); // connected, its member handshake queued and unanswered
                long cpuBefore = outputThreadsCpu(a.getName());
                // Megabytes for the other member, so that its connection has to wait until it can write again.
                var map = a.<Integer, byte[]>getMap("beacon.test");
                var owner = b.getCluster().getLocalMember();
                byte[] value = new byte[4 << 20];
                for (int key = 0, sent = 0; sent < 8; key++) {
                    if (a.getPartitionService().getPartition(key).getOwner().equals(owner)) {
                        map.setAsync(key, value);
                        sent++;
                    }
                }
                Thread.sleep((FAILURE_TIMEOUT_SECONDS + 3) * 1000L);
                long spent = outputThreadsCpu(a.getName()) - cpuBefore;
                assertEquals(2, b.getCluster().getMembers().size(), "the other member still hears this one");
                assertEquals(2, a.getCluster().getMembers().size(), "this member still hears the other");
                assertTrue(spent < 1_000_000_000L, "the output thread spent " + spent / 1_000_000 + " ms of CPU in "
                        + (FAILURE_TIMEOUT_SECONDS + 3) + " s, spinning on the connection nobody answers");
            } finally {
                members.forEach(HazelcastInstance::shutdown);
            }
        }
    }

    private static long outputThreadsCpu(String instance) {
        var threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (var t : threads.dumpAllThreads(false, false)) {
            if (t.getThreadName().startsWith("hz." + instance + ".IO.thread-out")) {
                sum += Math.max(0, threads.getThreadCpuTime(t.getThreadId()));
            }
        }
        return sum;
    }
}
