package net.beaconcontroller.util;

/**
 * Array elements to load together, so that their cache misses overlap: Java has no prefetch instruction, but a
 * tight loop of independent loads keeps many misses in flight at once, where the same loads spread over the handling
 * of one message after another stall one at a time.
 *
 * <pre>{@code
 * for (each message about to be handled) table.prefetch(key, prefetch);   // records where its lookup will read
 * prefetch.run();                                                         // loads them all, back to back
 * }</pre>
 *
 * Holds up to {@value #CAPACITY} elements per array type; more are ignored (a prefetch is only a hint). Not
 * thread-safe: one per thread.
 */
public final class Prefetch {
    static final int CAPACITY = 256;

    private final long[][] longArrays = new long[CAPACITY][];
    private final int[] longIndexes = new int[CAPACITY];
    private int longs;
    private final int[][] intArrays = new int[CAPACITY][];
    private final int[] intIndexes = new int[CAPACITY];
    private int ints;
    /** Consumes the loads, so that the JIT keeps them; its value means nothing. */
    private long sink;

    /** Adds {@code array[index]} to the next {@link #run}; an index out of bounds is ignored. */
    public void load(long[] array, int index) {
        if (longs < CAPACITY && index >= 0 && index < array.length) {
            longArrays[longs] = array;
            longIndexes[longs++] = index;
        }
    }

    /** Adds {@code array[index]} to the next {@link #run}; an index out of bounds is ignored. */
    public void load(int[] array, int index) {
        if (ints < CAPACITY && index >= 0 && index < array.length) {
            intArrays[ints] = array;
            intIndexes[ints++] = index;
        }
    }

    /** The number of elements added since the last {@link #run}. */
    public int size() {
        return longs + ints;
    }

    /** Loads every element added, then forgets them (and the arrays). */
    public void run() {
        long acc = 0;
        for (int i = 0; i < longs; i++) {
            acc += longArrays[i][longIndexes[i]];
            longArrays[i] = null;
        }
        for (int i = 0; i < ints; i++) {
            acc += intArrays[i][intIndexes[i]];
            intArrays[i] = null;
        }
        sink += acc;
        longs = 0;
        ints = 0;
    }
}
