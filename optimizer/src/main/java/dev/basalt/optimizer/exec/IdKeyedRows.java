package dev.basalt.optimizer.exec;

import java.util.Arrays;

/**
 * {@link KeyedRows} for a key of one slot: an open-addressing table (linear probing) of primitive ids, each slot
 * two longs side by side, the key's id and its chain (first row + 1 in the low half, last row in the high half; 0
 * marks an empty slot, so every id, 0 included, can be a key). A probe reads the probe row's id and one place of the
 * table, allocating nothing, where the map of {@link RowKey}s makes a key object per probe and reads a map node, a
 * key and a list. It doubles at three quarters full.
 *
 * <p>Not thread-safe: one open's.
 */
final class IdKeyedRows extends KeyedRows {
    private static final long PHI = 0x9E3779B97F4A7C15L;
    private static final long LOW = 0xFFFF_FFFFL;
    private final int slot;
    /** At {@code 2 * i} a key's id, at {@code 2 * i + 1} its chain (0: the slot is empty). */
    private long[] table = new long[2 * 64];
    private int mask = 63;
    private int keys;

    IdKeyedRows(int[] keySlots) {
        super(keySlots);
        if (keySlots.length != 1) {
            throw new IllegalArgumentException("a table of id keys has one key slot, not " + keySlots.length);
        }
        this.slot = keySlots[0];
    }

    /** The array index of {@code id}'s slot, or of the empty slot where it belongs. */
    private int find(long id) {
        long h = id * PHI;
        int i = (int) (h ^ h >>> 32) & mask;
        while (true) {
            int at = 2 * i;
            if (table[at + 1] == 0 || table[at] == id) {
                return at;
            }
            i = i + 1 & mask;
        }
    }

    @Override
    int link(long[] row, int index) {
        long id = row[slot];
        int at = find(id);
        long chain = table[at + 1];
        if (chain != 0) {
            table[at + 1] = (chain & LOW) | (long) index << 32;
            return (int) (chain >>> 32);
        }
        table[at] = id;
        table[at + 1] = (index + 1L) | (long) index << 32;
        if (++keys * 4 > (mask + 1) * 3) {
            grow();
        }
        return -1;
    }

    @Override
    int first(long[] probe) {
        long chain = table[find(probe[slot]) + 1];
        return (int) (chain & LOW) - 1;
    }

    @Override
    int keys() {
        return keys;
    }

    @Override
    int[] firstsInKeyOrder() {
        // the sign bit flipped, signed order is the ids' unsigned order
        long[] ids = new long[keys];
        int n = 0;
        for (int at = 0; at < table.length; at += 2) {
            if (table[at + 1] != 0) {
                ids[n++] = table[at] ^ Long.MIN_VALUE;
            }
        }
        Arrays.sort(ids);
        int[] firsts = new int[n];
        for (int i = 0; i < n; i++) {
            firsts[i] = (int) (table[find(ids[i] ^ Long.MIN_VALUE) + 1] & LOW) - 1;
        }
        return firsts;
    }

    private void grow() {
        long[] old = table;
        table = new long[old.length * 2];
        mask = table.length / 2 - 1;
        for (int at = 0; at < old.length; at += 2) {
            if (old[at + 1] != 0) {
                int to = find(old[at]);
                table[to] = old[at];
                table[to + 1] = old[at + 1];
            }
        }
    }
}
