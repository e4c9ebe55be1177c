package net.beaconcontroller.routing.internal;

import java.util.ArrayList;
import java.util.List;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.routing.Hop;

/**
 * The FLOW_MODs that make every switch of a route forward one flow: plain values, no I/O, so the per-PACKET_IN cost
 * can be measured on its own.
 *
 * @param granularity what the flows match
 * @param idleTimeout seconds
 * @param hardTimeout seconds, 0 = none
 * @param priority    the flows' priority
 */
public record RouteFlows(Routing.Config.Match granularity, int idleTimeout, int hardTimeout, int priority) {
    /**
     * Names routing as the flows' owner, so that they can be told apart in flow dumps, statistics, FLOW_REMOVED
     * messages and reconciliation. OpenFlow 1.0 cannot select flows by cookie in a DELETE, so removal goes by match.
     */
    public static final long COOKIE = FlowOwner.ROUTING.cookie();

    /** One FLOW_MOD for the switch {@code dpid}. */
    public record Flow(long dpid, OFFlowMod flowMod) {
    }

    public static RouteFlows of(Routing.Config c) {
        return new RouteFlows(c.match(), c.idleTimeout(), c.hardTimeout(), c.priority());
    }

    /**
     * The flows for {@code frame}'s flow along {@code route}, last hop first: installed in this order, no switch
     * forwards the flow to a neighbour that does not know it yet, so the flow's next frames do not come back to the
     * controller from the middle of the route.
     */
    public List<Flow> forRoute(List<Hop> route, Frame frame) {
        var flows = new ArrayList<Flow>(route.size());
        for (int i = route.size() - 1; i >= 0; i--) {
            Hop hop = route.get(i);
            if (granularity == Routing.Config.Match.DST_MAC && hop.inPort() == hop.outPort()) {
                // Two hosts behind one port: a flow dropping frames to the destination, matching every in port,
                // would drop everyone else's traffic to it at this switch too.
                continue;
            }
            flows.add(new Flow(hop.dpid(), OFFlowMod.builder()
                    .match(match(hop, frame))
                    .cookie(COOKIE)
                    .idleTimeout(idleTimeout)
                    .hardTimeout(hardTimeout)
                    .priority(priority)
                    .actions(actions(hop))
                    .build()));
        }
        return flows;
    }

    /**
     * EXACT: the frame's 10-tuple with the hop's in port, like Beacon's learning switch. DST_MAC: the destination
     * MAC and VLAN only, in port too wildcarded; every switch then forwards by destination alone, one flow per host,
     * shared by all sources (shortest paths from one engine snapshot never loop, so any in port is safe).
     */
    public OFMatch match(Hop hop, Frame frame) {
        return switch (granularity) {
            case EXACT -> OFMatch.fromFrame(frame, hop.inPort());
            case DST_MAC -> destinationMatch(frame.dlDst(), frame.vlanId());
        };
    }

    /** Every flow towards the host {@code mac} on {@code vlan}, whatever else it matches. */
    public static OFMatch destinationMatch(long mac, int vlan) {
        return OFMatch.builder().dlDst(mac).dlVlan(vlan).build();
    }

    /**
     * Out of the hop's out port. A route that starts and ends on one port (two hosts behind the same port) needs no
     * forwarding at all: the frame already reached its destination, so the flow drops it.
     */
    public static List<OFAction> actions(Hop hop) {
        return hop.inPort() == hop.outPort() ? List.of() : List.of(new OFActionOutput(hop.outPort(), 0));
    }
}
