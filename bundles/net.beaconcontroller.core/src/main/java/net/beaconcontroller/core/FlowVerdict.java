package net.beaconcontroller.core;

/** What an owner says of one of its flows found on a switch when Beacon reconciles the switch's flow table. */
public enum FlowVerdict {
    /** Still wanted as it is: kept. */
    WANTED,
    /**
     * The owner cannot tell yet (after a restart it has not learnt the hosts or links the flow depends on): kept. The
     * flow then goes the way of any other of the owner's flows: its timeouts, or the owner's own move and link
     * handling, remove it once it is wrong.
     */
    UNSURE,
    /** Known to be wrong (a host moved, a port died, a static flow was removed): deleted. */
    STALE
}
