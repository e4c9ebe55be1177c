/**
 * OpenFlow 1.0 actions ({@code ofp_action_*}): one immutable record per action type behind the sealed
 * {@link net.beaconcontroller.openflow.action.OFAction}, and {@link net.beaconcontroller.openflow.action.OFActions}
 * for action lists on the wire and in ovs-ofctl text. Records check their values when constructed
 * ({@code IllegalArgumentException} naming the field); reading checks lengths, types and values
 * ({@link net.beaconcontroller.openflow.OFParseException}).
 */
package net.beaconcontroller.openflow.action;
