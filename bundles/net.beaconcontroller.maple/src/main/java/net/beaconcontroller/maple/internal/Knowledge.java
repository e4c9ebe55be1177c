package net.beaconcontroller.maple.internal;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one trace has learnt so far about its packet's fields, so that a read or test whose answer already follows
 * is not recorded again: the trace tree then has no redundant nodes and the compiled rules no redundant matches.
 */
final class Knowledge {
    private final Map<Field, Facts> facts = new EnumMap<>(Field.class);

    /** Per field: its exact value if known, values it is known not to have, prefixes it lies in or not. */
    private static final class Facts {
        Object exact;
        final Set<Object> excluded = new HashSet<>();
        final List<FieldTest.Prefix> inside = new ArrayList<>();
        final List<FieldTest.Prefix> outside = new ArrayList<>();
    }

    private Facts of(Field f) {
        return facts.computeIfAbsent(f, k -> new Facts());
    }

    boolean isExact(Field f) {
        Facts x = facts.get(f);
        return x != null && x.exact != null;
    }

    void learnValue(Field f, Object value) {
        of(f).exact = value;
    }

    void learn(FieldTest t, boolean outcome) {
        Facts x = of(t.field());
        if (t instanceof FieldTest.Equals e) {
            if (outcome) {
                x.exact = e.value();
            } else {
                x.excluded.add(e.value());
            }
        } else if (t instanceof FieldTest.Prefix p) {
            if (!outcome) {
                x.outside.add(p);
            } else if (p.length() == 32) {
                x.exact = Long.valueOf(p.prefix() & 0xffff_ffffL);
            } else {
                x.inside.add(p);
            }
        }
    }

    /** The outcome of {@code t} if what is known decides it, else null. */
    Boolean implied(FieldTest t) {
        Facts x = facts.get(t.field());
        if (t instanceof FieldTest.Prefix p && p.length() == 0) {
            return Boolean.TRUE;
        }
        if (x == null) {
            return null;
        }
        return t instanceof FieldTest.Equals e ? impliedEquals(x, e.value()) : impliedPrefix(x, (FieldTest.Prefix) t);
    }

    private static Boolean impliedEquals(Facts x, Object value) {
        if (x.exact != null) {
            return x.exact.equals(value);
        }
        if (x.excluded.contains(value)) {
            return Boolean.FALSE;
        }
        if (value instanceof Long bits) {
            int address = (int) bits.longValue();
            for (FieldTest.Prefix in : x.inside) {
                if (!in.contains(address)) {
                    return Boolean.FALSE;
                }
            }
            for (FieldTest.Prefix out : x.outside) {
                if (out.contains(address)) {
                    return Boolean.FALSE;
                }
            }
        }
        return null;
    }

    private static Boolean impliedPrefix(Facts x, FieldTest.Prefix t) {
        if (x.exact != null) {
            return t.contains((int) ((Long) x.exact).longValue());
        }
        for (FieldTest.Prefix in : x.inside) {
            if (t.covers(in)) {
                return Boolean.TRUE;
            }
            if (!in.covers(t)) {
                return Boolean.FALSE; // neither holds the other: disjoint
            }
        }
        for (FieldTest.Prefix out : x.outside) {
            if (out.covers(t)) {
                return Boolean.FALSE;
            }
        }
        if (t.length() == 32 && x.excluded.contains(Long.valueOf(t.prefix() & 0xffff_ffffL))) {
            return Boolean.FALSE;
        }
        return null;
    }
}
