package dev.basalt.store.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * A bounded cache from {@code long} keys to values, weighted, with CLOCK (second chance)
 * eviction: the store's page cache and the lexicon's id → term cache, both read far more often
 * than written.
 *
 * <p>A hit takes no lock and writes nothing shared unless the entry's reference bit is still
 * clear: one multiplicative hash, one volatile read of a segment's table and a linear probe over
 * entries that carry their key. Caffeine, which these caches used before, did per hit a lookup in
 * a {@code ConcurrentHashMap} with boxed keys, a read-buffer append, a frequency-sketch update and
 * a statistics counter; profiles of short queries at 10M triples put those at about a quarter of
 * the CPU (docs/sail.md, "Caches").
 *
 * <p>Keys are spread over segments by the high bits of their hash; each segment has its own lock
 * for writes, its own share of the weight bound, and an open-addressed table (linear probing,
 * load at most one half) that readers probe without locking. Removed entries leave a tombstone,
 * so entries never move within a table and a probe never misses an entry that is present; the
 * table is rebuilt into a new array when live entries and tombstones fill half of it. A reader
 * holding the replaced array still finds the entries it had; one evicted since has its value
 * cleared and reads as a miss.
 *
 * <p>Eviction: a new entry starts with its reference bit clear; a hit sets it. When a segment is
 * over its bound, its clock hand sweeps the table, clearing set bits and evicting the first entry
 * found clear. An entry read once and never again (a large scan) thus goes on the hand's next
 * pass, while entries read again keep their place. Thread-safe.
 *
 * <p>A cache that a store fills only halfway when it opens evicts for the first time during client queries, and
 * the JIT, which compiled the write paths while nothing was evicted, then drops that code and compiles it again
 * ({@code unstable_if} traps in {@code put}, {@code evict} and {@code rebuild}). {@link #rehearseEviction} runs those
 * paths beforehand on a scratch cache, leaving the cache itself as it was.
 *
 * @param <V> the values; never null
 */
public final class ClockCache<V> {
    private static final long PHI = 0x9E3779B97F4A7C15L;
    private static final int MIN_TABLE = 16;
    private static final int MAX_SEGMENTS = 64;
    /** Entries of typical weight a segment should be able to hold before more segments are made. */
    private static final int ENTRIES_PER_SEGMENT = 256;
    /** Times {@link #rehearseEviction} puts each of its values into the scratch cache. */
    static final int REHEARSAL_ROUNDS = 8;

    /**
     * A cache entry, which a caller may keep to reach the value again without a lookup (a B+tree
     * page keeps those of its children). The value is cleared when the entry is evicted, removed or
     * replaced; the fields are written without synchronization, so a reader may still see a value
     * a moment after that, which is as good as a hit on a table it read before a rebuild.
     */
    public static final class Handle<V> {
        final long key;
        V value;
        final int weight;
        boolean referenced;

        Handle(long key, V value, int weight) {
            this.key = key;
            this.value = value;
            this.weight = weight;
        }

        /** The value while the entry is cached, else null; marks it recently used. */
        public V get() {
            V v = value;
            if (v != null && !referenced) {
                referenced = true;
            }
            return v;
        }
    }

    @SuppressWarnings("rawtypes")
    private static final Handle TOMBSTONE = new Handle<>(0, null, 0);

    private final Segment<V>[] segments;
    private final int segmentShift;
    private final int segmentBits;
    private final long maxWeight;
    private final ToIntFunction<? super V> weigher;

    /**
     * @param maxWeight     bound of the summed weights of the cached values; 0 caches nothing
     * @param typicalWeight a value's usual weight, to decide how many segments the bound is split into
     * @param weigher       a value's weight, at least 1
     */
    @SuppressWarnings("unchecked")
    public ClockCache(long maxWeight, int typicalWeight, ToIntFunction<? super V> weigher) {
        if (maxWeight < 0) {
            throw new IllegalArgumentException("maxWeight must not be negative: " + maxWeight);
        }
        if (typicalWeight < 1) {
            throw new IllegalArgumentException("typicalWeight must be positive: " + typicalWeight);
        }
        this.maxWeight = maxWeight;
        this.weigher = weigher;
        long fit = maxWeight / ((long) typicalWeight * ENTRIES_PER_SEGMENT);
        int count = (int) Long.highestOneBit(Math.max(1, Math.min(MAX_SEGMENTS, fit)));
        this.segments = new Segment[count];
        this.segmentBits = Integer.numberOfTrailingZeros(count);
        for (int i = 0; i < count; i++) {
            segments[i] = new Segment<>(maxWeight / count, segmentBits);
        }
        this.segmentShift = 32 - segmentBits;
    }

    public long maxWeight() {
        return maxWeight;
    }

    /** The cached value of {@code key}, or null; marks it recently used. */
    public V get(long key) {
        Handle<V> h = handle(key);
        return h == null ? null : h.get();
    }

    /** The entry of {@code key}, or null; its value may be cleared by an eviction at any time. */
    public Handle<V> handle(long key) {
        int hash = hash(key);
        Handle<V>[] table = segmentOf(hash).table;
        int mask = table.length - 1;
        for (int i = home(hash << segmentBits, mask);; i = (i + 1) & mask) {
            Handle<V> e = table[i];
            if (e == null) {
                return null;
            }
            if (e.key == key && e != TOMBSTONE) {
                return e;
            }
        }
    }

    /**
     * Caches {@code value} under {@code key}, replacing a value cached before; may evict others.
     * Returns the new entry, or null when the value is too heavy to cache.
     */
    public Handle<V> put(long key, V value) {
        if (value == null) {
            throw new NullPointerException("value");
        }
        int weight = weigher.applyAsInt(value);
        int hash = hash(key);
        return segmentOf(hash).put(key, hash, value, weight);
    }

    public void invalidate(long key) {
        int hash = hash(key);
        segmentOf(hash).remove(key, hash);
    }

    public void invalidateAll() {
        for (Segment<V> s : segments) {
            s.clear();
        }
    }

    /** Summed weight of the cached values. */
    public long weightedSize() {
        long sum = 0;
        for (Segment<V> s : segments) {
            sum += s.weight();
        }
        return sum;
    }

    /** Number of cached values. */
    public long size() {
        long sum = 0;
        for (Segment<V> s : segments) {
            sum += s.live();
        }
        return sum;
    }

    /** Entries the clock hand has evicted since the cache was made (not those removed, replaced or cleared). */
    public long evictions() {
        long sum = 0;
        for (Segment<V> s : segments) {
            sum += s.evictions();
        }
        return sum;
    }

    /**
     * Runs the eviction paths of this class on a scratch cache of one segment with this cache's weigher, a quarter
     * of the weight of up to {@code entries} of this cache's values: each of them put {@value #REHEARSAL_ROUNDS}
     * times under its own key, among reads that set reference bits (and, after each round, a read of all of
     * them), so that puts meet a full segment, reuse tombstones, replace entries and rebuild tables over tombstones,
     * and the clock hand passes over entries read and not and over the entry just put. The JIT then has profiles
     * of those branches before this cache first evicts. This cache is only read: its entries, their reference bits
     * and its counts stay as they were. Returns the scratch cache's evictions; 0 when this cache holds nothing.
     * Thread-safe, like the cache's reads.
     */
    public long rehearseEviction(int entries) {
        // an even share of each segment: keys of one segment share their hash's high bits, which in a scratch cache
        // of one segment would crowd them into a corner of its table
        List<Handle<V>> sample = new ArrayList<>();
        long weight = 0;
        int share = (entries + segments.length - 1) / segments.length;
        for (Segment<V> s : segments) {
            int taken = 0;
            for (Handle<V> e : s.table) {
                if (taken == share || sample.size() == entries) {
                    break;
                }
                if (e != null && e != TOMBSTONE && e.value != null) {
                    sample.add(e);
                    weight += e.weight;
                    taken++;
                }
            }
        }
        long budget = Math.max(1, weight / 4);
        ClockCache<V> scratch = new ClockCache<>(budget, (int) Math.min(Integer.MAX_VALUE, budget), weigher);
        int n = sample.size();
        for (int round = 0; round < REHEARSAL_ROUNDS; round++) {
            for (int i = 0; i < n; i++) {
                Handle<V> e = sample.get(i);
                V value = e.value;
                if (value != null) {
                    scratch.put(e.key, value);
                }
                scratch.get(sample.get((int) ((i * 7L + round) % n)).key);
            }
            // every value read again: the next put's eviction sweeps the whole table, past the entry it makes room for
            for (Handle<V> e : sample) {
                scratch.get(e.key);
            }
        }
        return scratch.evictions();
    }

    private Segment<V> segmentOf(int hash) {
        return segments.length == 1 ? segments[0] : segments[hash >>> segmentShift];
    }

    /** Fibonacci hashing: the high half of {@code key * 2^64/phi} depends on every bit of the key. */
    private static int hash(long key) {
        return (int) ((key * PHI) >>> 32);
    }

    /**
     * The home slot of a hash (its segment bits shifted out) in a table of {@code mask + 1} slots:
     * its high bits, so slots keep their hash order when a table is rebuilt at another size and
     * the clock hand can carry its position over.
     */
    private static int home(int segmentHash, int mask) {
        return segmentHash >>> Integer.numberOfLeadingZeros(mask);
    }

    private static final class Segment<V> {
        private final long budget;
        private final int segmentBits;
        private volatile Handle<V>[] table = newTable(MIN_TABLE);
        // guarded by this
        private int live;
        private int used;
        private long weight;
        private int hand;
        private long evictions;

        Segment(long budget, int segmentBits) {
            this.budget = budget;
            this.segmentBits = segmentBits;
        }

        synchronized long weight() {
            return weight;
        }

        synchronized int live() {
            return live;
        }

        synchronized long evictions() {
            return evictions;
        }

        synchronized Handle<V> put(long key, int hash, V value, int entryWeight) {
            if (entryWeight > budget) {
                removeLocked(key, hash);
                return null;
            }
            Handle<V>[] t = table;
            int mask = t.length - 1;
            int free = -1;
            int i = home(hash << segmentBits, mask);
            for (;; i = (i + 1) & mask) {
                Handle<V> e = t[i];
                if (e == null) {
                    break;
                }
                if (e == TOMBSTONE) {
                    if (free < 0) {
                        free = i;
                    }
                } else if (e.key == key) {
                    Handle<V> replacement = new Handle<>(key, value, entryWeight);
                    replacement.referenced = e.referenced;
                    t[i] = replacement;
                    e.value = null;
                    weight += entryWeight - e.weight;
                    evict(replacement);
                    return replacement;
                }
            }
            if (free < 0 && used + 1 > t.length / 2) {
                t = rebuild(live + 1);
                mask = t.length - 1;
                for (i = home(hash << segmentBits, mask); t[i] != null; i = (i + 1) & mask) {
                    // the rebuilt table has no tombstones and no entry of this key
                }
            } else if (free >= 0) {
                i = free;
            }
            Handle<V> added = new Handle<>(key, value, entryWeight);
            if (t[i] == null) {
                used++;
            }
            t[i] = added;
            live++;
            weight += entryWeight;
            evict(added);
            return added;
        }

        synchronized void remove(long key, int hash) {
            removeLocked(key, hash);
        }

        synchronized void clear() {
            for (Handle<V> e : table) {
                if (e != null) {
                    e.value = null;
                }
            }
            table = newTable(MIN_TABLE);
            live = 0;
            used = 0;
            weight = 0;
            hand = 0;
        }

        @SuppressWarnings("unchecked")
        private void removeLocked(long key, int hash) {
            Handle<V>[] t = table;
            int mask = t.length - 1;
            for (int i = home(hash << segmentBits, mask);; i = (i + 1) & mask) {
                Handle<V> e = t[i];
                if (e == null) {
                    return;
                }
                if (e.key == key && e != TOMBSTONE) {
                    t[i] = TOMBSTONE;
                    e.value = null;
                    live--;
                    weight -= e.weight;
                    return;
                }
            }
        }

        /** Sweeps the clock hand until the segment is within its budget; never evicts {@code keep}. */
        @SuppressWarnings("unchecked")
        private void evict(Handle<V> keep) {
            Handle<V>[] t = table;
            int mask = t.length - 1;
            while (weight > budget && live > 1) {
                hand = (hand + 1) & mask;
                Handle<V> e = t[hand];
                if (e == null || e == TOMBSTONE || e == keep) {
                    continue;
                }
                if (e.referenced) {
                    e.referenced = false;
                } else {
                    t[hand] = TOMBSTONE;
                    e.value = null;
                    live--;
                    weight -= e.weight;
                    evictions++;
                }
            }
        }

        /** Copies the live entries into a fresh table sized for {@code entries} at load one quarter. */
        private Handle<V>[] rebuild(int entries) {
            Handle<V>[] old = table;
            int size = MIN_TABLE;
            while (size < entries * 4) {
                size <<= 1;
            }
            Handle<V>[] t = newTable(size);
            int mask = size - 1;
            for (Handle<V> e : old) {
                if (e != null && e != TOMBSTONE) {
                    int i = home(hash(e.key) << segmentBits, mask);
                    while (t[i] != null) {
                        i = (i + 1) & mask;
                    }
                    t[i] = e;
                }
            }
            used = live;
            hand = (int) ((long) hand * size / old.length);
            table = t;
            return t;
        }

        @SuppressWarnings("unchecked")
        private static <V> Handle<V>[] newTable(int size) {
            return new Handle[size];
        }
    }
}
