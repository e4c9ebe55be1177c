package net.beaconcontroller.config.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The range found from validate() alone is exact, at the type's limits too. */
class IntegerBoundsTest {
    private static IntegerBounds of(long min, long max, long typeMin, long typeMax, Long inside) {
        return IntegerBounds.derive(v -> v >= min && v <= max, typeMin, typeMax, inside);
    }

    @Test
    void findsBothEndsExactly() {
        var b = of(1, 256, Integer.MIN_VALUE, Integer.MAX_VALUE, 1L);
        assertEquals(1, b.min());
        assertEquals(256, b.max());
        assertEquals("an integer from 1 to 256", b.describe(false));
        assertEquals("integers from 1 to 256", b.describe(true));
        var wide = of(65536, 1 << 30, Integer.MIN_VALUE, Integer.MAX_VALUE, 4194304L);
        assertEquals(65536, wide.min());
        assertEquals(1 << 30, wide.max());
    }

    @Test
    void theTypeLimitsMeanUnbounded() {
        assertEquals("an integer", of(Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, 0L)
                .describe(false));
        assertEquals("an integer of at least 0", of(0, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, 10L)
                .describe(false));
        assertEquals("an integer of at most -1", of(Short.MIN_VALUE, -1, Short.MIN_VALUE, Short.MAX_VALUE, null)
                .describe(false));
        var longs = of(-5, Long.MAX_VALUE - 1, Long.MIN_VALUE, Long.MAX_VALUE, null);
        assertEquals(-5, longs.min());
        assertEquals(Long.MAX_VALUE - 1, longs.max());
    }

    @Test
    void anInvalidDefaultFallsBackToSimpleValuesAndNothingValidGivesNoBounds() {
        assertEquals(1, of(1, 9, Integer.MIN_VALUE, Integer.MAX_VALUE, 99L).min());
        assertNull(of(10, 20, Integer.MIN_VALUE, Integer.MAX_VALUE, 99L));
    }
}
