package net.beaconcontroller.routing;

import java.util.List;
import java.util.Optional;

import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * Shortest paths between switches over the links the topology sees: the service a routing application asks for a
 * route once per new flow. Engines are swappable at runtime, so consumers track this service dynamically; every
 * answer comes from one consistent view of the links, and reads are cheap and never block, from any thread, while
 * the engine follows link changes.
 *
 * <p>Paths use a link only in the direction it was seen in: a link that carries frames from A to B but not back
 * serves routes from A towards B only. A path's length is its number of links. Between paths of equal length an
 * engine chooses deterministically, from the current links only (not the order they came in), so the same links
 * always give the same routes. Which route {@link IRouteListener}s are told about when routes change.
 */
public interface IRoutingEngine {
    /**
     * The route from {@code src} to {@code dst}: one hop for each switch on a shortest path, in order, the first
     * entering at {@code src}'s port, the last leaving at {@code dst}'s port, each following one entering at the port
     * the previous one's link arrives at. Two points on one switch are always one hop, even on a switch without
     * links.
     *
     * @return the hops, unmodifiable; empty when {@code dst} cannot be reached from {@code src}
     */
    List<Hop> getRoute(SwitchPort src, SwitchPort dst);

    /**
     * The links of the shortest path from switch {@code srcDpid} to switch {@code dstDpid}, in order.
     *
     * @return the links, unmodifiable, empty for a switch to itself; {@link Optional#empty()} when {@code dstDpid}
     *         cannot be reached from {@code srcDpid}
     */
    Optional<List<Link>> getPath(long srcDpid, long dstDpid);
}
