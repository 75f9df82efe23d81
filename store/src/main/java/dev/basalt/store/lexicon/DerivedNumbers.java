package dev.basalt.store.lexicon;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A bounded table from term ids to one packed {@code long} each (a number a pure function derives
 * from the term, packed by its caller, see {@link #MISSING}), read without a lock and without an
 * object per entry: an id and its number sit side by side in one {@code long[]}, so a hit is one
 * hash and, mostly, one cache line. It backs the exact decimal values that {@code SUM} and
 * {@code AVG} add per row (the optimizer's derived values), where a lookup in a {@link dev.basalt.store.cache.ClockCache}
 * (segment, table, handle, value object) cost several cache misses per row.
 *
 * <p>Entries are only added, never replaced: a slot's id is claimed once by a compare-and-set from
 * 0, then its number is written with release semantics; a reader reads the id, then the number with
 * acquire semantics, and takes {@link #MISSING} (a slot claimed but not written yet) as a miss.
 * Since a given id always maps to the same number (the function is pure and ids are never reused),
 * a number read for an id is always right. A probe looks at most {@value #PROBES} slots; past half
 * of the table's capacity it doubles (under this object's lock, copying the written entries into a
 * new array published through a volatile field) until {@code maxEntries}; a full table adds
 * nothing more (callers then derive the number again). Id 0 is not a term id and cannot be held.
 * Every array the table allocates is first reserved from its {@link DerivedBudget} (16 bytes a
 * slot), shared with the other tables of the lexicon: a table the budget cannot let grow stays as
 * it is, and one made or cleared while not even the smallest array fits holds nothing (an array of
 * one slot that is never written, counted as 0 bytes) until the budget has room.
 *
 * <p>Thread rules: thread-safe, lock-free for {@link #get}; {@link #put} may take the lock to grow.
 */
public final class DerivedNumbers {
    /** The number {@link #get} returns for an id not held; never a packed number. */
    public static final long MISSING = Long.MIN_VALUE;
    private static final int PROBES = 16;
    private static final int INITIAL_SLOTS = 1 << 12;
    private static final int MIN_SLOTS = 16;
    private static final long PHI = 0x9E3779B97F4A7C15L;
    /** One slot never written (a put on it finds it full): the table while the budget allows none. */
    private static final long[] EMPTY = { 0L, Long.MIN_VALUE };
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);

    private final int maxSlots;
    private final DerivedBudget budget;
    /** Pairs (id, number) by slot; id 0 is a free slot, number {@link #MISSING} one not written yet. */
    private volatile long[] table;
    /** Slots claimed in {@link #table}, counted by the claiming threads (approximate under races). */
    private volatile int claimed;

    /** @param maxEntries the most entries held (rounded to the table size, at most half full) */
    public DerivedNumbers(int maxEntries) {
        this(maxEntries, DerivedBudget.unbounded());
    }

    /**
     * A table of at most {@code maxEntries} whose arrays are reserved from {@code budget}, shared with
     * other tables; while the budget has no room even for the smallest array ({@value #MIN_SLOTS}
     * slots) the table holds nothing.
     */
    public DerivedNumbers(int maxEntries, DerivedBudget budget) {
        this.maxSlots = slotsFor(maxEntries);
        this.budget = budget;
        this.table = reserveFresh();
    }

    /** The largest first table the budget allows, reserved; {@link #EMPTY} if none. */
    private long[] reserveFresh() {
        for (int slots = Math.min(INITIAL_SLOTS, maxSlots); slots >= MIN_SLOTS; slots >>= 1) {
            if (budget.reserve(bytes(slots))) {
                return fresh(slots);
            }
        }
        return EMPTY;
    }

    private void releaseTable(long[] t) {
        if (t != EMPTY) {
            budget.release(bytes(t.length >> 1));
        }
    }

    private static int slotsFor(int maxEntries) {
        int slots = MIN_SLOTS;
        while (slots < 2L * maxEntries && slots < 1 << 29) {
            slots <<= 1;
        }
        return slots;
    }

    /** Heap bytes of a table of {@code slots} slots (its array's payload). */
    public static long bytes(int slots) {
        return 16L * slots;
    }

    private static long[] fresh(int slots) {
        long[] t = new long[2 * slots];
        for (int i = 1; i < t.length; i += 2) {
            t[i] = MISSING;
        }
        return t;
    }

    private static int home(long id, int slots) {
        return (int) ((id * PHI) >>> 40) & (slots - 1);
    }

    /** The number held for {@code id}, or {@link #MISSING}. */
    public long get(long id) {
        return probe(table, id);
    }

    /**
     * Sets {@code out[i]} to the number held for {@code ids[i]} ({@link #get}), or {@link #MISSING}, for
     * {@code i < n}. The ids' home slots are read first in a loop of independent loads, so that the
     * processor has many of their cache misses under way at once, then each id is settled (mostly from the
     * cache line its home slot brought in): a batch of lookups costs a few misses' time, not one per id.
     * An id equal to the one before it (a scan in the order of the ids repeats each) takes that one's
     * number without a lookup. {@code out} must not be {@code ids}.
     */
    public void getAll(long[] ids, int n, long[] out) {
        long[] t = table;
        int slots = t.length >> 1;
        for (int i = 0; i < n; i++) {
            long id = ids[i];
            if (i == 0 || id != ids[i - 1]) {
                out[i] = (long) SLOTS.getAcquire(t, 2 * home(id, slots));
            }
        }
        for (int i = 0; i < n; i++) {
            long id = ids[i];
            if (i > 0 && id == ids[i - 1]) {
                out[i] = out[i - 1];
                continue;
            }
            long k = out[i];
            if (k == id) {
                out[i] = (long) SLOTS.getAcquire(t, 2 * home(id, slots) + 1);
            } else {
                out[i] = k == 0 ? MISSING : probe(t, id);
            }
        }
    }

    /** {@link #get} in table {@code t}. */
    private static long probe(long[] t, long id) {
        int mask = (t.length >> 1) - 1;
        int at = home(id, t.length >> 1);
        for (int p = 0; p < PROBES; p++, at = (at + 1) & mask) {
            long k = (long) SLOTS.getAcquire(t, 2 * at);
            if (k == id) {
                return (long) SLOTS.getAcquire(t, 2 * at + 1);
            }
            if (k == 0) {
                return MISSING;
            }
        }
        return MISSING;
    }

    /**
     * Holds {@code number} (not {@link #MISSING}) for {@code id} (not 0), unless the table is full or
     * the id's probe range is; an id held already keeps its number (the same, by the contract).
     */
    public void put(long id, long number) {
        if (id == 0 || number == MISSING) {
            throw new IllegalArgumentException("id 0 or the MISSING number");
        }
        long[] t = table;
        if (claimed >= (t.length >> 2) && (t.length >> 1) < maxSlots) {
            t = grow(t);
        }
        if (claimed >= (t.length >> 2)) {
            return;
        }
        int mask = (t.length >> 1) - 1;
        int at = home(id, t.length >> 1);
        for (int p = 0; p < PROBES; p++, at = (at + 1) & mask) {
            long k = (long) SLOTS.getAcquire(t, 2 * at);
            if (k == 0 && SLOTS.compareAndSet(t, 2 * at, 0L, id)) {
                SLOTS.setRelease(t, 2 * at + 1, number);
                claimed++;
                return;
            }
            if (k == id || (long) SLOTS.getAcquire(t, 2 * at) == id) {
                SLOTS.setRelease(t, 2 * at + 1, number);
                return;
            }
        }
    }

    /** Doubles {@code old} if it is still the table; returns the current table. */
    private synchronized long[] grow(long[] old) {
        if (table != old || (old.length >> 1) >= maxSlots) {
            return table;
        }
        int slots = old == EMPTY ? MIN_SLOTS : old.length; // twice the old slot count
        if (!budget.reserve(bytes(slots))) {
            return old;
        }
        long[] t = fresh(slots);
        int mask = slots - 1;
        int n = 0;
        for (int i = 0; i < old.length; i += 2) {
            long id = (long) SLOTS.getAcquire(old, i);
            long number = (long) SLOTS.getAcquire(old, i + 1);
            if (id != 0 && number != MISSING) {
                int at = home(id, slots);
                while (t[2 * at] != 0) {
                    at = (at + 1) & mask;
                }
                t[2 * at] = id;
                t[2 * at + 1] = number;
                n++;
            }
        }
        claimed = n;
        table = t;
        releaseTable(old);
        return t;
    }

    /** Entries held (approximate while other threads add). */
    public int size() {
        return claimed;
    }

    /** The most slots the table may grow to (twice the entries it holds at most). */
    public int maxSlots() {
        return maxSlots;
    }

    /** Forgets every entry and gives its array's bytes back to the budget. */
    public synchronized void clear() {
        claimed = 0;
        long[] old = table;
        table = EMPTY; // grows again from its first put; reserves nothing until then
        releaseTable(old);
    }

    /** Heap bytes of this table's array now (0 for the empty one). */
    public long tableBytes() {
        long[] t = table;
        return t == EMPTY ? 0 : bytes(t.length >> 1);
    }
}
