package net.beaconcontroller.guard;

/**
 * The guard's settings as it applies them.
 *
 * @param portRate    PACKET_INs per second one port may send on average
 * @param portBurst   PACKET_INs one port may send at once after a quiet spell (the bucket's size)
 * @param switchRate  PACKET_INs per second one switch may send on average, all ports together
 * @param switchBurst the switch's bucket size
 * @param dropSeconds hard timeout of the drop flow on a port over budget
 * @param priority    the drop flow's priority; the LLDP flow beside it has one more
 */
public record GuardBudgets(long portRate, long portBurst, long switchRate, long switchBurst, int dropSeconds,
        int priority) {
}
