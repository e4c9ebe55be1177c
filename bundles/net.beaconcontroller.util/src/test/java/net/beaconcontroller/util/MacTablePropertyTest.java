package net.beaconcontroller.util;

import static net.beaconcontroller.util.MacTable.ABSENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * Random operation sequences against a model built on {@link HashMap}, with time kept as a {@code long} so that the
 * table's wrapping {@code int} clock is checked, not copied.
 */
class MacTablePropertyTest {
    private static final int POOL_SIZE = 4096;
    /** MAC 0, the all-ones MAC, sequential MACs of one vendor, then random ones. */
    private static final long[] POOL = new long[POOL_SIZE];

    static {
        POOL[1] = 0xffff_ffff_ffffL;
        for (int i = 2; i < 64; i++) {
            POOL[i] = 0x0011_2200_0000L + i;
        }
        var random = new SplittableRandom(42);
        for (int i = 64; i < POOL_SIZE; i++) {
            POOL[i] = random.nextLong() & 0xffff_ffff_ffffL;
        }
    }

    sealed interface Op {
    }

    record Put(int key, int port, int dt) implements Op {
    }

    record Get(int key, int dt) implements Op {
    }

    record Remove(int key) implements Op {
    }

    record RemoveValue(int port) implements Op {
    }

    record Expire(int dt) implements Op {
    }

    record Clear() implements Op {
    }

    /** A model entry: port and last-seen time on the model's 64-bit clock. */
    record Seen(int port, long time) {
    }

    @Property
    void behavesLikeABoundedAgingMap(@ForAll @IntRange(min = 1, max = 200) int maxEntries,
            @ForAll @IntRange(min = 1, max = 20) int idle, @ForAll int start, @ForAll("poolSizes") int poolSize,
            @ForAll("operations") List<Op> ops) {
        var table = new MacTable(maxEntries, idle);
        var model = new HashMap<Long, Seen>();
        long now = start;
        for (Op op : ops) {
            // Pattern matching for switch is a preview feature in Java 17, hence the instanceof chain.
            if (op instanceof Put p) {
                now += p.dt();
                long mac = POOL[p.key() % poolSize];
                boolean evicts = !model.containsKey(mac) && model.size() == maxEntries;
                table.put(mac, p.port(), (int) now);
                if (evicts) {
                    var kept = contents(table);
                    Long victim = model.keySet().stream().filter(k -> !kept.containsKey(k)).findFirst()
                            .orElseThrow(() -> new AssertionError("a full table evicted nothing"));
                    assertNotEquals(mac, victim);
                    if (table.capacity() <= MacTable.EVICTION_WINDOW) {
                        // The window covers the whole table: the victim is a least recently seen entry.
                        long oldest = model.values().stream().mapToLong(Seen::time).min().orElseThrow();
                        assertEquals(oldest, model.get(victim).time());
                    }
                    model.remove(victim);
                }
                model.put(mac, new Seen(p.port(), now));
            } else if (op instanceof Get g) {
                now += g.dt();
                long mac = POOL[g.key() % poolSize];
                Seen seen = model.get(mac);
                int expected = ABSENT;
                if (seen != null && now - seen.time() > idle) {
                    model.remove(mac);
                } else if (seen != null) {
                    expected = seen.port();
                }
                assertEquals(expected, table.get(mac, (int) now));
            } else if (op instanceof Remove r) {
                long mac = POOL[r.key() % poolSize];
                Seen seen = model.remove(mac);
                assertEquals(seen == null ? ABSENT : seen.port(), table.remove(mac));
            } else if (op instanceof RemoveValue rv) {
                int before = model.size();
                model.values().removeIf(s -> s.port() == rv.port());
                assertEquals(before - model.size(), table.removeValue(rv.port()));
            } else if (op instanceof Expire e) {
                now += e.dt();
                long at = now;
                int before = model.size();
                model.values().removeIf(s -> at - s.time() > idle);
                assertEquals(before - model.size(), table.expire((int) now));
            } else {
                model.clear();
                table.clear();
            }
            assertEquals(model.size(), table.size(), () -> "after " + op);
            assertTrue(table.size() <= maxEntries);
            var expected = new HashMap<Long, Seen>();
            model.forEach((mac, seen) -> expected.put(mac, new Seen(seen.port(), (int) seen.time())));
            assertEquals(expected, contents(table), () -> "after " + op);
        }
    }

    /** The table's entries, with last-seen times as the table keeps them ({@code int}). */
    private static Map<Long, Seen> contents(MacTable table) {
        var entries = new HashMap<Long, Seen>();
        table.forEach((mac, port, lastSeen) -> entries.put(mac, new Seen(port, lastSeen)));
        return entries;
    }

    @Provide
    Arbitrary<Integer> poolSizes() {
        return Arbitraries.of(2, 8, 24, 64, 300, POOL_SIZE);
    }

    @Provide
    Arbitrary<List<Op>> operations() {
        Arbitrary<Integer> key = Arbitraries.integers().between(0, POOL_SIZE - 1);
        Arbitrary<Integer> port = Arbitraries.of(0, 1, 2, 3, 65535);
        Arbitrary<Integer> dt = Arbitraries.frequency(Tuple.of(12, 0), Tuple.of(6, 1), Tuple.of(2, 3),
                Tuple.of(1, 25));
        Arbitrary<Op> put = Combinators.combine(key, port, dt).as(Put::new);
        Arbitrary<Op> get = Combinators.combine(key, dt).as(Get::new);
        Arbitrary<Op> remove = key.map(Remove::new);
        Arbitrary<Op> removeValue = port.map(RemoveValue::new);
        Arbitrary<Op> expire = dt.map(Expire::new);
        Arbitrary<Op> clear = Arbitraries.just(new Clear());
        Arbitrary<Op> op = Arbitraries.frequencyOf(Tuple.of(40, put), Tuple.of(24, get), Tuple.of(6, remove),
                Tuple.of(2, removeValue), Tuple.of(2, expire), Tuple.of(1, clear));
        return op.list().ofMinSize(1).ofMaxSize(300);
    }
}
