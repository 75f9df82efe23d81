package dev.basalt.store.lexicon;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

import dev.basalt.store.btree.BTree;

/**
 * The TERM2ID entries that a transaction adds to an empty dictionary, held in memory instead of
 * in the tree, and written into the tree bottom-up, in key order, into full pages at the end
 * ({@link #writeTo}; merged with what the tree holds when a memory budget made the writer write
 * an earlier index of this kind). Inserting each new term into the tree costs a descent, a search and a page
 * split now and then; here it costs a hash probe, and the whole tree one sort and one pass.
 *
 * <p>Keys are TERM2ID keys (a full term key, or the hashed key of a long term with its ordinal),
 * unique, never removed. Each entry is a record of its id and key appended to an arena of byte
 * blocks, found through an open-addressing table of the records' addresses beside their keys'
 * hashes: a probe that finds its key reads one table slot and one record (an array per key and a
 * separate array of ids cost two cache misses more per probe, the most frequent operation of a
 * load). Entries are kept in insertion order and sorted once, by {@link #sortedOrder}, when they are written.
 *
 * <p>Not thread-safe: the lexicon writer's one thread; {@link #sortedOrder} only reads, and may run
 * on another thread while the writer's thread does not change the index.
 */
final class BottomUpTermIndex {
    /** A free slot of the table (no record has address 0xFFFFFFFF: the arena stays under 2^31 bytes). */
    private static final long EMPTY = -1L;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Records are appended to blocks of this many bytes; an address is its block number and offset. */
    private static final int BLOCK_BITS = 20;
    private static final int BLOCK_BYTES = 1 << BLOCK_BITS;
    private static final int OFFSET_MASK = BLOCK_BYTES - 1;
    /** Blocks an index may have: addresses stay below 2^31, so none is the table's {@link #EMPTY}. */
    private static final int MAX_BLOCKS = 1 << (31 - BLOCK_BITS);
    /** A key length of this or more is written as this byte and four bytes of length. */
    private static final int LONG_LENGTH = 0xFF;

    /**
     * The arena: each entry one record, {@code [id: 8 bytes, little-endian][key length: 1 byte, or
     * 0xFF and 4 bytes][key]}, so that a probe that finds its key reads the table and one record.
     * A record longer than a block gets a block of its own.
     */
    private byte[][] blocks = new byte[4][];
    private int blockCount;
    /** Bytes used in the last block. */
    private int used;
    /** Entry number (insertion order) to the address of its record. */
    private int[] addresses = new int[1 << 12];
    private int size;
    /** Estimated heap bytes of the entries: records, their addresses and their share of the table. */
    private long bytes;
    /**
     * Slot to the key's hash (high 32 bits) and its record's address (low 32 bits), {@link #EMPTY}
     * for a free slot; at most half full. A probe compares hashes in the table itself and reads a
     * record only when they match.
     */
    private long[] table = newTable(1 << 13);

    int size() {
        return size;
    }

    /** Estimated heap bytes the entries take (a record's bytes, 4 of its address, 24 of table). */
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
                int address = (int) slot;
                byte[] block = blocks[address >>> BLOCK_BITS];
                int at = address & OFFSET_MASK;
                int length = block[at + 8] & 0xFF;
                int from = at + 9;
                if (length == LONG_LENGTH) {
                    length = readInt(block, from);
                    from += 4;
                }
                if (Arrays.equals(block, from, from + length, key, 0, key.length)) {
                    return (long) LONGS.get(block, at);
                }
            }
        }
    }

    /** Adds a key that is not in the index. */
    void put(byte[] key, long id) {
        if (size == addresses.length) {
            addresses = Arrays.copyOf(addresses, 2 * size);
        }
        if (2 * (size + 1) > table.length) {
            rehash(2 * table.length);
        }
        int address = append(key, id);
        addresses[size] = address;
        place(table, (long) hash(key) << 32 | (address & 0xFFFFFFFFL));
        size++;
        bytes += recordBytes(key.length) + 4 + 24;
    }

    private static int recordBytes(int keyLength) {
        return 8 + (keyLength < LONG_LENGTH ? 1 : 5) + keyLength;
    }

    /** Writes the record of {@code key} into the arena; its address. */
    private int append(byte[] key, long id) {
        int n = recordBytes(key.length);
        if (blockCount == 0 || used + n > blocks[blockCount - 1].length) {
            newBlock(Math.max(n, BLOCK_BYTES));
        }
        byte[] block = blocks[blockCount - 1];
        int at = used;
        LONGS.set(block, at, id);
        int p = at + 8;
        if (key.length < LONG_LENGTH) {
            block[p++] = (byte) key.length;
        } else {
            block[p++] = (byte) LONG_LENGTH;
            writeInt(block, p, key.length);
            p += 4;
        }
        System.arraycopy(key, 0, block, p, key.length);
        used = p + key.length; // a record of a block of its own fills it: the next starts a new one
        return (blockCount - 1) << BLOCK_BITS | at;
    }

    private void newBlock(int length) {
        if (blockCount == MAX_BLOCKS) {
            throw new IllegalStateException("the bottom-up term index holds " + size
                    + " keys in 2 GiB of records; the dictionary's memory budget should have merged them earlier");
        }
        if (blockCount == blocks.length) {
            blocks = Arrays.copyOf(blocks, 2 * blockCount);
        }
        blocks[blockCount++] = new byte[length];
        used = 0;
    }

    private static int readInt(byte[] b, int at) {
        return (b[at] & 0xFF) << 24 | (b[at + 1] & 0xFF) << 16 | (b[at + 2] & 0xFF) << 8 | b[at + 3] & 0xFF;
    }

    private static void writeInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    /** Where the key of the record at {@code address} starts in its block. */
    private static int keyFrom(byte[] block, int address) {
        int at = address & OFFSET_MASK;
        return block[at + 8] == (byte) LONG_LENGTH ? at + 13 : at + 9;
    }

    /** The length of the key of the record at {@code address}. */
    private static int keyLength(byte[] block, int address) {
        int at = (address & OFFSET_MASK) + 8;
        int length = block[at] & 0xFF;
        return length == LONG_LENGTH ? readInt(block, at + 1) : length;
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
        writeTo(termToId, sortedOrder(), key -> { });
    }

    /** {@link #writeTo(BTree)}, handing each key written to {@code written} as well. */
    void writeTo(BTree termToId, Consumer<byte[]> written) {
        writeTo(termToId, sortedOrder(), written);
    }

    /** {@link #writeTo(BTree)} with the {@link #sortedOrder} computed beforehand. */
    void writeTo(BTree termToId, int[] order) {
        writeTo(termToId, order, key -> { });
    }

    private void writeTo(BTree termToId, int[] order, Consumer<byte[]> written) {
        byte[][] records = blocks;
        int[] at = addresses;
        blocks = new byte[4][];
        blockCount = 0;
        used = 0;
        addresses = new int[0];
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
                int address = at[order[next++]];
                byte[] block = records[address >>> BLOCK_BITS];
                int from = keyFrom(block, address);
                byte[] key = Arrays.copyOfRange(block, from, from + keyLength(block, address));
                long id = (long) LONGS.get(block, address & OFFSET_MASK);
                written.accept(key);
                return new AbstractMap.SimpleImmutableEntry<>(key, LexiconView.idKey(id));
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
        int firstAddress = addresses[order[from]];
        byte[] firstBlock = blocks[firstAddress >>> BLOCK_BITS];
        int firstFrom = keyFrom(firstBlock, firstAddress);
        int shared = keyLength(firstBlock, firstAddress);
        for (int i = from + 1; i < to && shared > depth; i++) {
            int address = addresses[order[i]];
            byte[] block = blocks[address >>> BLOCK_BITS];
            int kFrom = keyFrom(block, address);
            int length = Math.min(keyLength(block, address), shared);
            int m = Arrays.mismatch(firstBlock, firstFrom + depth, firstFrom + shared, block, kFrom + depth,
                    kFrom + Math.max(length, depth));
            if (m >= 0) {
                shared = depth + m;
            }
        }
        depth = shared;
        for (int i = from; i < to; i++) {
            int address = addresses[order[i]];
            byte[] block = blocks[address >>> BLOCK_BITS];
            packed[i] = (long) step(block, keyFrom(block, address), keyLength(block, address), depth)
                    << (64 - STEP_BITS) | order[i];
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

    /**
     * Three bytes of the key {@code block[from, from + length)} from its byte {@code at} in base
     * 257: 0 past its end, byte + 1 before.
     */
    private static int step(byte[] block, int from, int length, int at) {
        int v = 0;
        for (int i = at; i < at + STEP_BYTES; i++) {
            v = v * 257 + (i < length ? (block[from + i] & 0xFF) + 1 : 0);
        }
        return v;
    }

    private void insertionSort(int[] order, int from, int to, int depth) {
        for (int i = from + 1; i < to; i++) {
            int e = order[i];
            int j = i - 1;
            while (j >= from && compareFrom(addresses[order[j]], addresses[e], depth) > 0) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = e;
        }
    }

    /** Compares the keys of the records at two addresses from their byte {@code depth}. */
    private int compareFrom(int a, int b, int depth) {
        byte[] aBlock = blocks[a >>> BLOCK_BITS];
        byte[] bBlock = blocks[b >>> BLOCK_BITS];
        int aFrom = keyFrom(aBlock, a);
        int bFrom = keyFrom(bBlock, b);
        int aLength = keyLength(aBlock, a);
        int bLength = keyLength(bBlock, b);
        return Arrays.compareUnsigned(aBlock, aFrom + Math.min(depth, aLength), aFrom + aLength,
                bBlock, bFrom + Math.min(depth, bLength), bFrom + bLength);
    }
}
