package net.beaconcontroller.core;

/**
 * What flow reconciliation has done since the core started, over every switch.
 *
 * @param runs      reconciliations finished (one per switch and connection or promotion to master)
 * @param timeouts  of which the switch did not answer the flow table request in time (the fallback applied)
 * @param kept      Beacon's flows found and kept: wanted, or not yet known to be wrong
 * @param deleted   Beacon's flows found stale and deleted, and foreign flows deleted
 * @param pushed    flows an owner wanted and the switch lacked, written
 * @param foreign   flows found with no Beacon cookie
 */
public record FlowReconciliationStats(long runs, long timeouts, long kept, long deleted, long pushed, long foreign) {
    /** Nothing done yet. */
    public static final FlowReconciliationStats NONE = new FlowReconciliationStats(0, 0, 0, 0, 0, 0);

    /** Both counts added up. */
    public FlowReconciliationStats plus(FlowReconciliationStats o) {
        return new FlowReconciliationStats(runs + o.runs, timeouts + o.timeouts, kept + o.kept, deleted + o.deleted,
                pushed + o.pushed, foreign + o.foreign);
    }
}
