package net.beaconcontroller.util;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PrefetchTest {

    @Test
    void holdsUpToItsCapacityIgnoresBadIndexesAndEmptiesOnRun() {
        var p = new Prefetch();
        var longs = new long[4];
        var ints = new int[4];
        p.load(longs, -1);
        p.load(longs, 4);
        p.load(ints, 4);
        assertEquals(0, p.size(), "indexes out of bounds are ignored");
        for (int i = 0; i < Prefetch.CAPACITY + 10; i++) {
            p.load(longs, i % 4);
            p.load(ints, i % 4);
        }
        assertEquals(2 * Prefetch.CAPACITY, p.size(), "more than the capacity is ignored");
        p.run();
        assertEquals(0, p.size());
        p.load(longs, 3);
        assertEquals(1, p.size(), "usable again after a run");
    }
}
