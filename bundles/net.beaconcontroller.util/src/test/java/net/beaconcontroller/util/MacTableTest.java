package net.beaconcontroller.util;

import static net.beaconcontroller.util.MacTable.ABSENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class MacTableTest {
    private static final long MAX_MAC = 0xffff_ffff_ffffL;
    /** A bound whose arrays start, and stay, at 15 slots: small enough to craft collisions and wrap-around. */
    private static final int SMALL_BOUND = 12;
    private static final int SMALL_CAPACITY = 15;

    @Test
    void emptyTableKnowsNothing() {
        var table = new MacTable(100, 300);
        assertEquals(0, table.size());
        assertEquals(ABSENT, table.get(0x001122334455L, 0));
        assertEquals(ABSENT, table.get(0, 0));
        assertEquals(ABSENT, table.remove(0x001122334455L));
        assertEquals(16, table.capacity());
        assertEquals(100, table.maxEntries());
        assertEquals(300, table.idleSeconds());
    }

    @Test
    void putThenGetAndOverwrite() {
        var table = new MacTable(100, 300);
        table.put(0x001122334455L, 7, 10);
        assertEquals(7, table.get(0x001122334455L, 10));
        table.put(0x001122334455L, 9, 11);
        assertEquals(9, table.get(0x001122334455L, 11));
        assertEquals(1, table.size());
        assertEquals(ABSENT, table.get(0x001122334456L, 11));
    }

    @Test
    void extremeKeysAndPorts() {
        var table = new MacTable(100, 300);
        long[] macs = {0, 1, MAX_MAC, MAX_MAC - 1, 0x0180_c200_0000L, 1L << 47};
        for (long mac : macs) {
            for (int port : new int[] {0, 65535, 1}) {
                table.put(mac, port, 5);
                assertEquals(port, table.get(mac, 5), () -> MacAddress.toString(mac));
            }
        }
        assertEquals(macs.length, table.size());
        for (long mac : macs) {
            assertEquals(1, table.remove(mac));
            assertEquals(ABSENT, table.get(mac, 5));
        }
        assertEquals(0, table.size());
    }

    @Test
    void macZeroOnPortZeroIsNotAnEmptySlot() {
        var table = new MacTable(100, 300);
        table.put(0, 0, 1);
        assertEquals(1, table.size());
        assertEquals(0, table.get(0, 1));
        assertEquals(ABSENT, table.get(1, 1));
        assertEquals(0, table.remove(0));
        assertEquals(ABSENT, table.get(0, 1));
        assertEquals(ABSENT, table.remove(0));
        assertEquals(0, table.size());
    }

    @Test
    void badArgumentsAreRejectedAndChangeNothing() {
        var table = new MacTable(100, 300);
        table.put(5, 5, 0);
        assertThrows(IllegalArgumentException.class, () -> table.put(-1, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> table.put(1L << 48, 1, 0));
        var e = assertThrows(IllegalArgumentException.class, () -> table.put(5, 65536, 0));
        assertTrue(e.getMessage().contains("65536"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> table.put(5, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> table.get(1L << 48, 0));
        assertThrows(IllegalArgumentException.class, () -> table.remove(Long.MIN_VALUE));
        assertEquals(5, table.get(5, 0));
        assertEquals(1, table.size());
        assertEquals(0, table.removeValue(65536));
        assertEquals(0, table.removeValue(-1));

        assertThrows(IllegalArgumentException.class, () -> new MacTable(0, 300));
        assertThrows(IllegalArgumentException.class, () -> new MacTable(MacTable.MAX_ENTRIES + 1, 300));
        assertThrows(IllegalArgumentException.class, () -> new MacTable(100, 0));
    }

    @Test
    void collidingKeysFillConsecutiveSlots() {
        var table = new MacTable(SMALL_BOUND, 300);
        assertEquals(SMALL_CAPACITY, table.capacity());
        long[] keys = keysWithHome(3, 5);
        for (int i = 0; i < keys.length; i++) {
            table.put(keys[i], 100 + i, 0);
        }
        for (int i = 0; i < keys.length; i++) {
            assertEquals(3 + i, slotOf(table, keys[i]));
            assertEquals(100 + i, table.get(keys[i], 0));
        }
        // A key of the same home that is absent is still not found.
        assertEquals(ABSENT, table.get(keysWithHome(3, 6)[5], 0));
    }

    @Test
    void poorerKeyTakesTheSlotOfARicherOne() {
        var table = new MacTable(SMALL_BOUND, 300);
        long c = keysWithHome(6, 1)[0];
        long[] ab = keysWithHome(5, 2);
        table.put(c, 1, 0);
        table.put(ab[0], 2, 0);
        table.put(ab[1], 3, 0);
        assertEquals(5, slotOf(table, ab[0]));
        assertEquals(6, slotOf(table, ab[1]));
        assertEquals(7, slotOf(table, c));
        assertEquals(1, table.get(c, 0));
        assertEquals(2, table.get(ab[0], 0));
        assertEquals(3, table.get(ab[1], 0));
    }

    @Test
    void deletingInTheMiddleOfAClusterShiftsTheRestBack() {
        var table = new MacTable(SMALL_BOUND, 300);
        long[] abc = keysWithHome(5, 3);
        long d = keysWithHome(6, 1)[0];
        long e = keysWithHome(9, 1)[0];
        for (long key : new long[] {abc[0], abc[1], abc[2], d, e}) {
            table.put(key, (int) (key & 0xffff), 0);
        }
        assertEquals(8, slotOf(table, d));
        assertEquals(9, slotOf(table, e));

        assertEquals((int) (abc[1] & 0xffff), table.remove(abc[1]));
        assertEquals(5, slotOf(table, abc[0]));
        assertEquals(6, slotOf(table, abc[2]));
        assertEquals(7, slotOf(table, d));
        assertEquals(9, slotOf(table, e), "an entry at its home slot stays");
        assertEquals(0, slots(table)[8]);
        assertEquals(ABSENT, table.get(abc[1], 0));
        for (long key : new long[] {abc[0], abc[2], d, e}) {
            assertEquals((int) (key & 0xffff), table.get(key, 0));
        }
        assertEquals(4, table.size());
    }

    @Test
    void clustersWrapAroundTheEndOfTheArrays() {
        var table = new MacTable(SMALL_BOUND, 300);
        long[] last = keysWithHome(SMALL_CAPACITY - 1, 3);
        long first = keysWithHome(0, 1)[0];
        for (long key : last) {
            table.put(key, (int) (key & 0xffff), 0);
        }
        table.put(first, 42, 0);
        assertEquals(14, slotOf(table, last[0]));
        assertEquals(0, slotOf(table, last[1]));
        assertEquals(1, slotOf(table, last[2]));
        assertEquals(2, slotOf(table, first));

        table.remove(last[0]);
        assertEquals(14, slotOf(table, last[1]));
        assertEquals(0, slotOf(table, last[2]));
        assertEquals(1, slotOf(table, first));
        assertEquals(0, slots(table)[2]);
        assertEquals((int) (last[1] & 0xffff), table.get(last[1], 0));
        assertEquals((int) (last[2] & 0xffff), table.get(last[2], 0));
        assertEquals(42, table.get(first, 0));
        assertEquals(ABSENT, table.get(last[0], 0));
    }

    @Test
    void entryLivesExactlyIdleSecondsAfterItsLastPut() {
        var table = new MacTable(100, 300);
        table.put(0x0a, 1, 100);
        table.put(0, 2, 100);
        assertEquals(1, table.get(0x0a, 400));
        assertEquals(2, table.get(0, 400));
        assertEquals(2, table.size());
        assertEquals(ABSENT, table.get(0x0a, 401));
        assertEquals(ABSENT, table.get(0, 401));
        assertEquals(0, table.size(), "a get of an aged entry removes it");

        table.put(0x0b, 1, 100);
        table.put(0x0b, 3, 350);
        assertEquals(3, table.get(0x0b, 650));
        assertEquals(ABSENT, table.get(0x0b, 651));
    }

    @Test
    void agingSurvivesTheClockWrappingAround() {
        var table = new MacTable(100, 10);
        table.put(0x0a, 1, Integer.MAX_VALUE - 5);
        assertEquals(1, table.get(0x0a, Integer.MIN_VALUE + 4));
        assertEquals(ABSENT, table.get(0x0a, Integer.MIN_VALUE + 5));
    }

    @Test
    void noAgingKeepsEntriesForever() {
        var table = new MacTable(100, MacTable.NO_AGING);
        table.put(0x0a, 1, Integer.MIN_VALUE);
        table.put(0, 2, Integer.MIN_VALUE);
        assertEquals(1, table.get(0x0a, Integer.MAX_VALUE));
        assertEquals(2, table.get(0, Integer.MAX_VALUE));
        assertEquals(0, table.expire(Integer.MAX_VALUE));
    }

    @Test
    void expireRemovesExactlyTheAgedEntries() {
        var table = new MacTable(100, 10);
        table.put(0x0a, 1, 0);
        table.put(0x0b, 2, 5);
        table.put(0x0c, 3, 10);
        table.put(0, 4, 0);
        assertEquals(2, table.expire(15));
        assertEquals(2, table.size());
        assertEquals(ABSENT, table.get(0x0a, 15));
        assertEquals(ABSENT, table.get(0, 15));
        assertEquals(2, table.get(0x0b, 15));
        assertEquals(3, table.get(0x0c, 15));
    }

    @Test
    void expireSweepsAClusterThatWrapsAround() {
        var table = new MacTable(SMALL_BOUND, 10);
        long[] last = keysWithHome(SMALL_CAPACITY - 1, 4);
        long[] first = keysWithHome(0, 2);
        // Two aged entries side by side: the sweep must look again at the slot the second one shifts into.
        int[] times = {20, 0, 0, 20};
        for (int i = 0; i < last.length; i++) {
            table.put(last[i], i, times[i]);
        }
        table.put(first[0], 10, 0);
        table.put(first[1], 11, 20);
        assertEquals(3, table.expire(25));
        assertEquals(3, table.size());
        assertEquals(0, table.get(last[0], 25));
        assertEquals(3, table.get(last[3], 25));
        assertEquals(11, table.get(first[1], 25));
        assertEquals(14, slotOf(table, last[0]));
        assertEquals(0, slotOf(table, last[3]));
        assertEquals(1, slotOf(table, first[1]));
    }

    @Test
    void removeValueForgetsEveryMacOnThePort() {
        var table = new MacTable(SMALL_BOUND, 300);
        long[] last = keysWithHome(SMALL_CAPACITY - 1, 4);
        long[] middle = keysWithHome(6, 3);
        int[] lastPorts = {3, 3, 4, 3};
        for (int i = 0; i < last.length; i++) {
            table.put(last[i], lastPorts[i], 0);
        }
        // Two matches side by side: the scan must look again at the slot the second one shifts into.
        table.put(middle[0], 3, 0);
        table.put(middle[1], 3, 0);
        table.put(middle[2], 4, 0);
        table.put(0, 3, 0);
        assertEquals(0, table.removeValue(5));
        assertEquals(6, table.removeValue(3));
        assertEquals(2, table.size());
        assertEquals(4, table.get(last[2], 0));
        assertEquals(4, table.get(middle[2], 0));
        assertEquals(14, slotOf(table, last[2]));
        assertEquals(6, slotOf(table, middle[2]));
        for (long key : new long[] {last[0], last[1], last[3], middle[0], middle[1], 0}) {
            assertEquals(ABSENT, table.get(key, 0));
        }
    }

    @Test
    void clearEmptiesTheTableAndKeepsItUsable() {
        var table = new MacTable(1000, 300);
        for (long mac = 0; mac < 500; mac++) {
            table.put(mac, 1, 0);
        }
        int capacity = table.capacity();
        table.clear();
        assertEquals(0, table.size());
        assertEquals(capacity, table.capacity());
        for (long mac = 0; mac < 500; mac++) {
            assertEquals(ABSENT, table.get(mac, 0));
        }
        table.put(7, 2, 0);
        assertEquals(2, table.get(7, 0));
        assertEquals(1, table.size());
    }

    @Test
    void arraysDoubleFromSixteenSlotsUpToTheBound() {
        var table = new MacTable(10_000, 100);
        var capacities = new TreeSet<Integer>();
        for (long mac = 1; mac <= 10_000; mac++) {
            table.put(mac, (int) mac & 0xffff, mac % 2 == 0 ? 0 : 50);
            capacities.add(table.capacity());
            if (mac == 12) {
                assertEquals(16, table.capacity(), "12 entries fit 16 slots at load 0.75");
            } else if (mac == 13) {
                assertEquals(32, table.capacity());
            }
        }
        assertEquals(List.of(16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 12_500), List.copyOf(capacities));
        assertEquals(10_000, table.size());
        // Ports and last-seen times moved with their MACs through every doubling.
        for (long mac = 1; mac <= 10_000; mac++) {
            assertEquals(mac % 2 == 0 ? ABSENT : (int) mac & 0xffff, table.get(mac, 120));
        }
        assertEquals(5_000, table.size());
    }

    @Test
    void boundOfOneKeepsTheLatestMac() {
        var table = new MacTable(1, 300);
        table.put(1, 1, 0);
        table.put(2, 2, 1);
        assertEquals(1, table.size());
        assertEquals(ABSENT, table.get(1, 1));
        assertEquals(2, table.get(2, 1));
        table.put(0, 3, 2);
        assertEquals(1, table.size());
        assertEquals(3, table.get(0, 2));
        assertEquals(ABSENT, table.get(2, 2));
        table.put(5, 4, 3);
        assertEquals(1, table.size());
        assertEquals(ABSENT, table.get(0, 3));
        assertEquals(4, table.get(5, 3));
    }

    @Test
    void fullSmallTableEvictsTheLeastRecentlySeen() {
        // 15 slots, fewer than the eviction window: every entry is in the neighbourhood of every key.
        var table = new MacTable(SMALL_BOUND, 1000);
        for (int mac = 1; mac <= SMALL_BOUND; mac++) {
            table.put(mac, mac, mac);
        }
        table.put(100, 100, 20);
        assertEquals(SMALL_BOUND, table.size());
        assertEquals(ABSENT, table.get(1, 20));
        table.put(2, 2, 21); // refreshing 2 makes 3 the oldest
        table.put(101, 101, 22);
        assertEquals(ABSENT, table.get(3, 22));
        assertEquals(2, table.get(2, 22));
        assertEquals(100, table.get(100, 22));
        assertEquals(101, table.get(101, 22));
        assertEquals(SMALL_BOUND, table.size());
    }

    @Test
    void macZeroTakesPartInEviction() {
        var table = new MacTable(3, 1000);
        table.put(0, 1, 0);
        table.put(0x0a, 2, 1);
        table.put(0x0b, 3, 2);
        table.put(0x0c, 4, 3);
        assertEquals(ABSENT, table.get(0, 3));
        table.put(0, 5, 4);
        assertEquals(3, table.size());
        assertEquals(ABSENT, table.get(0x0a, 4));
        assertEquals(5, table.get(0, 4));
        assertEquals(3, table.get(0x0b, 4));
        assertEquals(4, table.get(0x0c, 4));
    }

    @Test
    void fullLargeTableEvictsTheOldestEntryInTheNewMacsNeighbourhood() {
        var table = new MacTable(1000, 100_000);
        long stale = 0x00aa_bb00_0000L;
        table.put(stale, 1, 0);
        for (long mac = 1; table.size() < 1000; mac++) {
            table.put(mac, 2, 1000);
        }
        assertEquals(1250, table.capacity());
        int slot = slotOf(table, stale);
        long newcomer = 0x0022_0000_0000L;
        while (MacTable.home(MacTable.mix(newcomer), 1250) != slot || table.get(newcomer, 1000) != ABSENT) {
            newcomer++;
        }
        table.put(newcomer, 3, 1000);
        assertEquals(1000, table.size());
        assertEquals(ABSENT, table.get(stale, 1000));
        assertEquals(3, table.get(newcomer, 1000));
    }

    @Test
    void aFullTableNeverGrowsAndAlwaysLearnsTheNewMac() {
        var table = new MacTable(1000, MacTable.NO_AGING);
        for (int i = 0; i < 20_000; i++) {
            long mac = 0x0011_2200_0000L + i * 7919L;
            table.put(mac, i & 0xffff, i);
            assertEquals(i & 0xffff, table.get(mac, i));
            assertEquals(Math.min(i + 1, 1000), table.size());
        }
        assertEquals(1250, table.capacity());
        int live = 0;
        for (int i = 19_000; i < 20_000; i++) {
            if (table.get(0x0011_2200_0000L + i * 7919L, 20_000) != ABSENT) {
                live++;
            }
        }
        assertTrue(live > 800, "eviction approximates LRU: " + live + " of the 1000 newest MACs kept");
    }

    @Test
    void forEachReportsEveryEntryWithItsMacPortAndLastSeen() {
        var table = new MacTable(1000, 10);
        var expected = new HashMap<Long, List<Integer>>();
        long[] macs = {0, 1, MAX_MAC, 0x0011_2233_4455L, 0x0180_c200_000eL};
        for (int i = 0; i < macs.length; i++) {
            table.put(macs[i], 65535 - i, i * 100);
            expected.put(macs[i], List.of(65535 - i, i * 100));
        }
        for (long mac = 2; mac < 300; mac++) {
            table.put(mac, (int) mac, -(int) mac);
            expected.put(mac, List.of((int) mac, -(int) mac));
        }
        Map<Long, List<Integer>> seen = new HashMap<>();
        table.forEach((mac, port, lastSeen) -> assertEquals(null, seen.put(mac, List.of(port, lastSeen))));
        assertEquals(expected, seen);
    }

    @Test
    void mixIsABijectionOnFortyEightBits() {
        assertEquals(0, MacTable.mix(0));
        var random = new java.util.SplittableRandom(1);
        List<Long> keys = new ArrayList<>(List.of(1L, MAX_MAC, MAX_MAC - 1, 1L << 47, 0x0000_00ff_ffffL));
        for (int i = 0; i < 10_000; i++) {
            keys.add(random.nextLong() & MAX_MAC);
        }
        for (long key : keys) {
            long mixed = MacTable.mix(key);
            assertEquals(0, mixed & ~MAX_MAC);
            assertTrue(key == 0 || mixed != 0);
            assertEquals(key, MacTable.unmix(mixed));
            assertEquals(key, MacTable.mix(MacTable.unmix(key)));
        }
    }

    @Test
    void sequentialAndSameVendorMacsSpreadEvenly() {
        int buckets = 1024;
        int n = 100 * buckets;
        long oui = 0x0011_2200_0000L;
        Map<String, java.util.function.IntToLongFunction> families = Map.of(
                "sequential from 0", i -> i + 1,
                "sequential in one OUI", i -> oui + i,
                "stride 256 in one OUI", i -> oui + ((long) i << 8),
                "stride 65536 in one OUI", i -> oui + ((long) i << 16),
                "OUI only", i -> (long) i << 24 | 0x33_4455,
                "cbench-like (switch:host)", i -> (long) (i / 1000) << 32 | (i % 1000));
        // Chi-square with 1023 degrees of freedom: mean 1023, standard deviation 45; allow 6 deviations.
        for (var family : families.entrySet()) {
            var counts = new int[buckets];
            for (int i = 0; i < n; i++) {
                counts[MacTable.home(MacTable.mix(family.getValue().applyAsLong(i)), buckets)]++;
            }
            double chiSquare = 0;
            for (int c : counts) {
                chiSquare += (c - 100.0) * (c - 100.0) / 100.0;
            }
            assertTrue(chiSquare < 1023 + 6 * 45, family.getKey() + ": chi-square " + chiSquare);
        }
    }

    @Test
    void everyMacBitFlipsEachHomeBitHalfTheTime() {
        var random = new java.util.SplittableRandom(3);
        int samples = 10_000;
        var flips = new int[48][32];
        for (int s = 0; s < samples; s++) {
            long key = random.nextLong() & MAX_MAC;
            long mixed = MacTable.mix(key);
            for (int in = 0; in < 48; in++) {
                // The home slot comes from the top 32 of the 48 mixed bits.
                long changed = (mixed ^ MacTable.mix(key ^ 1L << in)) >>> 16;
                for (int out = 0; out < 32; out++) {
                    flips[in][out] += (int) (changed >>> out) & 1;
                }
            }
        }
        for (int in = 0; in < 48; in++) {
            for (int out = 0; out < 32; out++) {
                double p = flips[in][out] / (double) samples;
                assertTrue(Math.abs(p - 0.5) < 0.05, "MAC bit " + in + " flips home bit " + out + " with p=" + p);
            }
        }
    }

    @Test
    void probesStayShortAtTheBoundForSequentialMacs() {
        var table = new MacTable(100_000, 300);
        for (long mac = 1; mac <= 100_000; mac++) {
            table.put(mac, 1, 0);
        }
        long[] slots = slots(table);
        int capacity = slots.length;
        long total = 0;
        int longest = 0;
        for (int i = 0; i < capacity; i++) {
            if (slots[i] != 0) {
                int distance = Math.floorMod(i - MacTable.home(slots[i] >>> 16, capacity), capacity);
                total += distance;
                longest = Math.max(longest, distance);
            }
        }
        double mean = total / 100_000.0;
        // Linear probing at load 0.8 with a random hash: mean displacement (1/(1-a) - 1)/2 = 2.
        assertTrue(mean < 2.5, "mean probe distance " + mean);
        assertTrue(longest < 64, "longest probe distance " + longest);
    }

    /** The first {@code n} MACs counting up from 1 whose home is {@code home} in a {@link #SMALL_CAPACITY} table. */
    static long[] keysWithHome(int home, int n) {
        var keys = new long[n];
        int found = 0;
        for (long mac = 1; found < n; mac++) {
            if (MacTable.home(MacTable.mix(mac), SMALL_CAPACITY) == home) {
                keys[found++] = mac;
            }
        }
        return keys;
    }

    @Test
    void prefetchAcceptsAnyValueAndChangesNothing() {
        var table = new MacTable(100, 60);
        for (long mac = 0; mac < 50; mac++) {
            table.put(mac * 0x1_0001L, (int) mac, 0);
        }
        var before = slots(table).clone();
        var prefetch = new Prefetch();
        for (long mac : new long[] {0, 1, 0x10001, 0xffff_ffff_ffffL, -1, Long.MIN_VALUE, 0x1_0000_0000_0000L}) {
            table.prefetch(mac, prefetch);
        }
        assertEquals(14, prefetch.size(), "the start and the end of a slot per MAC");
        prefetch.run();
        assertEquals(0, prefetch.size());
        assertTrue(java.util.Arrays.equals(before, slots(table)));
        assertEquals(50, table.size());
        for (long mac = 0; mac < 50; mac++) {
            assertEquals((int) mac, table.get(mac * 0x1_0001L, 1));
        }
    }

    /** The table's entries by slot (0: empty), read from its array (three ints per slot, the stamp last). */
    static long[] slots(MacTable table) {
        int[] data;
        try {
            var field = MacTable.class.getDeclaredField("data");
            field.setAccessible(true);
            data = (int[]) field.get(table);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
        var slots = new long[data.length / 3];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = (long) data[3 * i] << 32 | data[3 * i + 1] & 0xffff_ffffL;
        }
        return slots;
    }

    static int slotOf(MacTable table, long mac) {
        long[] slots = slots(table);
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] != 0 && slots[i] >>> 16 == MacTable.mix(mac)) {
                return i;
            }
        }
        return -1;
    }
}
