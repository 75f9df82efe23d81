package dev.basalt.optimizer.exec;

/**
 * Counts per term id, for {@link CountJoinOp}: an {@link IdSlots} table whose slot holds an id and
 * its count side by side. Counts add exactly ({@link Math#addExact}: a count past 2^63 throws).
 * Not thread-safe: one open's.
 */
final class IdCounts extends IdSlots {
    /** A table sized for about {@code expected} ids (at least 64 slots, at most 2^20 to start). */
    IdCounts(long expected) {
        super(expected, 2);
    }

    /** Adds {@code n} to the count of {@code id} (not 0). */
    void add(long id, long n) {
        int at = find(id);
        if (slots[at] == 0) {
            slots[at] = id;
            slots[at + 1] = n;
            claimed();
        } else {
            slots[at + 1] = Math.addExact(slots[at + 1], n);
        }
    }

    /**
     * Sets {@code out[i]} to the count of {@code ids[i]} ({@link #get}) for {@code i < n}: the ids' home
     * slots are read first in a loop of independent loads, so that their cache misses are under way
     * together, then each id is settled. {@code out} must not be {@code ids}.
     */
    void getAll(long[] ids, int n, long[] out) {
        long[] slots = this.slots;
        for (int i = 0; i < n; i++) {
            out[i] = slots[home(ids[i])];
        }
        for (int i = 0; i < n; i++) {
            long k = out[i];
            long id = ids[i];
            out[i] = k == id ? slots[home(id) + 1] : k == 0 ? 0 : get(id);
        }
    }

    /** The count of {@code id}, 0 if it has none. */
    long get(long id) {
        int at = find(id);
        return slots[at] == 0 ? 0 : slots[at + 1];
    }
}
