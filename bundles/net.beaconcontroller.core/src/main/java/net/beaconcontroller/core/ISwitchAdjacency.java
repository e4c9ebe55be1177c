package net.beaconcontroller.core;

import java.util.Map;
import java.util.Set;

/**
 * Which switches are linked to which, for whoever places switches: the cluster's balancer gives neighbouring switches
 * one master where the balance allows it, since a path across switches of one master needs no write forwarded to
 * another member. Published as an OSGi service by the topology app while it runs; without one, nothing is placed by
 * neighbourhood.
 */
public interface ISwitchAdjacency {
    /**
     * Each switch's neighbours as known now, every link counted in both directions; an immutable snapshot, empty when
     * no link is known. Any thread; it may cost a walk over every link, so it is for rounds, not per packet.
     */
    Map<Long, Set<Long>> neighbours();
}
