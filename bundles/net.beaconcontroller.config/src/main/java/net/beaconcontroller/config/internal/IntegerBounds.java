package net.beaconcontroller.config.internal;

import java.util.function.LongPredicate;

/**
 * The range an integer attribute accepts. The metatype API does not expose an attribute's min and max, only
 * {@code validate()}; since metatype ranges are intervals, a binary search from a value known to be valid finds both
 * ends exactly, for any metatype implementation.
 *
 * @param min the lowest accepted value ({@code typeMin} when unbounded below)
 * @param max the highest accepted value ({@code typeMax} when unbounded above)
 */
record IntegerBounds(long min, long max, long typeMin, long typeMax) {

    /**
     * @param valid  whether a value of the type is accepted
     * @param inside a value believed valid (the default); if it is not, 0, 1, -1 and the type limits are tried
     * @return the bounds, or {@code null} when no valid value was found to search from
     */
    static IntegerBounds derive(LongPredicate valid, long typeMin, long typeMax, Long inside) {
        Long start = null;
        for (Long candidate : new Long[] {inside, 0L, 1L, -1L, typeMin, typeMax}) {
            if (candidate != null && candidate >= typeMin && candidate <= typeMax && valid.test(candidate)) {
                start = candidate;
                break;
            }
        }
        if (start == null) {
            return null;
        }
        return new IntegerBounds(lowest(valid, typeMin, start), highest(valid, start, typeMax), typeMin, typeMax);
    }

    /** The smallest valid value in [lo, validHi], given that validHi is valid. */
    private static long lowest(LongPredicate valid, long lo, long validHi) {
        if (valid.test(lo)) {
            return lo;
        }
        // Invariant: lo invalid, hi valid. The unsigned shift keeps the midpoint exact over the whole long range.
        long hi = validHi;
        while (Long.compareUnsigned(hi - lo, 1) > 0) {
            long mid = lo + ((hi - lo) >>> 1);
            if (valid.test(mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /** The largest valid value in [validLo, hi], given that validLo is valid. */
    private static long highest(LongPredicate valid, long validLo, long hi) {
        if (valid.test(hi)) {
            return hi;
        }
        long lo = validLo;
        while (Long.compareUnsigned(hi - lo, 1) > 0) {
            long mid = lo + ((hi - lo) >>> 1);
            if (valid.test(mid)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    boolean contains(long value) {
        return value >= min && value <= max;
    }

    /** "an integer from 1 to 256", or the one-sided forms when the type's own limit is the bound. */
    String describe(boolean plural) {
        String noun = plural ? "integers" : "an integer";
        boolean low = min > typeMin;
        boolean high = max < typeMax;
        if (low && high) {
            return noun + " from " + min + " to " + max;
        }
        if (low) {
            return noun + " of at least " + min;
        }
        return high ? noun + " of at most " + max : noun;
    }
}
