package net.beaconcontroller.routing.apsp.internal;

import java.util.List;
import java.util.Optional;

import net.beaconcontroller.routing.Hop;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The engine's tables at one moment, never changed once published, so readers on any thread need no lock and see
 * either the whole of an update or none of it. {@code rows[t][s]} is the {@linkplain Entries entry} for the shortest
 * path from switch {@code s} to switch {@code t}: the rows are in-trees towards each destination, so a route is read
 * by following next switches from the source. An update copies only the rows it changes and shares the others.
 */
final class Snapshot {
    static final Snapshot EMPTY = new Snapshot(DpidIndex.EMPTY, new int[0][], new OutLinks[0], new int[0][]);

    final DpidIndex index;
    /** By destination index; null for an unused index. */
    final int[][] rows;
    /** By switch index; null for an unused index. */
    final OutLinks[] out;
    /** The switches with a link into each switch: only the writer's breadth-first searches read these. */
    final int[][] in;

    Snapshot(DpidIndex index, int[][] rows, OutLinks[] out, int[][] in) {
        this.index = index;
        this.rows = rows;
        this.out = out;
        this.in = in;
    }

    List<Hop> route(SwitchPort src, SwitchPort dst) {
        if (src.dpid() == dst.dpid()) {
            return List.of(new Hop(src.dpid(), src.port(), dst.port()));
        }
        int s = index.indexOf(src.dpid());
        int t = index.indexOf(dst.dpid());
        if (s < 0 || t < 0) {
            return List.of();
        }
        int[] row = rows[t];
        int entry = row[s];
        if (entry == Entries.NONE) {
            return List.of();
        }
        var hops = new Hop[Entries.distance(entry) + 1];
        int inPort = src.port();
        for (int i = 0, x = s; x != t; i++) {
            int next = Entries.next(row[x]);
            OutLinks links = out[x];
            int k = links.find(index.orderKey(next));
            hops[i] = new Hop(index.dpid(x), inPort, links.outPort[k]);
            inPort = links.inPort[k];
            x = next;
        }
        hops[hops.length - 1] = new Hop(dst.dpid(), inPort, dst.port());
        return List.of(hops);
    }

    Optional<List<Link>> path(long srcDpid, long dstDpid) {
        // The ports a route starts and ends on do not change the links between.
        List<Hop> hops = route(new SwitchPort(srcDpid, 1), new SwitchPort(dstDpid, 1));
        if (hops.isEmpty()) {
            return Optional.empty();
        }
        var links = new Link[hops.size() - 1];
        for (int i = 0; i < links.length; i++) {
            Hop from = hops.get(i);
            Hop to = hops.get(i + 1);
            links[i] = Link.of(from.dpid(), from.outPort(), to.dpid(), to.inPort());
        }
        return Optional.of(List.of(links));
    }
}
