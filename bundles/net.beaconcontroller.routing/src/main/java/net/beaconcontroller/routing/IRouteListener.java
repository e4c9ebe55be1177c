package net.beaconcontroller.routing;

/**
 * Told which routes changed, so that flows installed along an old route can be removed: publish it as an OSGi
 * service and every {@link IRoutingEngine} picks it up. Calls come from the thread that reported the link change to
 * the engine (a switch's I/O thread or the topology's timer), after the engine already answers with the new routes,
 * outside any lock of the engine; they must not block. Two link changes reported on different threads at once may
 * be told in either order; each call is complete for its change.
 */
public interface IRouteListener {
    /**
     * @param engine  the engine whose routes changed: an application using another engine ignores the call
     * @param changes the switch pairs whose path changed (different links, or reachable only before or only after),
     *                never empty
     */
    void routesChanged(IRoutingEngine engine, RouteChanges changes);
}
