package net.beaconcontroller.routing;

/**
 * What routing did with the PACKET_INs it saw since it started.
 *
 * @param routed          flows installed along a route and the packet sent on
 * @param flooded         sent along the spanning tree: broadcast, multicast, unknown destination, no route or no engine
 * @param droppedRepeat   dropped because the same frame was flooded at this switch moments before (it went round a
 *                        loop)
 * @param droppedLoopCopy dropped because it came in on an inter-switch port off the spanning tree (a copy going round
 *                        a loop)
 * @param noRoute         of the flooded: a known destination with no route to it (another island)
 * @param noEngine        of the flooded: a known destination while no routing engine runs
 * @param proxyArpReplies ARP requests answered by the controller
 * @param droppedBounce   dropped because it came in over a link and its route leaves by the same port: a switch
 *                        upstream forwards by a flow that no longer fits, and the flows towards its destination were
 *                        deleted
 */
public record RoutingCounters(long routed, long flooded, long droppedRepeat, long droppedLoopCopy, long noRoute,
        long noEngine, long proxyArpReplies, long droppedBounce) {
}
