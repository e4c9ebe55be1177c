package net.beaconcontroller.core;

import java.util.List;

import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;

/**
 * An application's part in reconciling a switch's flow table, published as an OSGi service (whiteboard). Whenever a
 * switch connects to this controller as its master (or only controller), or this controller becomes its master, the
 * core reads the switch's flows and asks each flow's owner (by the {@link FlowOwner} in its cookie) about them: stale
 * ones are deleted one by one (OpenFlow 1.0 strict delete by match and priority), the rest stay and keep forwarding.
 * Flows of an owner that has no reconciler running are kept.
 *
 * <p>Both methods run on the core's reconciliation thread, never on a switch's I/O thread: they must be safe to call
 * concurrently with the application's own work, and they should not block for long (the switches after this one
 * wait). Writes to the switch from here are allowed.
 */
public interface IFlowReconciler {
    /** Whose flows it judges. */
    FlowOwner owner();

    /** Whether {@code flow}, one of this owner's flows on {@code sw}, is still wanted. */
    FlowVerdict judge(IOFSwitch sw, OFFlowStatsEntry flow);

    /**
     * The flows this owner wants on {@code sw} that are not among {@code present} (this owner's flows found on the
     * switch and not judged stale): the core writes them. {@code present} is empty when the table was wiped or could
     * not be read.
     */
    default List<OFFlowMod> missing(IOFSwitch sw, List<OFFlowStatsEntry> present) {
        return List.of();
    }
}
