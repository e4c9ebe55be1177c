package net.beaconcontroller.routing.apsp.internal;

import java.util.Arrays;

/**
 * One step of the writer: a private, mutable copy of a snapshot's tables that copies a row only when the step first
 * changes it, and becomes the next snapshot when the step is done.
 */
final class Update {
    private static final int[] NO_NEIGHBOURS = new int[0];

    DpidIndex index;
    int[][] rows;
    OutLinks[] out;
    int[][] in;
    /** Rows this step made itself and may change in place. */
    private boolean[] owned;

    Update(Snapshot base) {
        index = base.index;
        rows = base.rows.clone();
        out = base.out.clone();
        in = base.in.clone();
        owned = new boolean[rows.length];
    }

    int capacity() {
        return rows.length;
    }

    /** Gives {@code dpid} an index, with a row in which only the switch itself reaches itself. */
    int addSwitch(long dpid) {
        index = index.with(dpid);
        if (index.capacity() > rows.length) {
            grow(index.capacity());
        }
        int i = index.indexOf(dpid);
        var row = new int[rows.length];
        Arrays.fill(row, Entries.NONE);
        row[i] = Entries.of(0, i);
        replace(i, row);
        out[i] = OutLinks.NONE;
        in[i] = NO_NEIGHBOURS;
        return i;
    }

    /** Frees the index of a switch that lost its last link; no row reaches it any more. */
    void removeSwitch(int i) {
        index = index.without(i);
        rows[i] = null;
        out[i] = null;
        in[i] = null;
    }

    /** Row {@code t}, to be changed in place. */
    int[] edit(int t) {
        if (!owned[t]) {
            rows[t] = rows[t].clone();
            owned[t] = true;
        }
        return rows[t];
    }

    void replace(int t, int[] row) {
        rows[t] = row;
        owned[t] = true;
    }

    Snapshot snapshot() {
        return new Snapshot(index, rows, out, in);
    }

    private void grow(int capacity) {
        int old = rows.length;
        rows = Arrays.copyOf(rows, capacity);
        out = Arrays.copyOf(out, capacity);
        in = Arrays.copyOf(in, capacity);
        owned = new boolean[capacity];
        for (int t = 0; t < old; t++) {
            if (rows[t] != null) {
                var row = Arrays.copyOf(rows[t], capacity);
                Arrays.fill(row, old, capacity, Entries.NONE);
                replace(t, row);
            }
        }
    }
}
