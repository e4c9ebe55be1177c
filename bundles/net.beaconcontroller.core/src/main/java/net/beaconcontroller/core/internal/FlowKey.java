package net.beaconcontroller.core.internal;

import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;

/** What names one flow in a switch's table: OpenFlow 1.0 keeps no two flows with the same match and priority. */
record FlowKey(OFMatch match, int priority) {
    static FlowKey of(OFFlowStatsEntry flow) {
        return new FlowKey(flow.match(), flow.priority());
    }

    static FlowKey of(OFFlowMod mod) {
        return new FlowKey(mod.match(), mod.priority());
    }

    /**
     * The flow {@code msg} puts on a switch, or {@code null}: an ADD does, and so does a MODIFY, which adds the flow
     * when nothing matches and otherwise gives it the writer's actions.
     */
    static FlowKey installedBy(OFMessage msg) {
        return msg instanceof OFFlowMod mod && mod.command() != OFFlowMod.Command.DELETE
                && mod.command() != OFFlowMod.Command.DELETE_STRICT ? of(mod) : null;
    }
}
