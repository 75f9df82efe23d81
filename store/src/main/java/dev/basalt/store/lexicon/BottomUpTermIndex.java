package dev.basalt.store.lexicon;

import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

import dev.basalt.store.btree.BTree;

/**
 * The TERM2ID entries that a transaction adds to an empty dictionary, held in memory instead of
 * in the tree, and written into the tree bottom-up, in key order, into full pages at the end
 * ({@link #writeTo}; merged with what the tree holds when a memory budget made the writer write
 * an earlier index of this kind). Inserting each new term into the tree costs a descent, a search and a page
 * split now and then; here it costs a hash probe, and the whole tree one sort and one pass.
 *
 * <p>Keys are TERM2ID keys (a full term key, or the hashed key of a long term with its ordinal),
 * unique, never removed. Entries are kept in insertion order with an open-addressing table of
 * their indexes and sorted once, by {@link #sortedOrder}, when they are written.
 *
 * <p>Not thread-safe: the lexicon writer's one thread; {@link #sortedOrder} only reads, and may run
 * on another thread while the writer's thread does not change the index.
 */
final class BottomUpTermIndex {
    /** A free slot of the table (no entry has index -1). */
    private static final long EMPTY = -1L;

    private byte[][] keys = new byte[1 << 12][];
    private long[] ids = new long[1 << 12];
    private int size;
    /** Estimated heap bytes of the entries: key arrays, their slots in the arrays here, and the table. */
    private long bytes;
    /**
     * Slot to the key's hash (high 32 bits) and entry index (low 32 bits), {@link #EMPTY} for a
     * free slot; at most half full. A probe compares hashes in the table itself and reads an
     * entry's key only when they match.
     */
    private long[] table = newTable(1 << 13);

    int size() {
        return size;
    }

    /** Estimated heap bytes the entries take (a key array's header and bytes, 16 bytes of slots and ids, 24 of table). */
    long bytes() {
        return bytes;
    }

    /** The id of {@code key}, or {@link TermIds#NULL}. */
    long get(byte[] key) {
        int h = hash(key);
        int mask = table.length - 1;
        for (int s = h & mask; ; s = (s + 1) & mask) {
            long slot = table[s];
            if (slot == EMPTY) {
                return TermIds.NULL;
            }
            if ((int) (slot >>> 32) == h) {
                int e = (int) slot;
                if (Arrays.equals(keys[e], key)) {
                    return ids[e];
                }
            }
        }
    }

    /** Adds a key that is not in the index. */
    void put(byte[] key, long id) {
        if (size == keys.length) {
            int n = 2 * size;
            keys = Arrays.copyOf(keys, n);
            ids = Arrays.copyOf(ids, n);
        }
        if (2 * (size + 1) > table.length) {
            rehash(2 * table.length);
        }
        int h = hash(key);
        keys[size] = key;
        ids[size] = id;
        place(table, (long) h << 32 | size);
        size++;
        bytes += 16 + key.length + 40;
    }

    private static void place(long[] table, long slot) {
        int mask = table.length - 1;
        int s = (int) (slot >>> 32) & mask;
        while (table[s] != EMPTY) {
            s = (s + 1) & mask;
        }
        table[s] = slot;
    }

    private void rehash(int slots) {
        long[] old = table;
        table = newTable(slots);
        for (long slot : old) {
            if (slot != EMPTY) {
                place(table, slot);
            }
        }
    }

    private static long[] newTable(int slots) {
        long[] t = new long[slots];
        Arrays.fill(t, EMPTY);
        return t;
    }

    private static int hash(byte[] key) {
        int h = Arrays.hashCode(key) * 0x9E3779B9;
        return h ^ (h >>> 15);
    }

    /**
     * Adds the entries (value: the 8-byte id) to {@code termToId}, which holds none of their keys,
     * in key order, bottom-up: loads the tree if it is empty, else builds it again from the merge
     * ({@link BTree#bulkMerge}); and empties this index.
     */
    void writeTo(BTree termToId) {
        writeTo(termToId, sortedOrder());
    }

    /** {@link #writeTo(BTree)} with the {@link #sortedOrder} computed beforehand. */
    void writeTo(BTree termToId, int[] order) {
        byte[][] k = keys;
        long[] v = ids;
        keys = new byte[0][];
        ids = new long[0];
        size = 0;
        bytes = 0;
        table = newTable(2);
        termToId.bulkMerge(new Iterator<Map.Entry<byte[], byte[]>>() {
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

    /** Bytes of a key compared per radix step: three, each 0 past the key's end and its value + 1 before it. */
    private static final int STEP_BYTES = 3;
    private static final int STEP_BITS = 27;
    private static final long INDEX_MASK = (1L << (64 - STEP_BITS)) - 1;
    /** Groups this small are sorted by comparing keys. */
    private static final int SMALL_GROUP = 12;

    /**
     * Entry indexes in ascending key order: a most-significant-digit radix sort over the keys'
     * bytes, three at a time. Each group of entries (keys equal so far) first skips the bytes all
     * its keys share, then is sorted by the next three bytes packed with the entry index into one
     * long (a primitive sort), and each run of equal bytes is a group one step deeper. A key is
     * read once or twice per step it takes part in, and TERM2ID keys (IRIs with long shared
     * prefixes) are told apart in a few steps after their shared part is skipped; a comparison
     * sort reads two keys per comparison, log2(n) comparisons per key.
     */
    int[] sortedOrder() {
        int n = size;
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        sortGroup(order, 0, n, 0, new long[n]);
        return order;
    }

    /** Sorts {@code order[from, to)}, whose keys are unique and share their first {@code depth} bytes. */
    private void sortGroup(int[] order, int from, int to, int depth, long[] packed) {
        if (to - from < 2) {
            return;
        }
        if (to - from <= SMALL_GROUP) {
            insertionSort(order, from, to, depth);
            return;
        }
        byte[] first = keys[order[from]];
        int shared = first.length;
        for (int i = from + 1; i < to && shared > depth; i++) {
            byte[] k = keys[order[i]];
            int m = Arrays.mismatch(first, depth, shared, k, depth, Math.min(k.length, shared));
            if (m >= 0) {
                shared = depth + m;
            }
        }
        depth = shared;
        for (int i = from; i < to; i++) {
            packed[i] = (long) step(keys[order[i]], depth) << (64 - STEP_BITS) | order[i];
        }
        Arrays.sort(packed, from, to);
        for (int i = from; i < to; i++) {
            order[i] = (int) (packed[i] & INDEX_MASK);
        }
        int run = from;
        for (int i = from + 1; i <= to; i++) {
            if (i == to || packed[i] >>> (64 - STEP_BITS) != packed[run] >>> (64 - STEP_BITS)) {
                // equal steps of unique keys hold no key end: the keys go on past this step
                sortGroup(order, run, i, depth + STEP_BYTES, packed);
                run = i;
            }
        }
    }

    /** Three bytes of {@code key} from {@code at} in base 257: 0 past its end, byte + 1 before. */
    private static int step(byte[] key, int at) {
        int v = 0;
        for (int i = at; i < at + STEP_BYTES; i++) {
            v = v * 257 + (i < key.length ? (key[i] & 0xFF) + 1 : 0);
        }
        return v;
    }

    private void insertionSort(int[] order, int from, int to, int depth) {
        for (int i = from + 1; i < to; i++) {
            int e = order[i];
            byte[] k = keys[e];
            int j = i - 1;
            while (j >= from && compareFrom(keys[order[j]], k, depth) > 0) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = e;
        }
    }

    private static int compareFrom(byte[] a, byte[] b, int depth) {
        return Arrays.compareUnsigned(a, Math.min(depth, a.length), a.length, b, Math.min(depth, b.length), b.length);
    }
}
