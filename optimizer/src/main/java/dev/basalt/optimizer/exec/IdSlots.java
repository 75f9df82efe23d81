package dev.basalt.optimizer.exec;

/**
 * An open-addressing table (linear probing) keyed by term id whose slot is {@code stride} longs of
 * one {@code long[]}: the id, then its entry's fields side by side, so that adding to or reading an
 * id reads one place ({@link IdCounts}, {@link IdSums}). Ids are bound ids (never 0, which marks an
 * empty slot). It doubles at three quarters full. Not thread-safe: one open's.
 */
abstract class IdSlots {
    private final int stride;
    /** The slots: at {@code stride * i} an id, then its fields. */
    long[] slots;
    private int mask;
    private int size;
    /** The last {@link #touch}'s reads folded together, kept so that the compiler cannot drop them. */
    private long touched;

    /** A table sized for about {@code expected} ids (at least 64 slots, at most 2^20 to start). */
    IdSlots(long expected, int stride) {
        long want = Math.min(Math.max(expected, 48), 3L << 18) * 4 / 3;
        int capacity = Integer.highestOneBit((int) want - 1) << 1;
        this.stride = stride;
        slots = new long[stride * capacity];
        mask = capacity - 1;
    }

    /** The array index of {@code id}'s first slot to look at: where it is, or where its probe starts. */
    final int home(long id) {
        long h = id * 0x9E3779B97F4A7C15L;
        return stride * ((int) (h ^ h >>> 32) & mask);
    }

    /** The array index of {@code id}'s slot, or of the empty slot where it belongs. */
    final int find(long id) {
        long h = id * 0x9E3779B97F4A7C15L;
        int slot = (int) (h ^ h >>> 32) & mask;
        while (true) {
            int at = stride * slot;
            long k = slots[at];
            if (k == id || k == 0) {
                return at;
            }
            slot = slot + 1 & mask;
        }
    }

    /**
     * {@link #find} of {@code n} ids at once, into {@code at}: the keys of their home slots are read in one pass
     * first ({@code homeKeys}, at least {@code n} long), so the processor fetches those cache lines together (a
     * table past the caches misses on nearly every home slot, and ids looked up one at a time wait for each miss
     * in turn), then each id is resolved, mostly from lines already fetched. The table must not change between
     * this call and the use of {@code at}.
     */
    final void findAll(long[] ids, int n, int[] at, long[] homeKeys) {
        for (int i = 0; i < n; i++) {
            int h = home(ids[i]);
            at[i] = h;
            homeKeys[i] = slots[h];
        }
        for (int i = 0; i < n; i++) {
            long k = homeKeys[i];
            if (k != ids[i] && k != 0) {
                at[i] = find(ids[i]);
            }
        }
    }

    /**
     * Reads the home slots of {@code n} ids in one pass, so that adding them one by one right after finds their
     * cache lines fetched (see {@link #findAll}); only a matter of speed.
     */
    final void touch(long[] ids, int n) {
        long seen = 0;
        for (int i = 0; i < n; i++) {
            seen ^= slots[home(ids[i])];
        }
        touched = seen;
    }

    /** To call once an empty slot has been given its id and fields: counts it, and grows the table if due. */
    final void claimed() {
        if (++size * 4 > (mask + 1) * 3) {
            grow();
        }
    }

    /** Forgets every id, keeping the table's size. */
    final void clear() {
        java.util.Arrays.fill(slots, 0L);
        size = 0;
    }

    /** Ids held. */
    final int size() {
        return size;
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        mask = slots.length / stride - 1;
        for (int i = 0; i < old.length; i += stride) {
            if (old[i] != 0) {
                System.arraycopy(old, i, slots, find(old[i]), stride);
            }
        }
    }
}
