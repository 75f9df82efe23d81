package dev.basalt.optimizer.exec;

import java.util.Arrays;

/**
 * The built side of a {@link HashJoin} or {@link MinusOp} in memory ({@link HashBuild}): its rows in build
 * order, chained per key of their {@code keySlots}. A probe asks for the first row of a key ({@link #first}) and
 * follows the chain ({@link #next}), which keeps the rows of one key in build order; {@link #firstsInKeyOrder}
 * gives one row per key, the keys in the unsigned order of their ids ({@link KeyDrive}).
 *
 * <p>Two forms, chosen by the number of key slots ({@link #of}): a key of one id ({@link IdKeyedRows}, an
 * open-addressing table of primitive ids: a probe allocates nothing and reads one place of the table) and any other
 * key ({@link RowKeyedRows}, a hash map of {@link RowKey}s). Both give the same chains for the same rows.
 *
 * <p>Not thread-safe: built and read by the thread running one open of its operator.
 */
abstract class KeyedRows {
    final int[] keySlots;
    private long[][] rows = new long[16][];
    /** Per row: the index of the next row of its key, or -1. */
    private int[] next = new int[16];
    private int size;

    KeyedRows(int[] keySlots) {
        this.keySlots = keySlots;
    }

    /** An empty table for rows keyed on {@code keySlots}: the primitive form for one slot, else the map of keys. */
    static KeyedRows of(int[] keySlots) {
        return keySlots.length == 1 ? new IdKeyedRows(keySlots) : new RowKeyedRows(keySlots);
    }

    /** Adds {@code row} (kept, not copied) after the rows of its key added before it. */
    final void add(long[] row) {
        if (size == rows.length) {
            rows = Arrays.copyOf(rows, size * 2);
            next = Arrays.copyOf(next, size * 2);
        }
        int i = size++;
        rows[i] = row;
        next[i] = -1;
        int last = link(row, i);
        if (last >= 0) {
            next[last] = i;
        }
    }

    /**
     * Files row {@code index} under its key: the key's last row before it (whose chain the caller extends), or -1
     * for a new key.
     */
    abstract int link(long[] row, int index);

    /** The first row of the key that {@code probe} has in the key slots, or -1 if no row has it. */
    abstract int first(long[] probe);

    /** The row after {@code row} (an index) with the same key, or -1. */
    final int next(int row) {
        return next[row];
    }

    final long[] row(int index) {
        return rows[index];
    }

    /** Rows held. */
    final int rows() {
        return size;
    }

    /** Distinct keys held. */
    abstract int keys();

    /** The first row of each key, the keys in the unsigned order of their ids (slot by slot). */
    abstract int[] firstsInKeyOrder();
}
