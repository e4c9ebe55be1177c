package net.beaconcontroller.routing.apsp.internal;

import java.util.Arrays;

/**
 * Which switch has which index in the engine's tables, immutable: an open-addressing table from datapath id to index
 * (no boxing on the lookup path) and the datapath id of every index in use. Indices of switches that lost their last
 * link are reused, lowest first, so the tables stay as small as the network.
 */
final class DpidIndex {
    /** Indices must fit the 16 bits a table entry has for the next switch, with {@code 0xffff} left for "none". */
    static final int MAX_SWITCHES = 0xffff;

    static final DpidIndex EMPTY = new DpidIndex(new long[0], new boolean[0], 0);

    private final long[] dpids;
    private final boolean[] used;
    private final int size;
    private final long[] slotDpid;
    /** Index + 1 of the switch in each slot; 0 for an empty slot. */
    private final int[] slotIndex;

    private DpidIndex(long[] dpids, boolean[] used, int size) {
        this.dpids = dpids;
        this.used = used;
        this.size = size;
        int slots = Integer.highestOneBit(Math.max(2, size) * 2) * 2; // load factor at most 1/2
        slotDpid = new long[slots];
        slotIndex = new int[slots];
        for (int i = 0; i < dpids.length; i++) {
            if (used[i]) {
                int slot = firstSlot(dpids[i]);
                while (slotIndex[slot] != 0) {
                    slot = (slot + 1) & (slots - 1);
                }
                slotDpid[slot] = dpids[i];
                slotIndex[slot] = i + 1;
            }
        }
    }

    /** The switch's index, or -1 when it has no links. */
    int indexOf(long dpid) {
        int mask = slotIndex.length - 1;
        for (int slot = firstSlot(dpid); ; slot = (slot + 1) & mask) {
            int index = slotIndex[slot];
            if (index == 0 || slotDpid[slot] == dpid) {
                return index - 1;
            }
        }
    }

    int size() {
        return size;
    }

    long dpid(int index) {
        return dpids[index];
    }

    boolean isUsed(int index) {
        return index < used.length && used[index];
    }

    /** How many indices the tables need room for: one more than the highest ever in use. */
    int capacity() {
        return dpids.length;
    }

    /** This index with {@code dpid} added at the lowest free index; the caller knows it is absent. */
    DpidIndex with(long dpid) {
        int free = 0;
        while (free < used.length && used[free]) {
            free++;
        }
        if (free == MAX_SWITCHES) {
            throw new IllegalStateException("the engine routes at most " + MAX_SWITCHES + " switches");
        }
        long[] newDpids = free < dpids.length ? dpids.clone() : Arrays.copyOf(dpids, Math.min(MAX_SWITCHES, Math.max(8, dpids.length * 2)));
        boolean[] newUsed = Arrays.copyOf(used, newDpids.length);
        newDpids[free] = dpid;
        newUsed[free] = true;
        return new DpidIndex(newDpids, newUsed, size + 1);
    }

    /** This index without the switch at {@code index}. */
    DpidIndex without(int index) {
        boolean[] newUsed = used.clone();
        newUsed[index] = false;
        return new DpidIndex(dpids, newUsed, size - 1);
    }

    /**
     * The order in which equally short paths are chosen: by datapath id read as unsigned, as switches print them.
     * Flipping the sign bit makes signed comparison of the keys give that order.
     */
    long orderKey(int index) {
        return orderKey(dpids[index]);
    }

    static long orderKey(long dpid) {
        return dpid ^ Long.MIN_VALUE;
    }

    private int firstSlot(long dpid) {
        long h = dpid * 0x9e3779b97f4a7c15L; // Fibonacci hashing spreads sequential dpids
        return (int) (h >>> 40) & (slotIndex.length - 1);
    }
}
