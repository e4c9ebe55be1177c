package net.beaconcontroller.core.internal;

import java.util.HashSet;
import java.util.Set;

import net.beaconcontroller.openflow.OFFlowMod;

/**
 * The flows written to a switch since reconciliation requested its flow table. A stale flow is deleted by the match
 * and priority the dump showed (OpenFlow 1.0 cannot delete by cookie); if an application has written a flow with the
 * same match and priority since (routing installing the right path), that delete would take the new flow off, so it
 * is dropped. Confined to the switch's I/O thread, where every write to the switch lands.
 */
final class WrittenSinceRead {
    private final Mastership readUnder;
    private final int limit;
    private final Set<FlowKey> flows = new HashSet<>();
    /** More flows written than remembered: any delete may hit one of them. */
    private boolean overflowed;

    /**
     * @param readUnder the mastership of the reconciliation that requested the table
     * @param limit     how many flows it remembers (a busy switch gets many): past it every delete counts as a hit
     */
    WrittenSinceRead(Mastership readUnder, int limit) {
        this.readUnder = readUnder;
        this.limit = limit;
    }

    Mastership readUnder() {
        return readUnder;
    }

    void written(FlowKey flow) {
        if (overflowed) {
            return;
        }
        if (flows.size() >= limit && !flows.contains(flow)) {
            overflowed = true;
            flows.clear();
            return;
        }
        flows.add(flow);
    }

    /** Whether {@code delete} would take off a flow written since the table was requested. */
    boolean hits(OFFlowMod delete) {
        return overflowed || flows.contains(FlowKey.of(delete));
    }
}
