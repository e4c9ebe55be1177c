package net.beaconcontroller.util;

import java.util.Arrays;

/**
 * A learning switch's MAC table: 48-bit MAC address → 16-bit switch port, with idle aging and a hard bound on the
 * number of entries.
 *
 * <pre>{@code
 * table.put(srcMac, inPort, now);
 * int port = table.get(dstMac, now);   // MacTable.ABSENT (-1) when unknown or aged out
 * }</pre>
 *
 * <h2>Threading</h2>
 * Not thread-safe, on purpose: a table belongs to one switch, and Beacon handles a switch's messages on one I/O thread
 * only, so the table needs neither locks nor atomics.
 *
 * <h2>Layout and why</h2>
 * Open addressing with <b>Robin Hood linear probing and backward-shift deletion</b> over one {@code int[]}, three
 * ints per slot: the entry (the <em>mixed</em> key, 48 bits, a bijection of the MAC, see below, in the high bits and
 * the port in the low 16 bits; all zero for an empty slot) and the entry's last-seen time in seconds. Keeping the
 * time beside its key means a hit costs one cache miss, not two: in a table far beyond the caches (cbench's 64
 * switches x 100,000 MACs) that is most of the cost of a lookup.
 * <p>
 * That is 12 bytes per slot. The table never holds more than {@code n = maxEntries} entries, in at most
 * {@code ceil(1.25 n)} slots (load factor ≤ 0.8). At the bound the array takes {@code 12 ceil(1.25 n) + 16} bytes
 * (a 16-byte array header, negligible beside the payload): at most {@code 15 + 28 / n} bytes per entry, under the
 * 16-byte budget for any bound of 28 or more. Below the bound the array starts at 16 slots and doubles, so the table of
 * a quiet switch stays small.
 * <p>
 * Robin Hood keeps every cluster ordered by home slot, so a lookup stops as soon as it meets an entry closer to its own
 * home than the searched key would be: misses are short even at load 0.8, and probe lengths have a small variance.
 * Backward-shift deletion keeps that order without tombstones, so the table never degrades under churn and needs no
 * periodic rebuild. Hopscotch hashing would need a hop-information word per bucket (more bytes per entry) for a
 * similar neighbourhood guarantee; linear probing reads consecutive memory, so a probe sequence usually stays in one
 * or two cache lines.
 * <p>
 * The home slot of a key is derived from the top 32 bits of its 48-bit mix by multiply-shift range reduction, which
 * works for any capacity: power-of-two capacities would waste up to half the memory at the bound. Storing the mix
 * rather than the MAC means an occupant's home is computed from the slot alone, without rehashing it.
 *
 * <h2>Hash</h2>
 * MACs of one vendor share their top 24 bits (the OUI), and benchmarks such as cbench use sequential MACs, so the key
 * goes through a 48-bit xorshift-multiply mix (two rounds): every input bit reaches the top bits that choose the home
 * slot. The mix is a bijection on 48 bits, so the stored value identifies the MAC exactly and can be inverted for
 * {@link #forEach}. It maps MAC 0 to 0, and 0 marks an empty slot, so MAC {@code 00:00:00:00:00:00} (not a valid
 * station address, but accepted) is kept in three fields beside the arrays.
 *
 * <h2>Aging</h2>
 * Callers pass the current time as an {@code int} number of seconds from any monotonic clock; only differences are
 * used, with wrap-around arithmetic, so the clock may start anywhere and wrap (ages must stay below 2<sup>31</sup>
 * seconds). An entry is <em>aged</em> when it was last put more than {@code idleSeconds} ago: {@code get} then reports
 * {@link #ABSENT} and removes it, and {@link #expire} removes every aged entry in one sweep over the arrays.
 * {@link #size()} counts aged entries until one of those removes them.
 *
 * <h2>Bound</h2>
 * When the table holds {@code maxEntries} entries, a put of a new MAC evicts one entry first: the one seen least
 * recently among the 16 slots starting at the new MAC's home slot (and the MAC-0 entry, if present), or the first
 * entry after that window if the window is empty. That approximates least-recently-used eviction at constant cost, so
 * a put always succeeds, in bounded time, and the table never grows past its bound.
 *
 * <h2>Allocation</h2>
 * {@code get}, {@code put}, {@code remove}, {@code removeValue}, {@code expire} and {@code clear} allocate nothing,
 * except that a {@code put} below the bound may double the arrays.
 */
public final class MacTable {
    /** What {@link #get} and {@link #remove} return for a MAC that has no (live) entry. */
    public static final int ABSENT = -1;

    /** The largest supported bound; the array (3 ints per slot) must stay addressable by an {@code int}. */
    public static final int MAX_ENTRIES = 1 << 29;

    /** Pass as {@code idleSeconds} for a table whose entries never age. */
    public static final int NO_AGING = Integer.MAX_VALUE;

    /** How many slots an eviction examines for the least recently seen entry (the class comment says 16). */
    static final int EVICTION_WINDOW = 16;

    private static final int INITIAL_CAPACITY = 16;
    private static final long MASK48 = 0xffff_ffff_ffffL;
    private static final int MAX_PORT = 0xffff;
    // Odd 48-bit multipliers (leading hex digits of the golden ratio and of a MurmurHash3 constant); the hash
    // distribution tests check the spread they give to sequential and same-vendor MACs.
    private static final long M1 = 0x9e37_79b9_7f4bL;
    private static final long M2 = 0xc2b2_ae3d_27d5L;
    private static final long M1_INVERSE = inverse(M1);
    private static final long M2_INVERSE = inverse(M2);

    private final int maxEntries;
    private final int idleSeconds;
    private final int maxCapacity;

    /**
     * Slot i is {@code data[3i..3i+2]}: the entry's high and low 32 bits (mixed key and port, see {@link #entry}), then
     * its stamp. One array, so the stamp a hit refreshes sits in the cache line the lookup has just read.
     */
    private int[] data;
    private int capacity;
    /** Entries in the arrays (MAC 0 excluded). */
    private int count;
    /** At this {@link #count}, a new entry doubles the arrays first (unless they have reached {@link #maxCapacity}). */
    private int growThreshold;

    private boolean zeroPresent;
    private int zeroPort;
    private int zeroStamp;

    /**
     * @param maxEntries  the most entries the table will ever hold, 1 to {@link #MAX_ENTRIES}
     * @param idleSeconds how long an entry lives after its last {@link #put}, at least 1; {@link #NO_AGING} for ever
     * @throws IllegalArgumentException when a parameter is out of range
     */
    public MacTable(int maxEntries, int idleSeconds) {
        if (maxEntries < 1 || maxEntries > MAX_ENTRIES) {
            throw new IllegalArgumentException(
                    "maxEntries must be between 1 and " + MAX_ENTRIES + ", not " + maxEntries);
        }
        if (idleSeconds < 1) {
            throw new IllegalArgumentException("idleSeconds must be positive, not " + idleSeconds);
        }
        this.maxEntries = maxEntries;
        this.idleSeconds = idleSeconds;
        // Load factor 0.8 at the bound; ceil(1.25 n) >= n + 1 leaves an empty slot, so every probe loop ends.
        this.maxCapacity = (int) ((5L * maxEntries + 3) / 4);
        allocate(Math.min(INITIAL_CAPACITY, maxCapacity));
    }

    /**
     * Learns that {@code mac} was seen on {@code port} at time {@code now}: adds the entry, or replaces its port and
     * refreshes its last-seen time. When the table is full and {@code mac} is new, one entry is evicted first (see the
     * class comment).
     *
     * @param mac  the MAC address in the low 48 bits
     * @param port the switch port, 0 to 65535
     * @param now  the current time in seconds (see the class comment on aging)
     * @throws IllegalArgumentException when {@code mac} is not a 48-bit value or {@code port} not in 0..65535
     */
    public void put(long mac, int port, int now) {
        checkMac(mac);
        if (port < 0 || port > MAX_PORT) {
            throw new IllegalArgumentException("port must be between 0 and 65535, not " + port);
        }
        if (mac == 0) {
            if (!zeroPresent && size() == maxEntries) {
                evictNear(0, now);
            }
            zeroPresent = true;
            zeroPort = port;
            zeroStamp = now;
            return;
        }
        long mixed = mix(mac);
        long entry = mixed << 16 | port;
        int index = find(mixed);
        if (index >= 0) {
            setEntry(index, entry);
            data[3 * index + 2] = now;
            return;
        }
        if (size() == maxEntries) {
            evictNear(home(mixed, capacity), now);
            index = find(mixed);
        } else if (count >= growThreshold && capacity < maxCapacity) {
            rehash(Math.min(2 * capacity, maxCapacity));
            index = find(mixed);
        }
        insert(-index - 1, entry, now);
    }

    /**
     * The port {@code mac} was last seen on, or {@link #ABSENT} when it has no entry or its entry has aged, in which
     * case the entry is removed.
     *
     * @param mac the MAC address in the low 48 bits
     * @param now the current time in seconds (see the class comment on aging)
     * @throws IllegalArgumentException when {@code mac} is not a 48-bit value
     */
    public int get(long mac, int now) {
        checkMac(mac);
        if (mac == 0) {
            if (!zeroPresent) {
                return ABSENT;
            }
            if (aged(zeroStamp, now)) {
                zeroPresent = false;
                return ABSENT;
            }
            return zeroPort;
        }
        int index = find(mix(mac));
        if (index < 0) {
            return ABSENT;
        }
        if (aged(data[3 * index + 2], now)) {
            removeAt(index);
            return ABSENT;
        }
        return data[3 * index + 1] & MAX_PORT;
    }

    /**
     * Adds the memory a {@link #put} or {@link #get} of {@code mac} will read first to {@code prefetch}, and changes
     * nothing. A caller about to look up many MACs does this for the next few and runs the prefetch: in a table far
     * beyond the caches, their cache misses then overlap instead of stalling one lookup at a time. Any value is
     * accepted.
     */
    public void prefetch(long mac, Prefetch prefetch) {
        int i = 3 * home(mix(mac & MASK48), capacity);
        prefetch.load(data, i);
        // One slot in eight straddles two cache lines.
        prefetch.load(data, i + 2);
    }

    /**
     * Forgets {@code mac}, aged or not.
     *
     * @return the port it was mapped to, or {@link #ABSENT} when it had no entry
     * @throws IllegalArgumentException when {@code mac} is not a 48-bit value
     */
    public int remove(long mac) {
        checkMac(mac);
        if (mac == 0) {
            if (!zeroPresent) {
                return ABSENT;
            }
            zeroPresent = false;
            return zeroPort;
        }
        int index = find(mix(mac));
        if (index < 0) {
            return ABSENT;
        }
        int port = data[3 * index + 1] & MAX_PORT;
        removeAt(index);
        return port;
    }

    /**
     * Forgets every MAC learned on {@code port} (the port went down). Costs one pass over the arrays. A port outside
     * 0..65535 matches nothing.
     *
     * @return how many entries were removed
     */
    public int removeValue(int port) {
        int removed = 0;
        if (zeroPresent && zeroPort == port) {
            zeroPresent = false;
            removed++;
        }
        int i = 0;
        while (i < capacity) {
            // A removal shifts the following entry into slot i, which must then be looked at again.
            if (entry(i) != 0 && (data[3 * i + 1] & MAX_PORT) == port) {
                removeAt(i);
                removed++;
            } else {
                i++;
            }
        }
        return removed;
    }

    /**
     * Removes every aged entry. Costs one pass over the arrays, so call it rarely (e.g. every {@code idleSeconds}).
     *
     * @return how many entries were removed
     */
    public int expire(int now) {
        int removed = 0;
        if (zeroPresent && aged(zeroStamp, now)) {
            zeroPresent = false;
            removed++;
        }
        int i = 0;
        while (i < capacity) {
            if (entry(i) != 0 && aged(data[3 * i + 2], now)) {
                removeAt(i);
                removed++;
            } else {
                i++;
            }
        }
        return removed;
    }

    /** Removes every entry; the arrays keep their current size. */
    public void clear() {
        Arrays.fill(data, 0);
        count = 0;
        zeroPresent = false;
    }

    /** The number of entries held, including aged ones not yet removed by {@link #get} or {@link #expire}. */
    public int size() {
        return count + (zeroPresent ? 1 : 0);
    }

    /** The bound given at construction. */
    public int maxEntries() {
        return maxEntries;
    }

    /** The idle age given at construction. */
    public int idleSeconds() {
        return idleSeconds;
    }

    /** The current number of slots in the arrays (12 bytes each); grows up to {@code ceil(1.25 * maxEntries)}. */
    public int capacity() {
        return capacity;
    }

    /** Receives the entries of a table; see {@link #forEach}. */
    @FunctionalInterface
    public interface EntryConsumer {
        void accept(long mac, int port, int lastSeen);
    }

    /**
     * Hands every entry held, aged ones included, to {@code consumer}, in no particular order. The consumer must not
     * modify the table.
     */
    public void forEach(EntryConsumer consumer) {
        if (zeroPresent) {
            consumer.accept(0, zeroPort, zeroStamp);
        }
        for (int i = 0; i < capacity; i++) {
            long entry = entry(i);
            if (entry != 0) {
                consumer.accept(unmix(entry >>> 16), (int) entry & MAX_PORT, data[3 * i + 2]);
            }
        }
    }

    @Override
    public String toString() {
        return "MacTable[size=" + size() + ", maxEntries=" + maxEntries + ", idleSeconds=" + idleSeconds
                + ", capacity=" + capacity + "]";
    }

    private static void checkMac(long mac) {
        if ((mac & ~MASK48) != 0) {
            throw new IllegalArgumentException("not a 48-bit MAC address: 0x" + Long.toHexString(mac));
        }
    }

    private boolean aged(int stamp, int now) {
        return now - stamp > idleSeconds;
    }

    /** The slot holding {@code mixed}, or {@code -(insertion slot) - 1} when it is absent. */
    private int find(long mixed) {
        int capacity = this.capacity;
        int i = home(mixed, capacity);
        int distance = 0;
        while (true) {
            long entry = entry(i);
            if (entry == 0) {
                return -i - 1;
            }
            if (entry >>> 16 == mixed) {
                return i;
            }
            // Robin Hood order: had the key been here, it would sit before any entry closer to its own home.
            if (distance(entry, i, capacity) < distance) {
                return -i - 1;
            }
            distance++;
            i = i + 1 == capacity ? 0 : i + 1;
        }
    }

    /** Places an entry known to be absent, starting at slot {@code i} of its probe sequence. */
    private void insert(int i, long entry, int stamp) {
        int capacity = this.capacity;
        int distance = distance(entry, i, capacity);
        while (true) {
            long occupant = entry(i);
            if (occupant == 0) {
                setEntry(i, entry);
                data[3 * i + 2] = stamp;
                count++;
                return;
            }
            int occupantDistance = distance(occupant, i, capacity);
            if (occupantDistance < distance) {
                // Take the slot from the richer occupant and carry it on.
                setEntry(i, entry);
                int occupantStamp = data[3 * i + 2];
                data[3 * i + 2] = stamp;
                entry = occupant;
                stamp = occupantStamp;
                distance = occupantDistance;
            }
            distance++;
            i = i + 1 == capacity ? 0 : i + 1;
        }
    }

    /** Backward-shift deletion: pulls the rest of the cluster one slot towards its homes. */
    private void removeAt(int i) {
        int capacity = this.capacity;
        while (true) {
            int next = i + 1 == capacity ? 0 : i + 1;
            long entry = entry(next);
            if (entry == 0 || distance(entry, next, capacity) == 0) {
                break;
            }
            setEntry(i, entry);
            data[3 * i + 2] = data[3 * next + 2];
            i = next;
        }
        setEntry(i, 0);
        count--;
    }

    /** Evicts the least recently seen entry near slot {@code start}, the MAC-0 entry included. */
    private void evictNear(int start, int now) {
        int capacity = this.capacity;
        boolean found = zeroPresent;
        int oldestAge = zeroPresent ? now - zeroStamp : 0;
        int victim = -1; // stays -1 when the MAC-0 entry is the victim
        int i = start;
        for (int scanned = 0; scanned < capacity && (scanned < EVICTION_WINDOW || !found); scanned++) {
            if (entry(i) != 0) {
                int age = now - data[3 * i + 2];
                if (!found || age > oldestAge) {
                    found = true;
                    victim = i;
                    oldestAge = age;
                }
            }
            i = i + 1 == capacity ? 0 : i + 1;
        }
        if (victim >= 0) {
            removeAt(victim);
        } else {
            zeroPresent = false;
        }
    }

    private void allocate(int capacity) {
        this.data = new int[3 * capacity];
        this.capacity = capacity;
        growThreshold = (int) (4L * capacity / 5);
    }

    private void rehash(int capacity) {
        int[] old = data;
        allocate(capacity);
        count = 0;
        for (int i = 0; i < old.length; i += 3) {
            long entry = (long) old[i] << 32 | old[i + 1] & 0xffff_ffffL;
            if (entry != 0) {
                insert(home(entry >>> 16, capacity), entry, old[i + 2]);
            }
        }
    }

    /** Slot i's entry: the mixed key in the high 48 bits, the port in the low 16; 0 when the slot is empty. */
    private long entry(int i) {
        return (long) data[3 * i] << 32 | data[3 * i + 1] & 0xffff_ffffL;
    }

    private void setEntry(int i, long entry) {
        data[3 * i] = (int) (entry >>> 32);
        data[3 * i + 1] = (int) entry;
    }

    private static int distance(long entry, int slot, int capacity) {
        int d = slot - home(entry >>> 16, capacity);
        return d < 0 ? d + capacity : d;
    }

    /** Maps the top 32 bits of a mixed key onto 0..capacity-1 (multiply-shift; any capacity below 2^31). */
    static int home(long mixed, int capacity) {
        return (int) (((mixed >>> 16) * capacity) >>> 32);
    }

    /** A bijection on 48-bit values that spreads every input bit over the top bits; 0 maps to 0. */
    static long mix(long mac) {
        long x = mac;
        x ^= x >>> 24;
        x = x * M1 & MASK48;
        x ^= x >>> 24;
        x = x * M2 & MASK48;
        x ^= x >>> 24;
        return x;
    }

    /** The inverse of {@link #mix}. */
    static long unmix(long mixed) {
        // x ^= x >>> 24 is its own inverse on 48 bits: the shifted half never reaches the bits it came from.
        long x = mixed;
        x ^= x >>> 24;
        x = x * M2_INVERSE & MASK48;
        x ^= x >>> 24;
        x = x * M1_INVERSE & MASK48;
        x ^= x >>> 24;
        return x;
    }

    /** The multiplicative inverse of an odd number modulo 2^48 (Newton's iteration doubles the correct bits). */
    private static long inverse(long odd) {
        long x = odd; // correct to 3 bits: odd * odd == 1 (mod 8)
        for (int i = 0; i < 5; i++) {
            x *= 2 - odd * x;
        }
        return x & MASK48;
    }
}
