package net.beaconcontroller.cluster.internal;

import java.util.List;
import java.util.Set;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;

/**
 * What exists once this member has joined the cluster: the Hazelcast member, the shared maps, who it sees, and the
 * store's thread. Immutable; {@link Membership} publishes it when the join is done and withdraws it at the stop.
 *
 * @param masters switch to the member id that masters it ({@code beacon.masters})
 * @param leaving members handing their switches over before they leave ({@code beacon.leaving}): no switch is given
 *                to them
 */
record Joined(HazelcastInstance hz, IMap<Long, String> masters, Reports reports, IMap<String, Boolean> leaving,
        Members members, Store store) {

    /** The live members connected to a switch, by their reports (a read of the shared map). */
    Set<String> connectedTo(long dpid) {
        return reports.connectedTo(dpid, members.live());
    }

    /** The live members a switch may be given to, oldest first (a read of the shared map). */
    List<String> targets() {
        return Mastership.targets(members.live(), leaving.keySet());
    }
}
