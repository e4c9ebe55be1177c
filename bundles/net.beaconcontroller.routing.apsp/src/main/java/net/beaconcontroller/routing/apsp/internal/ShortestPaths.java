package net.beaconcontroller.routing.apsp.internal;

import static net.beaconcontroller.routing.apsp.internal.Entries.NONE;
import static net.beaconcontroller.routing.apsp.internal.Entries.UNREACHABLE;
import static net.beaconcontroller.routing.apsp.internal.Entries.distance;
import static net.beaconcontroller.routing.apsp.internal.Entries.next;

import java.util.Arrays;

/**
 * The shortest-path trees towards each destination, built and repaired. Links are unweighted, so a tree is a
 * breadth-first search over the links backwards from its destination. Of the neighbours one step closer to the
 * destination a switch always uses the one with the lowest {@linkplain DpidIndex#orderKey order key}: every table
 * entry is then a function of the links alone, whichever way it was computed and in whatever order links came.
 */
final class ShortestPaths {
    /** Scratch space of the writer, sized to the tables. */
    private int[] queue = new int[0];
    private long[] starts = new long[0];
    private int[] found = new int[0];

    /** The tree towards {@code t}, from scratch: O(switches + links). */
    int[] tree(Update up, int t) {
        int[] queue = scratch(up.capacity());
        var row = new int[up.capacity()];
        Arrays.fill(row, NONE);
        row[t] = Entries.of(0, t);
        queue[0] = t;
        for (int head = 0, tail = 1; head < tail; head++) {
            int z = queue[head];
            int d = distance(row[z]) + 1;
            long zKey = up.index.orderKey(z);
            for (int x : up.in[z]) {
                int e = row[x];
                if (e == NONE) {
                    row[x] = Entries.of(d, z);
                    queue[tail++] = x;
                } else if (distance(e) == d && zKey < up.index.orderKey(next(e))) {
                    row[x] = Entries.of(d, z);
                }
            }
        }
        return row;
    }

    /**
     * Repairs every tree after a link from {@code u} to a new neighbour {@code w} came up, {@code up.out} and
     * {@code up.in} already showing it. Through the new link the distance from {@code x} to {@code t} is
     * {@code d(x,u) + 1 + d(w,t)}: neither part can use the link itself, so both come from the old tables. A tree in
     * which {@code u} does not get strictly closer keeps its distances; if {@code u} gets as close through
     * {@code w} as before, only {@code u}'s tie-break can change. Cost: O(switches) per tree that gets shorter,
     * plus re-choosing the next switch of the switches that got closer and of their neighbours.
     */
    void linkUp(Update up, int u, int w) {
        int[] toU = up.rows[u]; // no path towards u leaves u, so this row stays as it is
        long wKey = up.index.orderKey(w);
        int[] closer = scratch(up.capacity());
        for (int t = 0; t < up.capacity(); t++) {
            int[] row = up.rows[t];
            if (row == null || distance(row[w]) == UNREACHABLE) {
                continue;
            }
            int viaW = distance(row[w]) + 1;
            int du = distance(row[u]);
            if (du == viaW && wKey < up.index.orderKey(next(row[u]))) {
                up.edit(t)[u] = Entries.of(du, w);
            } else if (du > viaW) {
                row = up.edit(t);
                int n = 0;
                for (int x = 0; x < toU.length; x++) {
                    int d = distance(toU[x]);
                    if (d != UNREACHABLE && d + viaW < distance(row[x])) {
                        row[x] = Entries.of(d + viaW, 0); // the next switch is chosen below
                        closer[n++] = x;
                    }
                }
                for (int i = 0; i < n; i++) {
                    int x = closer[i];
                    chooseNext(up, row, x);
                    for (int y : up.in[x]) {
                        chooseNext(up, row, y);
                    }
                }
            }
        }
    }

    /**
     * Repairs every tree after the last link from {@code u} to {@code w} went down, {@code up.out} and {@code up.in}
     * already without it. Only the trees that used the link change, and in each only the switches whose path went
     * through it ({@code u}'s subtree): the others keep their distance, and their next switch too, as the subtree
     * only gets farther. Cost per such tree: the subtree's links, plus sorting the subtree.
     */
    void linkDown(Update up, int u, int w) {
        for (int t = 0; t < up.capacity(); t++) {
            int[] row = up.rows[t];
            if (row != null && next(row[u]) == w) {
                regrow(up, up.edit(t), u);
            }
        }
    }

    /**
     * Searches {@code u}'s subtree again from its border: each switch in it starts at one more than its nearest
     * neighbour outside, then a breadth-first search inside, taking starts and searched switches in order of distance.
     */
    private void regrow(Update up, int[] row, int u) {
        int[] subtree = scratch(up.capacity());
        int n = 1;
        subtree[0] = u;
        for (int i = 0; i < n; i++) {
            int y = subtree[i];
            for (int x : up.in[y]) {
                if (next(row[x]) == y) {
                    subtree[n++] = x;
                }
            }
        }
        for (int i = 0; i < n; i++) {
            row[subtree[i]] = NONE;
        }
        if (starts.length < n) {
            starts = new long[up.capacity()];
            found = new int[up.capacity()];
        }
        int s = 0;
        for (int i = 0; i < n; i++) {
            int x = subtree[i];
            int d = UNREACHABLE;
            for (int z : up.out[x].to) {
                d = Math.min(d, distance(row[z]) + 1);
            }
            if (d < UNREACHABLE) {
                row[x] = Entries.of(d, 0); // the next switch is chosen below
                starts[s++] = (long) d << 32 | x;
            }
        }
        Arrays.sort(starts, 0, s);
        for (int start = 0, head = 0, tail = 0; start < s || head < tail; ) {
            int z;
            if (head < tail && (start == s || distance(row[found[head]]) <= starts[start] >>> 32)) {
                z = found[head++];
            } else {
                z = (int) starts[start];
                if (distance(row[z]) < starts[start++] >>> 32) {
                    continue; // found closer from inside since
                }
            }
            int d = distance(row[z]) + 1;
            for (int x : up.in[z]) {
                if (d < distance(row[x])) { // true only inside the subtree: nothing outside got farther
                    row[x] = Entries.of(d, 0);
                    found[tail++] = x;
                }
            }
        }
        for (int i = 0; i < n; i++) {
            chooseNext(up, row, subtree[i]);
        }
    }

    private int[] scratch(int capacity) {
        if (queue.length < capacity) {
            queue = new int[capacity];
        }
        return queue;
    }

    /** Re-chooses {@code x}'s next switch: its first neighbour, in order-key order, one step closer. */
    private static void chooseNext(Update up, int[] row, int x) {
        int d = distance(row[x]);
        if (d == 0 || d == UNREACHABLE) {
            return;
        }
        for (int z : up.out[x].to) {
            if (distance(row[z]) == d - 1) {
                row[x] = Entries.of(d, z);
                return;
            }
        }
    }
}
