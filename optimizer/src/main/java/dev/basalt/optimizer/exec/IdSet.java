package dev.basalt.optimizer.exec;

import java.util.Arrays;

/**
 * A set of term ids (non-zero longs) in one open-addressed array with linear probing, kept at most
 * half full: 16 to 32 bytes per id, against about 60 for a {@code HashSet<Long>}, and no object
 * per id for the collector to trace. Id 0 ({@code TermIds.NULL}) marks an empty slot and cannot be
 * added. Not thread-safe.
 */
final class IdSet {
    private long[] slots;
    private int size;
    private int mask;

    IdSet() {
        this(16);
    }

    IdSet(int expected) {
        int capacity = Integer.highestOneBit(Math.max(8, expected) * 2 - 1) << 1;
        slots = new long[capacity];
        mask = capacity - 1;
    }

    /** Adds {@code id}; false if it was there already. */
    boolean add(long id) {
        if (id == 0) {
            throw new IllegalArgumentException("id 0 is no term");
        }
        int i = index(id);
        while (slots[i] != 0) {
            if (slots[i] == id) {
                return false;
            }
            i = (i + 1) & mask;
        }
        slots[i] = id;
        if (++size * 2 > slots.length) {
            grow();
        }
        return true;
    }

    boolean contains(long id) {
        if (id == 0) {
            return false;
        }
        int i = index(id);
        while (slots[i] != 0) {
            if (slots[i] == id) {
                return true;
            }
            i = (i + 1) & mask;
        }
        return false;
    }

    int size() {
        return size;
    }

    void clear() {
        Arrays.fill(slots, 0);
        size = 0;
    }

    private int index(long id) {
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        mask = slots.length - 1;
        for (long id : old) {
            if (id != 0) {
                int i = index(id);
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = id;
            }
        }
    }
}
