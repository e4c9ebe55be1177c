package net.beaconcontroller.routing;

/**
 * A set of (source switch, destination switch) pairs whose shortest path changed in one step. Immutable and safe to
 * keep. One link change can change the paths of most pairs of a large network, so the set is kept compact and is
 * read by query or iteration rather than as a collection of pair objects.
 */
public interface RouteChanges {
    /** Whether the path from switch {@code srcDpid} to switch {@code dstDpid} changed. */
    boolean contains(long srcDpid, long dstDpid);

    /** How many pairs changed. */
    int size();

    /** Calls {@code action} once for every changed pair, in no particular order. */
    void forEach(PairConsumer action);

    /** Receives one switch pair. */
    @FunctionalInterface
    interface PairConsumer {
        void accept(long srcDpid, long dstDpid);
    }
}
