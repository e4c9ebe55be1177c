package net.beaconcontroller.cluster;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Several Beacon instances acting as one controller: every switch connects to all of them, exactly one masters it,
 * and switches move between instances as load shifts or an instance leaves. Published only while
 * {@code cluster.enabled=true}.
 */
public interface ICluster {
    /**
     * One instance of the cluster.
     *
     * @param id            the Hazelcast member id
     * @param address       its cluster address, {@code host:port}
     * @param local         whether it is this instance
     * @param oldest        the oldest member, which assigns masters
     * @param packetInRate  PACKET_INs per second it handles (its switches' sum, last measurement)
     * @param cpu           its process CPU load, 0 to 1 (negative when unknown)
     */
    record Member(String id, String address, boolean local, boolean oldest, long packetInRate, double cpu) { }

    /** One completed switch migration. */
    record Migration(long dpid, String from, String to, Duration took) { }

    String localMemberId();

    List<Member> members();

    /** Every switch connected to the cluster, by datapath id: its master's member id. */
    Map<Long, String> masters();

    /**
     * Moves switch {@code dpid} to {@code member} (an id, an id prefix or {@code host:port}) with the four-phase
     * hand-over: no PACKET_IN lost or handled twice. Fails when the switch or member is unknown, the member is not
     * connected to the switch, or the hand-over does not finish within {@code cluster.migrationTimeout}.
     */
    CompletionStage<Migration> migrate(long dpid, String member);

    /**
     * How many members the cluster needs for its load, from the members' last reports: the PACKET_INs per
     * second of all switches over the midpoint of {@code cluster.lowWater} and {@code cluster.highWater}, at least 1.
     * An autoscaler adds a member while this is above {@link #members()}'s size and removes one (which hands its
     * switches over) while it is below.
     */
    int membersNeeded();

    /**
     * Whether the copies of the shared state are settled as far as this member knows, without asking the others:
     * none is moving to or from it, or waiting to. For a few seconds after a member joins, merges or leaves they
     * move; a death then may lose what only the dead member held, and Hazelcast's own recovery is slowest.
     */
    boolean settled();

    /** The last migrations this instance started, newest last. */
    List<Migration> recentMigrations();
}
