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
        return new IntegerBounds(edge(valid, start, typeMin), edge(valid, start, typeMax), typeMin, typeMax);
    }

    /**
     * The last valid value from {@code validFrom} toward {@code limit}. Invariant: {@code good} valid, {@code bad}
     * not; the unsigned arithmetic keeps distance and midpoint exact over the whole long range.
     */
    private static long edge(LongPredicate valid, long validFrom, long limit) {
        if (valid.test(limit)) {
            return limit;
        }
        long good = validFrom;
        long bad = limit;
        while (Long.compareUnsigned(Math.max(good, bad) - Math.min(good, bad), 1) > 0) {
            long lo = Math.min(good, bad);
            long mid = lo + ((Math.max(good, bad) - lo) >>> 1);
            if (valid.test(mid)) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        return good;
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
