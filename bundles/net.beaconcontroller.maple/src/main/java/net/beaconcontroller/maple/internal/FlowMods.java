package net.beaconcontroller.maple.internal;

import java.util.List;

import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;

/** The FLOW_MODs Maple's runtime sends for the compiler's changes. */
final class FlowMods {
    private FlowMods() {
    }

    /**
     * The FLOW_MOD for one change, carrying {@code cookie}. The rules have no timeouts: the compiler's model of
     * every table must stay true, and a rule that expired on its own would leave its packets to the controller for
     * good. For the same reason the switch reports their deletion (someone else's: a tool, another application's
     * broad delete), and the runtime writes them again.
     */
    static OFFlowMod of(FlowChange change, long cookie) {
        Rule r = change.rule();
        var b = OFFlowMod.builder().match(r.match()).priority(r.priority()).cookie(cookie).outPort(OFPort.NONE);
        return switch (change.kind()) {
            case ADD -> add(r.match(), r.priority(), cookie, onSwitch(r.actions()));
            case MODIFY -> b.command(OFFlowMod.Command.MODIFY_STRICT).actions(onSwitch(r.actions())).build();
            case DELETE -> b.command(OFFlowMod.Command.DELETE_STRICT).build();
        };
    }

    /** An ADD of a rule as the runtime writes them: no timeouts, deletion reported. */
    static OFFlowMod add(OFMatch match, int priority, long cookie, List<OFAction> actions) {
        return OFFlowMod.builder().command(OFFlowMod.Command.ADD).match(match).priority(priority).cookie(cookie)
                .flags(OFFlowMod.FLAG_SEND_FLOW_REM).actions(actions).build();
    }

    /**
     * A rule's actions as the switch gets them. A flood goes to the controller instead, which floods along the
     * topology's spanning tree: {@code OFPP_FLOOD} on every switch of a network with a loop would send a broadcast
     * round it for ever.
     */
    static List<OFAction> onSwitch(List<OFAction> actions) {
        for (OFAction a : actions) {
            if (a instanceof OFActionOutput o && o.port() == OFPort.FLOOD) {
                return Actions.TO_CONTROLLER;
            }
        }
        return actions;
    }
}
