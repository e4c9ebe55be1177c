package net.beaconcontroller.maple.internal;

import java.util.ArrayList;
import java.util.List;

import net.beaconcontroller.maple.Route;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;

/** A route's OpenFlow 1.0 actions at one switch. */
final class Actions {
    /** The whole packet to the controller. */
    static final List<OFAction> TO_CONTROLLER = List.of(OFActionOutput.toController(0xffff));
    private static final List<OFAction> FLOOD = List.of(OFActionOutput.to(OFPort.FLOOD));

    private Actions() {
    }

    /**
     * What switch {@code dpid} does with the route's packets, or null when it has no rule for them (a forward
     * route that does not cross it).
     */
    static List<OFAction> at(Route route, long dpid) {
        if (route instanceof Route.Drop) {
            return List.of();
        }
        if (route instanceof Route.ToController) {
            return TO_CONTROLLER;
        }
        if (route instanceof Route.Flood) {
            return FLOOD;
        }
        Route.Hop hop = ((Route.Forward) route).hopAt(dpid);
        if (hop == null) {
            return null;
        }
        var out = new ArrayList<OFAction>(hop.outPorts().size());
        for (int port : hop.outPorts()) {
            out.add(OFActionOutput.to(port));
        }
        return out;
    }
}
