package dev.basalt.store.io;

import java.util.Arrays;

/**
 * A growable array of primitive longs, for address lists that may hold millions of entries.
 * Not thread-safe: owned by one thread at a time.
 */
public final class LongArray {
    private long[] values;
    private int size;

    public LongArray() {
        this(16);
    }

    public LongArray(int capacity) {
        values = new long[Math.max(4, capacity)];
    }

    public void add(long v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, values.length * 2);
        }
        values[size++] = v;
    }

    public long get(int i) {
        if (i >= size) {
            throw new IndexOutOfBoundsException(i + " >= " + size);
        }
        return values[i];
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public void clear() {
        size = 0;
    }

    public long[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
