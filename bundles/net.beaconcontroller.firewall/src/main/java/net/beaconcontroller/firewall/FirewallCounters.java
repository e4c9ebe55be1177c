package net.beaconcontroller.firewall;

import java.util.Map;

/**
 * What the firewall decided on this instance since it started.
 *
 * @param byRule           packets each rule decided, by rule id (allowed or dropped as the rule's action says)
 * @param broadcastAllowed L2 broadcasts let through without looking at the rules
 * @param broadcastDropped L2 broadcasts carrying IPv4 to an address that is not a subnet broadcast
 * @param defaultDropped   packets no rule matched
 * @param flowsDeleted     flows removed because a change of the rules or of the on/off state changed their verdict
 */
public record FirewallCounters(Map<Integer, Long> byRule, long broadcastAllowed, long broadcastDropped,
        long defaultDropped, long flowsDeleted) {
}
