package net.beaconcontroller.routing.apsp.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.routing.IRouteListener;
import net.beaconcontroller.routing.IRoutingEngine;
import net.beaconcontroller.routing.RouteChanges;
import net.beaconcontroller.topology.ITopology;
import net.beaconcontroller.topology.ITopologyListener;
import net.beaconcontroller.topology.Link;

/**
 * The all-pairs shortest-path engine as a service: starts from the topology's links, follows its link events, and
 * tells the {@link IRouteListener} services which routes each event changed, after the new routes are published and
 * outside the engine's lock. All its state lives in the component instance, so stopping the bundle leaves nothing
 * behind and another engine can take over.
 */
@Component(service = {IRoutingEngine.class, ITopologyListener.class}, immediate = true)
public final class ApspRoutingService extends ApspEngine implements ITopologyListener {
    private static final Logger log = LoggerFactory.getLogger(ApspRoutingService.class);

    private final List<IRouteListener> routeListeners = new CopyOnWriteArrayList<>();

    @Activate
    public ApspRoutingService(@Reference ITopology topology) {
        // The links that come between this read and this listener's registration are replayed to it by the topology
        // when it registers (a member that restarts as its switches reconnect missed some before); a link known twice
        // or an unknown one removed changes nothing.
        var links = topology.getLinks().keySet();
        reset(links);
        log.info("All-pairs shortest-path routing started: {} switches, {} links", switchCount(), links.size());
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addRouteListener(IRouteListener listener) {
        routeListeners.add(listener);
    }

    void removeRouteListener(IRouteListener listener) {
        routeListeners.remove(listener);
    }

    @Override
    public void linkAdded(Link link) {
        tell(link, add(link));
    }

    @Override
    public void linkRemoved(Link link) {
        tell(link, remove(link));
    }

    private void tell(Link link, RouteChanges changes) {
        if (changes.size() == 0) {
            return;
        }
        log.debug("{}: {}", link, changes);
        for (IRouteListener listener : routeListeners) {
            try {
                listener.routesChanged(this, changes);
            } catch (RuntimeException e) {
                // One broken listener must not keep the others from removing stale flows.
                log.warn("Route listener {} failed on {}", listener, changes, e);
            }
        }
    }
}
