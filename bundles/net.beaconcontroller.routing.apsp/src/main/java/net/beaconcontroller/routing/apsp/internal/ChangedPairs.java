package net.beaconcontroller.routing.apsp.internal;

import static net.beaconcontroller.routing.apsp.internal.Entries.NONE;
import static net.beaconcontroller.routing.apsp.internal.Entries.at;
import static net.beaconcontroller.routing.apsp.internal.Entries.next;

import java.util.Arrays;

import net.beaconcontroller.routing.RouteChanges;

/** The pairs whose path differs between two snapshots: a bit set of sources for each destination that changed. */
final class ChangedPairs implements RouteChanges {
    static final ChangedPairs NONE_CHANGED = new ChangedPairs(DpidIndex.EMPTY, new long[0][], 0);

    private static final byte UNKNOWN = 0;
    private static final byte SAME = 1;
    private static final byte CHANGED = 2;

    private final DpidIndex names;
    private final long[][] sourcesByDestination;
    private final int size;

    private ChangedPairs(DpidIndex names, long[][] sourcesByDestination, int size) {
        this.names = names;
        this.sourcesByDestination = sourcesByDestination;
        this.size = size;
    }

    /**
     * The pairs whose path changed from {@code before} to {@code after}. Only trees whose row was replaced, or that
     * used the link from {@code portFrom} to {@code portTo} whose ports changed (-1 for none), are looked at. A path
     * changed exactly when, walking it in the old tree, some switch on it now has another next switch (or another
     * link to it): each changed tree costs O(switches), as every switch's verdict is kept for the walks after it.
     *
     * @param names an index naming every switch of both snapshots: a step only adds switches or only removes them
     */
    static ChangedPairs between(Snapshot before, Snapshot after, DpidIndex names, int portFrom, int portTo) {
        int capacity = after.rows.length;
        var bits = new long[capacity][];
        int size = 0;
        var verdict = new byte[capacity];
        var walked = new int[capacity];
        for (int t = 0; t < capacity; t++) {
            int[] old = t < before.rows.length ? before.rows[t] : null;
            int[] now = after.rows[t];
            int movedFrom = portFrom >= 0 && next(at(old, portFrom)) == portTo ? portFrom : -1;
            if (old == now && movedFrom < 0) {
                continue;
            }
            Arrays.fill(verdict, UNKNOWN);
            for (int s = 0; s < capacity; s++) {
                int x = s;
                int n = 0;
                byte v;
                while ((v = verdict[x]) == UNKNOWN) {
                    int e = at(old, x);
                    if (next(e) != next(at(now, x)) || x == movedFrom) {
                        v = CHANGED;
                    } else if (e == NONE || x == t) {
                        v = SAME;
                    } else {
                        walked[n++] = x;
                        x = next(e);
                        continue;
                    }
                    verdict[x] = v;
                }
                while (n > 0) {
                    verdict[walked[--n]] = v;
                }
                if (v == CHANGED && s != t) {
                    if (bits[t] == null) {
                        bits[t] = new long[(capacity + 63) >>> 6];
                    }
                    bits[t][s >>> 6] |= 1L << s;
                    size++;
                }
            }
        }
        return size == 0 ? NONE_CHANGED : new ChangedPairs(names, bits, size);
    }

    @Override
    public boolean contains(long srcDpid, long dstDpid) {
        int s = names.indexOf(srcDpid);
        int t = names.indexOf(dstDpid);
        return s >= 0 && t >= 0 && t < sourcesByDestination.length && sourcesByDestination[t] != null
                && (sourcesByDestination[t][s >>> 6] & 1L << s) != 0;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public void forEach(PairConsumer action) {
        for (int t = 0; t < sourcesByDestination.length; t++) {
            long[] sources = sourcesByDestination[t];
            for (int w = 0; sources != null && w < sources.length; w++) {
                for (long bits = sources[w]; bits != 0; bits &= bits - 1) {
                    int s = w << 6 | Long.numberOfTrailingZeros(bits);
                    action.accept(names.dpid(s), names.dpid(t));
                }
            }
        }
    }

    @Override
    public String toString() {
        return size + " changed routes";
    }
}
