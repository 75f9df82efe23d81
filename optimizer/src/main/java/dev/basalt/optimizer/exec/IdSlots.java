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
