package net.beaconcontroller.routing.apsp.internal;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

import net.beaconcontroller.routing.Hop;
import net.beaconcontroller.routing.IRoutingEngine;
import net.beaconcontroller.routing.RouteChanges;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * All-pairs shortest paths over the links, kept current link by link; plain Java, wired into OSGi by its subclass
 * {@link ApspRoutingService}. Readers use the published {@link Snapshot} without locking; link changes are applied
 * one at a time, each into a new snapshot that shares the rows it did not change with the one before.
 *
 * <p>A link counts in its own direction only. Routes are fully determined by the current links (see
 * {@link ShortestPaths}), so the same links give the same routes in whatever order they arrived, and the same as
 * {@link #reset(Collection)} computes from scratch.
 */
public class ApspEngine implements IRoutingEngine {
    private volatile Snapshot current = Snapshot.EMPTY;

    // The writer's state, guarded by this.
    private LinkGraph graph = new LinkGraph();
    private final ShortestPaths paths = new ShortestPaths();

    @Override
    public List<Hop> getRoute(SwitchPort src, SwitchPort dst) {
        return current.route(src, dst);
    }

    @Override
    public Optional<List<Link>> getPath(long srcDpid, long dstDpid) {
        return current.path(srcDpid, dstDpid);
    }

    /** How many switches have links. */
    public int switchCount() {
        return current.index.size();
    }

    /** Forgets every link and computes all paths over {@code links} from scratch: O(switches × (switches + links)). */
    public synchronized void reset(Collection<Link> links) {
        graph = new LinkGraph();
        links.forEach(graph::add);
        var up = new Update(Snapshot.EMPTY);
        graph.switches().forEach(up::addSwitch);
        for (int i = 0; i < up.capacity(); i++) {
            if (up.index.isUsed(i)) {
                refreshLinks(up, up.index.dpid(i));
                up.in[i] = graph.inNeighbours(up.index.dpid(i), up.index);
            }
        }
        for (int t = 0; t < up.capacity(); t++) {
            if (up.index.isUsed(t)) {
                up.replace(t, paths.tree(up, t));
            }
        }
        current = up.snapshot();
    }

    /** Takes a link that came up into account; a link already known changes nothing. */
    public synchronized RouteChanges add(Link link) {
        if (!graph.add(link)) {
            return ChangedPairs.NONE_CHANGED;
        }
        var before = current;
        var up = new Update(before);
        int u = indexOrAdd(up, link.src().dpid());
        int w = indexOrAdd(up, link.dst().dpid());
        boolean newNeighbour = up.out[u].find(up.index.orderKey(w)) < 0;
        OutLinks oldOut = refreshLinks(up, link.src().dpid());
        up.in[w] = graph.inNeighbours(link.dst().dpid(), up.index);
        if (newNeighbour) {
            paths.linkUp(up, u, w);
        }
        return publish(before, up, up.index, portsChanged(oldOut, up, u, w) ? u : -1, w);
    }

    /** Takes a link that went down into account; a link not known changes nothing. */
    public synchronized RouteChanges remove(Link link) {
        if (!graph.remove(link)) {
            return ChangedPairs.NONE_CHANGED;
        }
        var before = current;
        var up = new Update(before);
        int u = up.index.indexOf(link.src().dpid());
        int w = up.index.indexOf(link.dst().dpid());
        OutLinks oldOut = refreshLinks(up, link.src().dpid());
        up.in[w] = graph.inNeighbours(link.dst().dpid(), up.index);
        boolean lastToNeighbour = up.out[u].find(up.index.orderKey(w)) < 0;
        if (lastToNeighbour) {
            paths.linkDown(up, u, w);
        }
        int moved = portsChanged(oldOut, up, u, w) ? u : -1;
        for (var end : new SwitchPort[] {link.src(), link.dst()}) {
            if (!graph.hasLinks(end.dpid())) {
                up.removeSwitch(up.index.indexOf(end.dpid()));
            }
        }
        return publish(before, up, before.index, moved, w);
    }

    private static int indexOrAdd(Update up, long dpid) {
        int i = up.index.indexOf(dpid);
        return i >= 0 ? i : up.addSwitch(dpid);
    }

    /** Rebuilds a switch's links out from the graph; returns the old ones. */
    private OutLinks refreshLinks(Update up, long dpid) {
        int i = up.index.indexOf(dpid);
        OutLinks old = up.out[i];
        up.out[i] = graph.outLinks(dpid, up.index);
        return old;
    }

    /** Whether the link standing for {@code u}'s links to {@code w} changed ports, {@code w} staying a neighbour. */
    private static boolean portsChanged(OutLinks oldOut, Update up, int u, int w) {
        long key = up.index.orderKey(w);
        boolean bothHave = oldOut.find(key) >= 0 && up.out[u].find(key) >= 0;
        return bothHave && !up.out[u].sameLinkAs(oldOut, key);
    }

    private RouteChanges publish(Snapshot before, Update up, DpidIndex names, int movedFrom, int movedTo) {
        var after = up.snapshot();
        current = after;
        return ChangedPairs.between(before, after, names, movedFrom, movedTo);
    }
}
