package net.beaconcontroller.topology.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.topology.ITopologyListener;

/**
 * The one way listeners hear of links: every thread that changes the store (a switch's I/O thread, the scheduler's,
 * the cluster's) delivers what it queued right after, through here, so a listener that throws is dealt with in one
 * place and never keeps the others from hearing a change.
 */
final class TopologyListeners {
    /** Discovery's log, as before this class was split out of it: operators' log settings name it. */
    private static final Logger log = LoggerFactory.getLogger(LinkDiscovery.class);

    private final TopologyStore store;
    private final List<ITopologyListener> listeners = new CopyOnWriteArrayList<>();

    TopologyListeners(TopologyStore store) {
        this.store = store;
    }

    void add(ITopologyListener listener) {
        listeners.add(listener);
        // It may have read getLinks() before it was registered: the links that came in between would be lost to it.
        store.replayTo(listener);
        deliver();
    }

    void remove(ITopologyListener listener) {
        listeners.remove(listener);
    }

    /** Tells the listeners the changes the store queued; call after each change to it. */
    void deliver() {
        store.drain(change -> {
            for (var l : listeners) {
                if (change.only() != null && change.only() != l) {
                    continue;
                }
                try {
                    if (change.added()) {
                        l.linkAdded(change.link());
                    } else {
                        l.linkRemoved(change.link());
                    }
                } catch (RuntimeException e) {
                    log.warn("topology listener {} failed on {} {}", l, change.added() ? "linkAdded" : "linkRemoved",
                            change.link(), e);
                }
            }
        });
    }
}
