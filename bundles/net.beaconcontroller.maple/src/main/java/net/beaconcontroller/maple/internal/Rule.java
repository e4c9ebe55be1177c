package net.beaconcontroller.maple.internal;

import java.util.List;

import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.action.OFAction;

/** A compiled flow entry for one switch: what a FLOW_MOD installs. An empty action list drops. */
record Rule(long dpid, OFMatch match, int priority, List<OFAction> actions) {
    Rule {
        actions = List.copyOf(actions);
    }
}
