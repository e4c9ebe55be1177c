package net.beaconcontroller.cluster.internal;

import java.util.Arrays;
import java.util.List;

import com.hazelcast.config.Config;

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
        var network = config.getNetworkConfig();
        network.setPort(c.port()).setPortAutoIncrement(false);
        var join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setMembers(List.of(c.members()));
        return config;
    }
}
