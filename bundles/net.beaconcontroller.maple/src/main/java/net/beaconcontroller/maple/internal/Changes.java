package net.beaconcontroller.maple.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Collects flow changes and hands them out in an order that never lets a packet meet a half-made state that does
 * something wrong (sending it to the controller is always right): barriers are added first, so a new rule of lower
 * priority never catches packets a test sends elsewhere; then rules are added, along a route from its last hop to
 * its first, so a packet only enters a route every later switch knows; then rules go, from a route's first hop to
 * its last; barriers that are no longer needed go last. Rules that move to new priorities do so under a cover: a
 * rule above them all that sends their packets to the controller until the move is done.
 */
final class Changes {
    private enum Phase {
        ADD_COVER, ADD_BARRIER, ADD_RULE, DELETE_RULE, DELETE_BARRIER, DELETE_COVER
    }

    /**
     * @param group the node the change is for, in the order nodes were visited
     * @param hop   the switch's place on the node's route (0 for the first hop)
     */
    private record Entry(Phase phase, int group, int hop, FlowChange change) {
    }

    private final List<Entry> entries = new ArrayList<>();
    private int group;

    /** Starts the changes of the next node. */
    void nextGroup() {
        group++;
    }

    void add(boolean barrier, int hop, FlowChange change) {
        boolean delete = change.kind() == FlowChange.Kind.DELETE;
        Phase phase = barrier ? (delete ? Phase.DELETE_BARRIER : Phase.ADD_BARRIER)
                : (delete ? Phase.DELETE_RULE : Phase.ADD_RULE);
        entries.add(new Entry(phase, group, hop, change));
    }

    /** A rule that sends a subtree's packets to the controller while its rules move: added first, deleted last. */
    void cover(Rule cover) {
        entries.add(new Entry(Phase.ADD_COVER, 0, 0, new FlowChange(FlowChange.Kind.ADD, cover)));
        entries.add(new Entry(Phase.DELETE_COVER, 0, 0, new FlowChange(FlowChange.Kind.DELETE, cover)));
    }

    List<FlowChange> ordered() {
        var sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparing(Entry::phase).thenComparingInt(Entry::group)
                .thenComparingInt(e -> e.phase() == Phase.ADD_RULE ? -e.hop() : e.hop()));
        return sorted.stream().map(Entry::change).toList();
    }
}
