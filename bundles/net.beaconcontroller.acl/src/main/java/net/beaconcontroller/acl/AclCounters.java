package net.beaconcontroller.acl;

/**
 * The ACL's flows on this instance.
 *
 * @param flows          ACL static flows there are now (every switch, this member's view)
 * @param flowsInstalled ACL flows this instance added to the static flows since it started
 * @param flowsRemoved   ACL flows this instance removed (rule deleted or cleared, host gone)
 */
public record AclCounters(long flows, long flowsInstalled, long flowsRemoved) {
}
