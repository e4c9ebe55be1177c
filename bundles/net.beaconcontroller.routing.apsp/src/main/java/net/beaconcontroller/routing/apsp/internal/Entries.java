package net.beaconcontroller.routing.apsp.internal;

/**
 * One cell of a shortest-path table, packed into an int so that a table row is one primitive array: the distance in
 * links to the row's destination (high 16 bits) and the index of the next switch towards it (low 16 bits).
 */
final class Entries {
    /** No path. Its distance, {@code 0xffff}, is larger than any real one, so comparisons need no special case. */
    static final int NONE = -1;
    static final int UNREACHABLE = 0xffff;

    private Entries() {
    }

    static int of(int distance, int next) {
        return distance << 16 | next;
    }

    static int distance(int entry) {
        return entry >>> 16;
    }

    static int next(int entry) {
        return entry & 0xffff;
    }

    /** The entry for {@code index} in {@code row}, where a missing row or a column beyond it means no path. */
    static int at(int[] row, int index) {
        return row == null || index >= row.length ? NONE : row[index];
    }
}
