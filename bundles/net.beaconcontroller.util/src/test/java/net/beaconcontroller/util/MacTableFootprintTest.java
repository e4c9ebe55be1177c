package net.beaconcontroller.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Modifier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Memory per entry at the bound, and no allocation on the hot path. */
class MacTableFootprintTest {
    /** A 64-bit JVM with compressed class pointers: mark word, class pointer and length. */
    private static final int ARRAY_HEADER_BYTES = 16;

    @ParameterizedTest
    @ValueSource(ints = {1_000, 100_000, 1_000_000})
    void atMostSixteenBytesPerEntryAtTheBound(int bound) {
        var table = new MacTable(bound, 300);
        long oui = 0x0011_2200_0000L;
        for (long i = 0; table.size() < bound; i++) {
            table.put(oui + i, (int) (i & 0xffff), 0);
        }
        long atBound = arrayBytes(table);
        // More new MACs only evict: the arrays stay as they are.
        for (long i = 0; i < 1000; i++) {
            table.put(0x0033_4400_0000L + i, 1, 1);
        }
        assertEquals(bound, table.size());
        assertEquals(atBound, arrayBytes(table));
        double perEntry = (double) atBound / bound;
        assertTrue(perEntry <= 16, perEntry + " bytes per entry for a bound of " + bound);
        // 12-byte slots at load 0.8, plus rounding up and the array header (the bound in the class comment).
        assertTrue(perEntry <= 15 + 28.0 / bound, perEntry + " bytes per entry");
    }

    @Test
    void anIdleSwitchTableIsSmall() {
        var table = new MacTable(1_000_000, 300);
        assertEquals(16 * 12 + ARRAY_HEADER_BYTES, arrayBytes(table));
    }

    @Test
    void getPutAndRemoveAllocateNothingInSteadyState() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported());
        int bound = 100_000;
        var table = new MacTable(bound, 60);
        var macs = new long[2 * bound];
        var random = new java.util.SplittableRandom(7);
        for (int i = 0; i < macs.length; i++) {
            macs[i] = random.nextLong() & 0xffff_ffff_ffffL;
        }
        // Twice over: the first round fills, evicts and warms up the JIT, the second is measured.
        long allocated = 0;
        for (int round = 0; round < 2; round++) {
            long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            int hits = 0;
            for (int i = 0; i < 1_000_000; i++) {
                long mac = macs[i % macs.length];
                int now = i / 10_000;
                table.put(mac, i & 0xffff, now);
                if (table.get(macs[(i * 31) % macs.length], now) != MacTable.ABSENT) {
                    hits++;
                }
                if (i % 7 == 0) {
                    table.remove(macs[(i * 17) % macs.length]);
                }
            }
            allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
            assertTrue(hits > 0);
        }
        assertTrue(allocated < 1024, allocated + " bytes allocated by 1,000,000 puts and gets");
    }

    /** Bytes held by the table's array fields, headers included; fails on a field kind it cannot count. */
    static long arrayBytes(MacTable table) {
        long bytes = 0;
        for (var field : MacTable.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) || !field.getType().isArray()) {
                continue;
            }
            field.setAccessible(true);
            Object array;
            try {
                array = field.get(table);
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
            int length = java.lang.reflect.Array.getLength(array);
            Class<?> component = field.getType().getComponentType();
            int elementBytes = component == long.class ? 8 : component == int.class ? 4
                    : component == short.class || component == char.class ? 2
                    : component == byte.class || component == boolean.class ? 1 : -1;
            assertTrue(elementBytes > 0, "cannot count " + field);
            bytes += ARRAY_HEADER_BYTES + (long) elementBytes * length;
        }
        return bytes;
    }
}
