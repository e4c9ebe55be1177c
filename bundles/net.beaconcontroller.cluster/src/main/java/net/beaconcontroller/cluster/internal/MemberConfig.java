package net.beaconcontroller.cluster.internal;

import java.util.Arrays;
import java.util.List;

import com.hazelcast.config.Config;
import com.hazelcast.config.ServerSocketEndpointConfig;

/** The embedded Hazelcast member's configuration, from the cluster's settings. */
final class MemberConfig {
    /**
     * Fewer partitions than Hazelcast's 271: a member that joins has them replicated in a fraction of the time, which
     * is the window in which one more death could lose a partition. Every member must use the same count.
     */
    private static final int PARTITIONS = 31;

    private MemberConfig() {
    }

    /** How many distinct members {@code cluster.members} names: a majority of them is a quorum. */
    static int configuredMembers(ClusterConfig c) {
        return (int) Arrays.stream(c.members()).distinct().count();
    }

    static Config of(ClusterConfig c) {
        var config = new Config();
        config.setClusterName(c.name());
        config.setInstanceName("beacon-" + c.bindAddress() + "-" + c.port());
        config.setClassLoader(MemberConfig.class.getClassLoader());
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        config.setProperty("hazelcast.max.no.heartbeat.seconds", Integer.toString(c.failureTimeout()));
        config.setProperty("hazelcast.merge.first.run.delay.seconds", "10");
        config.setProperty("hazelcast.merge.next.run.delay.seconds", "5");
        config.setProperty("hazelcast.socket.bind.any", "false");
        config.setProperty("hazelcast.partition.count", Integer.toString(PARTITIONS));
        // A copy of every entry on each other configured member (up to Hazelcast's 6 backups), written before the
        // write returns: no single death, nor one more while a join's migrations run, loses what the members agreed.
        int copies = Math.max(1, Math.min(6, configuredMembers(c) - 1));
        config.getMapConfig("beacon.*").setBackupCount(copies).setAsyncBackupCount(0);
        config.setProperty("hazelcast.local.localAddress", c.bindAddress());
        // The members' port as an endpoint of its own (advanced networking), not Hazelcast's unified port that also
        // serves clients, REST and memcache. Through the unified port, a connection to a member whose process is
        // frozen (its kernel completes the TCP handshake, it never answers the protocol) makes one of this member's
        // I/O output threads spin at 100% without ever returning to its selector, for as long as the connection
        // lives: every other connection on that thread that waits to be writable then sends nothing. After a join or
        // a merge, when the survivors stream partition copies to the newcomer, that was their connection to each
        // other: they stopped hearing each other's heartbeats and split into two clusters of one (issue 21; the
        // member endpoint waits for the peer's protocol instead of spinning, MemberConfigTest).
        var network = config.getAdvancedNetworkConfig().setEnabled(true);
        network.setMemberEndpointConfig(new ServerSocketEndpointConfig().setPort(c.port()).setPortAutoIncrement(false));
        var join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setMembers(List.of(c.members()));
        return config;
    }
}
