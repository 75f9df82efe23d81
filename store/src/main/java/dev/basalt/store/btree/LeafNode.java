package dev.basalt.store.btree;

/**
 * A leaf: {@link #size()} entries in strictly ascending unsigned key order. A stored value is a
 * {@code byte[]} (inline) or a {@link LargeValue}; arrays a leaf hands out may be shared with the
 * page and must not be modified or exposed to users without a copy.
 *
 * <p>Threads: clean leaves ({@link LeafPage}, {@link IdTupleLeafPage}) are immutable and shared by
 * any number of threads; a {@link DirtyLeaf} is touched only by the thread writing its tree.
 */
sealed interface LeafNode extends Node permits LeafPage, IdTupleLeafPage, DirtyLeaf {
    /** Index of {@code key}, or {@code -(insertion point) - 1} as in {@link java.util.Arrays#binarySearch}. */
    int search(byte[] key);

    byte[] keyAt(int index);

    Object valueAt(int index);

    /** Entries decoded together by {@link #decodeRun}; runs start at multiples of it. */
    int runLength();

    /**
     * Decodes entries {@code [first, first + count)} into fresh arrays owned by the caller.
     * {@code first} is a multiple of {@link #runLength()} and {@code count <= runLength()}.
     */
    void decodeRun(int first, int count, byte[][] keys, Object[] values);

    /** Puts {@code scan} on entry {@code index}: its key in the scan's buffer, its value not yet read. */
    void scanTo(int index, LeafScan scan);

    /**
     * Puts {@code scan} on the first entry whose key is {@code >= key} and returns its index, or
     * returns {@link #size()} (the scan then stands nowhere) if every key is smaller.
     */
    int scanCeiling(byte[] key, LeafScan scan);

    /** Moves {@code scan} from its entry to the following one, which the caller knows exists. */
    void scanNext(LeafScan scan);

    /** The value of the scan's entry: an inline copy the caller owns, or a {@link LargeValue}. */
    Object scanValue(LeafScan scan);

    /**
     * Moves {@code scan} over the {@code n} entries after its own (the caller knows they exist),
     * writing each one's key, {@code width} big-endian 64-bit ids, as ids into {@code out} from
     * {@code off} on ({@code width} per entry); the scan then stands on the last of them with its key
     * in the buffer. Every key must have {@code 8 * width} bytes. A leaf coded as id tuples decodes
     * the ids without building the keys' bytes in between.
     */
    default void scanNextIds(LeafScan scan, int width, long[] out, int off, int n) {
        for (int e = 0; e < n; e++) {
            scanNext(scan);
            for (int i = 0; i < width; i++) {
                out[off++] = PageFormat.readLong(scan.key, 8 * i);
            }
        }
    }

    /**
     * Moves {@code scan} over up to {@code n} entries after its own (the caller knows they exist) whose
     * first {@code keep} ids are those of the scan's entry, writing id {@code i} of each to
     * {@code cols[i][off...]} where {@code cols[i]} is not null (one column per id position, one row per
     * entry; {@code width} ids per key, every key {@code 8 * width} bytes); returns how many it wrote.
     * The ascending keys of a prefix of {@code keep} whole ids: the first whose prefix differs ends the
     * prefix's range. Where it wrote all {@code n}, the scan stands on the last; where fewer, the scan
     * is left anywhere (the range has ended) and must be positioned again before any other use. A leaf
     * coded as id tuples decodes each entry's ids straight into the columns.
     */
    default int scanNextColumns(LeafScan scan, int width, long[][] cols, int off, int n, int keep) {
        long[] first = new long[keep];
        for (int i = 0; i < keep; i++) {
            first[i] = PageFormat.readLong(scan.key, 8 * i);
        }
        for (int e = 0; e < n; e++) {
            scanNext(scan);
            for (int i = 0; i < keep; i++) {
                if (PageFormat.readLong(scan.key, 8 * i) != first[i]) {
                    return e;
                }
            }
            for (int i = 0; i < width; i++) {
                if (cols[i] != null) {
                    cols[i][off + e] = PageFormat.readLong(scan.key, 8 * i);
                }
            }
        }
        return n;
    }
}
