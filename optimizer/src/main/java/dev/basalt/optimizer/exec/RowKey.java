package dev.basalt.optimizer.exec;

import java.util.Arrays;

/**
 * The ids of some slots of a row, as a hash key: equal keys are equal ids in the same slots. Used by
 * the hash-based operators (hash join, MINUS, GROUP BY, DISTINCT); the fields are read-only by
 * convention (DISTINCT partitions rows by the hash and writes keys back into rows).
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

    @Override
    public boolean equals(Object o) {
        return o instanceof RowKey k && Arrays.equals(k.ids, ids);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
