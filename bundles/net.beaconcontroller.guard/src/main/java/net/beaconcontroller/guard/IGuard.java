package net.beaconcontroller.guard;

/**
 * The PACKET_IN guard: a budget of PACKET_INs per second for each switch and each of its ports, the excess of a port
 * dropped at the switch by a short-lived drop flow. Readable from any thread.
 */
public interface IGuard {
    /** Whether it judges PACKET_INs ({@code guard.enabled}). */
    boolean isEnabled();

    /** The budgets in force. */
    GuardBudgets getBudgets();

    /** What it dropped since it started, per port that ever went over a budget. */
    GuardCounters getCounters();
}
