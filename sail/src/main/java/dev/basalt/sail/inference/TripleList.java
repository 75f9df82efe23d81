package dev.basalt.sail.inference;

import java.util.Arrays;

/**
 * A growable list of triples of term ids, three longs each in one array: the deltas of a
 * semi-naive round and the change sets of a transaction, without an object per triple. Not
 * thread-safe.
 */
public final class TripleList {
    private long[] ids = new long[48];
    private int size;

    public void add(long s, long p, long o) {
        if (3 * size + 3 > ids.length) {
            ids = Arrays.copyOf(ids, Math.max(ids.length * 2, 3 * size + 3));
        }
        ids[3 * size] = s;
        ids[3 * size + 1] = p;
        ids[3 * size + 2] = o;
        size++;
    }

    public void addAll(TripleList other) {
        for (int i = 0; i < other.size; i++) {
            add(other.s(i), other.p(i), other.o(i));
        }
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public long s(int i) {
        return ids[3 * i];
    }

    public long p(int i) {
        return ids[3 * i + 1];
    }

    public long o(int i) {
        return ids[3 * i + 2];
    }

    public void clear() {
        size = 0;
    }
}
