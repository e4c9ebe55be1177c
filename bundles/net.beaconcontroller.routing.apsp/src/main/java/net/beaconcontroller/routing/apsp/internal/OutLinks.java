package net.beaconcontroller.routing.apsp.internal;

import java.util.Arrays;

/**
 * Where one switch's links lead: one link per neighbour, sorted by the neighbour's {@linkplain DpidIndex#orderKey
 * order key}, so that the first neighbour found one step closer to a destination is the one the tie-break picks.
 * Of parallel links to one neighbour the one with the lowest ports stands for all.
 */
final class OutLinks {
    static final OutLinks NONE = new OutLinks(new int[0], new long[0], new int[0], new int[0]);

    /** Neighbour indices. */
    final int[] to;
    private final long[] toKey;
    final int[] outPort;
    final int[] inPort;

    OutLinks(int[] to, long[] toKey, int[] outPort, int[] inPort) {
        this.to = to;
        this.toKey = toKey;
        this.outPort = outPort;
        this.inPort = inPort;
    }

    /** The position of the link to the neighbour with this order key, or a negative number when there is none. */
    int find(long neighbourKey) {
        return Arrays.binarySearch(toKey, neighbourKey);
    }

    /** Whether this switch has a link to the neighbour with this order key, over the same ports as in {@code other}. */
    boolean sameLinkAs(OutLinks other, long neighbourKey) {
        int mine = find(neighbourKey);
        int theirs = other.find(neighbourKey);
        return mine >= 0 && theirs >= 0 && outPort[mine] == other.outPort[theirs] && inPort[mine] == other.inPort[theirs];
    }
}
