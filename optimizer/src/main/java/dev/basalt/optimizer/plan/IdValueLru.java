package dev.basalt.optimizer.plan;

import org.eclipse.rdf4j.model.Value;

/**
 * A bounded map from term ids to values with least-recently-used eviction within small sets: the
 * table is {@value #WAYS}-way set associative (an id's set is a hash of the id; a hit or a put marks
 * the entry with a fresh stamp; a put into a full set replaces the entry with the oldest stamp). It
 * starts small and doubles while it is under its bound, so a query that looks at a few ids pays for
 * a few entries; once at its bound it never grows nor clears: entries read again stay, entries read
 * once age out. Keys are primitive longs, so a lookup allocates nothing. Id 0 is never a key.
 *
 * <p>Not thread-safe: one evaluation thread owns it (see {@link ValueCache}).
 */
final class IdValueLru {
    static final int WAYS = 4;
    private static final int MIN_SETS = 16;
    private static final long PHI = 0x9E3779B97F4A7C15L;

    private final int maxSets;
    private long[] keys;
    private Value[] values;
    private long[] stamps;
    private int setMask;
    private int shift;
    private int size;
    private long clock;

    /** A map of at most about {@code maxEntries} entries (rounded up to a power of two of sets). */
    IdValueLru(int maxEntries) {
        int sets = MIN_SETS;
        while (sets * WAYS < maxEntries) {
            sets <<= 1;
        }
        this.maxSets = sets;
        allocate(MIN_SETS);
    }

    private void allocate(int sets) {
        keys = new long[sets * WAYS];
        values = new Value[sets * WAYS];
        stamps = new long[sets * WAYS];
        setMask = sets - 1;
        shift = 64 - Integer.numberOfTrailingZeros(sets);
        size = 0;
    }

    private int firstWay(long id) {
        return ((int) ((id * PHI) >>> shift) & setMask) * WAYS;
    }

    /** The value of {@code id}, or null if it is not held. */
    Value get(long id) {
        int base = firstWay(id);
        for (int i = base; i < base + WAYS; i++) {
            if (keys[i] == id && values[i] != null) {
                stamps[i] = ++clock;
                return values[i];
            }
        }
        return null;
    }

    boolean contains(long id) {
        int base = firstWay(id);
        for (int i = base; i < base + WAYS; i++) {
            if (keys[i] == id && values[i] != null) {
                return true;
            }
        }
        return false;
    }

    /** Holds {@code value} (not null) for {@code id} (not 0), evicting its set's oldest entry if need be. */
    void put(long id, Value value) {
        if (size >= (setMask + 1) * WAYS / 2 && setMask + 1 < maxSets) {
            grow();
        }
        int base = firstWay(id);
        int victim = base;
        for (int i = base; i < base + WAYS; i++) {
            if (values[i] == null || keys[i] == id) {
                victim = i;
                break;
            }
            if (stamps[i] < stamps[victim]) {
                victim = i;
            }
        }
        if (values[victim] == null) {
            size++;
        }
        keys[victim] = id;
        values[victim] = value;
        stamps[victim] = ++clock;
    }

    /** Entries held. */
    int size() {
        return size;
    }

    /** The most entries it holds once grown to its bound. */
    int capacity() {
        return maxSets * WAYS;
    }

    private void grow() {
        long[] oldKeys = keys;
        Value[] oldValues = values;
        long[] oldStamps = stamps;
        allocate((setMask + 1) * 2);
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != null) {
                put(oldKeys[i], oldValues[i]);
                stamps[index(oldKeys[i])] = oldStamps[i];
            }
        }
    }

    private int index(long id) {
        int base = firstWay(id);
        for (int i = base; i < base + WAYS; i++) {
            if (keys[i] == id && values[i] != null) {
                return i;
            }
        }
        throw new IllegalStateException("id " + id + " was just put");
    }
}
