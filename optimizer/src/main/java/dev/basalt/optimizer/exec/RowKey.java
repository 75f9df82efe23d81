package dev.basalt.optimizer.exec;

import java.util.Arrays;

import dev.basalt.store.lexicon.TermIds;

/**
 * The ids of some slots of a row, as a hash key: equal keys are equal ids in the same slots. Used by
 * the hash-based operators (hash join, MINUS, GROUP BY, DISTINCT); the fields are read-only by
 * convention (DISTINCT partitions rows by the hash and writes keys back into rows).
 * Not thread-safe: a key belongs to the operator open (one thread) that made it.
 */
final class RowKey {
    final long[] ids;
    final int hash;

    RowKey(long[] row, int[] slots) {
        ids = new long[slots.length];
        for (int i = 0; i < slots.length; i++) {
            ids[i] = row[slots[i]];
        }
        hash = Arrays.hashCode(ids);
    }

    private RowKey(long[] ids) {
        this.ids = ids;
        this.hash = Arrays.hashCode(ids);
    }

    /**
     * The key of a solution for GROUP BY and DISTINCT, which compare solutions by their values: a
     * variable a BIND left unbound by an error ({@link ExecContext#UNBOUND_BY_ERROR}) is as unbound
     * as one never bound. (Joins and MINUS keep the plain key: there such a variable matches nothing.)
     */
    static RowKey solution(long[] row, int[] slots) {
        long[] ids = new long[slots.length];
        for (int i = 0; i < slots.length; i++) {
            long id = row[slots[i]];
            ids[i] = id == ExecContext.UNBOUND_BY_ERROR ? TermIds.NULL : id;
        }
        return new RowKey(ids);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowKey k && Arrays.equals(k.ids, ids);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
