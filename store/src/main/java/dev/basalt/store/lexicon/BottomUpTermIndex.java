package dev.basalt.store.lexicon;

import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

import dev.basalt.store.btree.BTree;

/**
 * The TERM2ID entries that a transaction adds to an empty dictionary, held in memory instead of
 * in the tree, and written into the empty tree bottom-up, in key order, into full pages at the end
 * ({@link #writeTo}). Inserting each new term into the tree costs a descent, a search and a page
 * split now and then; here it costs a hash probe, and the whole tree one sort and one pass.
 *
 * <p>Keys are TERM2ID keys (a full term key, or the hashed key of a long term with its ordinal),
 * unique, never removed. Entries are kept in insertion order with an open-addressing table of
 * their indexes; the writer creates a batch's new terms in key order, so the entries are mostly
 * ascending runs, which the natural merge sort of {@link #writeTo} merges.
 *
 * <p>Not thread-safe: the lexicon writer's one thread.
 */
final class BottomUpTermIndex {
    private static final int EMPTY = -1;

    private byte[][] keys = new byte[1 << 12][];
    private long[] ids = new long[1 << 12];
    private int[] hashes = new int[1 << 12];
    private int size;
    /** Estimated heap bytes of the entries: key arrays, their slots in the arrays here, and the table. */
    private long bytes;
    /** Slot to entry index, {@link #EMPTY} for a free slot; at most half full. */
    private int[] table = newTable(1 << 13);

    int size() {
        return size;
    }

    /** Estimated heap bytes the entries take (a key array's header and bytes, 24 bytes of slots and ids, 8 of table). */
    long bytes() {
        return bytes;
    }

    /** The id of {@code key}, or {@link TermIds#NULL}. */
    long get(byte[] key) {
        int h = hash(key);
        int mask = table.length - 1;
        for (int s = h & mask; ; s = (s + 1) & mask) {
            int e = table[s];
            if (e == EMPTY) {
                return TermIds.NULL;
            }
            if (hashes[e] == h && Arrays.equals(keys[e], key)) {
                return ids[e];
            }
        }
    }

    /** Adds a key that is not in the index. */
    void put(byte[] key, long id) {
        if (size == keys.length) {
            int n = 2 * size;
            keys = Arrays.copyOf(keys, n);
            ids = Arrays.copyOf(ids, n);
            hashes = Arrays.copyOf(hashes, n);
        }
        if (2 * (size + 1) > table.length) {
            rehash(2 * table.length);
        }
        int h = hash(key);
        keys[size] = key;
        ids[size] = id;
        hashes[size] = h;
        place(size, h);
        size++;
        bytes += 16 + key.length + 32;
    }

    private void place(int entry, int h) {
        int mask = table.length - 1;
        int s = h & mask;
        while (table[s] != EMPTY) {
            s = (s + 1) & mask;
        }
        table[s] = entry;
    }

    private void rehash(int slots) {
        table = newTable(slots);
        for (int e = 0; e < size; e++) {
            place(e, hashes[e]);
        }
    }

    private static int[] newTable(int slots) {
        int[] t = new int[slots];
        Arrays.fill(t, EMPTY);
        return t;
    }

    private static int hash(byte[] key) {
        int h = Arrays.hashCode(key) * 0x9E3779B9;
        return h ^ (h >>> 15);
    }

    /**
     * Fills the empty tree {@code termToId} with the entries (value: the 8-byte id) in key order,
     * bottom-up, and empties this index.
     */
    void writeTo(BTree termToId) {
        int[] order = sortedOrder();
        byte[][] k = keys;
        long[] v = ids;
        keys = new byte[0][];
        ids = new long[0];
        hashes = new int[0];
        size = 0;
        bytes = 0;
        table = newTable(2);
        termToId.bulkLoad(new Iterator<Map.Entry<byte[], byte[]>>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < order.length;
            }

            @Override
            public Map.Entry<byte[], byte[]> next() {
                if (next == order.length) {
                    throw new NoSuchElementException();
                }
                int e = order[next++];
                return new AbstractMap.SimpleImmutableEntry<>(k[e], LexiconView.idKey(v[e]));
            }
        });
    }

    /**
     * Entry indexes in ascending key order: a natural merge sort, which finds the ascending runs
     * the entries already form and merges them pairwise.
     */
    int[] sortedOrder() {
        int n = size;
        int[] a = new int[n];
        int[] runEnds = new int[Math.max(n, 1)];
        int runs = 0;
        for (int i = 0; i < n; i++) {
            a[i] = i;
            if (i + 1 == n || Arrays.compareUnsigned(keys[i], keys[i + 1]) > 0) {
                runEnds[runs++] = i + 1;
            }
        }
        int[] b = new int[n];
        while (runs > 1) {
            int merged = 0;
            int from = 0;
            for (int r = 0; r < runs; r += 2) {
                int mid = runEnds[r];
                int to = r + 1 < runs ? runEnds[r + 1] : mid;
                merge(a, b, from, mid, to);
                runEnds[merged++] = to;
                from = to;
            }
            runs = merged;
            int[] t = a;
            a = b;
            b = t;
        }
        return a;
    }

    private void merge(int[] src, int[] dst, int from, int mid, int to) {
        int i = from;
        int j = mid;
        int o = from;
        while (i < mid && j < to) {
            dst[o++] = Arrays.compareUnsigned(keys[src[i]], keys[src[j]]) <= 0 ? src[i++] : src[j++];
        }
        System.arraycopy(src, i, dst, o, mid - i);
        System.arraycopy(src, j, dst, o + mid - i, to - j);
    }
}
