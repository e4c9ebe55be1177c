package net.beaconcontroller.routing.apsp.internal;

import static net.beaconcontroller.routing.apsp.internal.Entries.NONE;
import static net.beaconcontroller.routing.apsp.internal.Entries.at;
import static net.beaconcontroller.routing.apsp.internal.Entries.next;

import java.util.Arrays;

import net.beaconcontroller.routing.RouteChanges;

/** The pairs whose path differs between two snapshots: a bit set of sources for each destination that changed. */
final class ChangedPairs implements RouteChanges {
    static final ChangedPairs NONE_CHANGED = new ChangedPairs(DpidIndex.EMPTY, new long[0][], 0);

    private static final int[] NO_ROW = new int[0];

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
     * used the link from {@code portFrom} to {@code portTo} whose ports changed (-1 for none), are looked at. In such
     * a tree a path changed exactly when it went through a switch that now has another next switch (or another link
     * to it), or is new: those switches are found by comparing the rows (a vectorised scan), and the paths through
     * them by walking the old tree down from them over the old links.
     *
     * @param names an index naming every switch of both snapshots: a step only adds switches or only removes them
     */
    static ChangedPairs between(Snapshot before, Snapshot after, DpidIndex names, int portFrom, int portTo) {
        int capacity = after.rows.length;
        var bits = new long[capacity][];
        int size = 0;
        var pending = new int[capacity];
        for (int t = 0; t < capacity; t++) {
            int[] old = t < before.rows.length ? before.rows[t] : null;
            int[] now = after.rows[t];
            boolean moved = portFrom >= 0 && next(at(old, portFrom)) == portTo;
            if (old == now && !moved) {
                continue;
            }
            var changed = new long[(capacity + 63) >>> 6];
            set(changed, t); // a switch to itself is always one hop: never a change
            int n = 0;
            for (int x = firstDifference(old, now, 0); x >= 0; x = firstDifference(old, now, x + 1)) {
                if (next(at(old, x)) != next(at(now, x)) && set(changed, x)) {
                    pending[n++] = x;
                }
            }
            if (moved && set(changed, portFrom)) {
                pending[n++] = portFrom;
            }
            int count = n;
            while (n > 0) {
                int y = pending[--n];
                if (at(old, y) == NONE) {
                    continue; // no old path went through it
                }
                for (int x : before.in[y]) {
                    if (next(old[x]) == y && set(changed, x)) {
                        pending[n++] = x;
                        count++;
                    }
                }
            }
            if (count > 0) {
                changed[t >>> 6] &= ~(1L << t);
                bits[t] = changed;
                size += count;
            }
        }
        return size == 0 ? NONE_CHANGED : new ChangedPairs(names, bits, size);
    }

    /** Sets bit {@code i}; false when it was set already. */
    private static boolean set(long[] bits, int i) {
        long before = bits[i >>> 6];
        bits[i >>> 6] = before | 1L << i;
        return (before & 1L << i) == 0;
    }

    /** The first switch from {@code from} on whose entries differ; a missing row, or entry past its end, is none. */
    private static int firstDifference(int[] old, int[] now, int from) {
        int[] a = old == null ? NO_ROW : old;
        int[] b = now == null ? NO_ROW : now;
        int common = Math.min(a.length, b.length);
        if (from < common) {
            int i = Arrays.mismatch(a, from, common, b, from, common);
            if (i >= 0) {
                return from + i;
            }
            from = common;
        }
        int[] longer = a.length > b.length ? a : b;
        for (int x = from; x < longer.length; x++) {
            if (longer[x] != NONE) {
                return x;
            }
        }
        return -1;
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
