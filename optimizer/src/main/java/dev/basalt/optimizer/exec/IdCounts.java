package dev.basalt.optimizer.exec;

/**
 * Counts per term id, for {@link CountJoinOp}: an open-addressing table (linear probing) whose slot
 * holds an id and its count side by side in one {@code long[]}, so that adding to or reading an id
 * reads one place. Ids are bound ids (never 0, which marks an empty slot); counts add exactly
 * ({@link Math#addExact}: a count past 2^63 throws). It doubles at three quarters full.
 * Not thread-safe: one open's.
 */
final class IdCounts {
    private long[] slots;
    private int mask;
    private int size;

    /** A table sized for about {@code expected} ids (at least 64 slots, at most 2^20 to start). */
    IdCounts(long expected) {
        long want = Math.min(Math.max(expected, 48), 3L << 18) * 4 / 3;
        int capacity = Integer.highestOneBit((int) want - 1) << 1;
        slots = new long[2 * capacity];
        mask = capacity - 1;
    }

    /** Adds {@code n} to the count of {@code id} (not 0). */
    void add(long id, long n) {
        int at = find(id);
        if (slots[at] == 0) {
            slots[at] = id;
            slots[at + 1] = n;
            if (++size * 4 > (mask + 1) * 3) {
                grow();
            }
        } else {
            slots[at + 1] = Math.addExact(slots[at + 1], n);
        }
    }

    /** The count of {@code id}, 0 if it has none. */
    long get(long id) {
        int at = find(id);
        return slots[at] == 0 ? 0 : slots[at + 1];
    }

    /** Forgets every id, keeping the table's size. */
    void clear() {
        java.util.Arrays.fill(slots, 0L);
        size = 0;
    }

    /** Ids held. */
    int size() {
        return size;
    }

    /** The array index of {@code id}'s slot, or of the empty slot where it belongs. */
    private int find(long id) {
        long h = id * 0x9E3779B97F4A7C15L;
        int slot = (int) (h ^ h >>> 32) & mask;
        while (true) {
            int at = 2 * slot;
            long k = slots[at];
            if (k == id || k == 0) {
                return at;
            }
            slot = slot + 1 & mask;
        }
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        mask = slots.length / 2 - 1;
        for (int i = 0; i < old.length; i += 2) {
            if (old[i] != 0) {
                int at = find(old[i]);
                slots[at] = old[i];
                slots[at + 1] = old[i + 1];
            }
        }
    }
}
