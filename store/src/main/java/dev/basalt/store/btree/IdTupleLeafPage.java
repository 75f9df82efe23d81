package dev.basalt.store.btree;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

import static dev.basalt.store.btree.PageFormat.ID_TUPLE_LEAF;
import static dev.basalt.store.btree.PageFormat.entryEnd;
import static dev.basalt.store.btree.PageFormat.next;
import static dev.basalt.store.btree.PageFormat.readInt;
import static dev.basalt.store.btree.PageFormat.readVarint;
import static dev.basalt.store.btree.PageFormat.value;

/**
 * A clean leaf whose keys are tuples of {@code width} unsigned 64-bit ids (statement keys: four term
 * ids), coded by {@link IdTupleCoding} as the difference to the key before: which id changes
 * first, by how much, and each following id in the cheapest of four forms. Decoding walks every
 * entry once, which checks the whole page, and keeps every {@code interval}-th key whole in an
 * array with the offset where its entry ends, so a lookup binary-searches those keys without
 * touching the page's bytes and then decodes at most one run of {@code interval - 1} entries in
 * place; a scan decodes each following entry into the ids it holds and rewrites only the ids that
 * changed in the scan's key buffer. The page itself holds no restart keys or offsets: on BSBM's
 * statement trees, full keys and offsets every 8 entries took about 2.2 bytes a statement, as much
 * as a whole entry of the posc order, while the walk at decode costs a few microseconds a page.
 *
 * <p>Values are empty unless the page's flags say entries carry them; then each key is followed
 * by the value tag and the value, as in {@link LeafPage}. Immutable; safe to share between threads.
 */
final class IdTupleLeafPage implements LeafNode, Page {
    private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final long address;
    private final int checksum;
    private final byte[] bytes;
    private final int count;
    private final int width;
    private final int interval;
    private final boolean hasValues;
    /** The ids of every {@code interval}-th key, {@code width} per key. */
    private final long[] restartIds;
    /** Offset just past the key part of every {@code interval}-th entry (its value tag, or the next entry). */
    private final int[] restartEnds;

    private IdTupleLeafPage(long address, int checksum, byte[] bytes) {
        this.address = address;
        this.checksum = checksum;
        this.bytes = bytes;
        this.width = bytes[1];
        int flags = bytes[2] & 0xff;
        this.interval = bytes[3] & 0xff;
        this.count = readInt(bytes, 4);
        if (width < 1 || width > IdTupleCoding.MAX_WIDTH || (flags & ~IdTupleCoding.FLAG_VALUES) != 0 || interval == 0
                || count < 1 || count > bytes.length) {
            throw new IllegalStateException("id-tuple leaf header is inconsistent: width " + width + ", flags " + flags
                    + ", restart interval " + interval + ", " + count + " entries in " + bytes.length + " bytes");
        }
        this.hasValues = (flags & IdTupleCoding.FLAG_VALUES) != 0;
        int restarts = (count + interval - 1) / interval;
        this.restartIds = new long[restarts * width];
        this.restartEnds = new int[restarts];
        long[] ids = new long[width];
        int p = IdTupleCoding.HEADER_BYTES;
        for (int e = 0; e < count; e++) {
            p = next(e == 0 ? IdTupleCoding.readFirst(bytes, p, ids) : IdTupleCoding.readNext(bytes, p, ids));
            if (e % interval == 0) {
                System.arraycopy(ids, 0, restartIds, e / interval * width, width);
                restartEnds[e / interval] = p;
            }
            if (hasValues) {
                long tag = readVarint(bytes, p);
                p = entryEnd(next(tag), value(tag));
            }
            if (p > bytes.length) {
                throw new IllegalStateException("entry " + e + " runs past the end of the page");
            }
        }
        if (p != bytes.length) {
            throw new IllegalStateException("entries end at " + p + " but the page has " + bytes.length + " bytes");
        }
    }

    /** Decodes and checks an id-tuple leaf; {@code IllegalStateException} if it is malformed. */
    static IdTupleLeafPage decode(long address, int checksum, byte[] bytes) {
        if (bytes.length < IdTupleCoding.HEADER_BYTES || bytes[0] != ID_TUPLE_LEAF) {
            throw new IllegalStateException("not an id-tuple leaf page");
        }
        try {
            return new IdTupleLeafPage(address, checksum, bytes);
        } catch (ArrayIndexOutOfBoundsException e) {
            throw new IllegalStateException("an entry runs past the end of the page", e);
        }
    }

    @Override
    public long address() {
        return address;
    }

    @Override
    public int checksum() {
        return checksum;
    }

    @Override
    public int weight() {
        return 112 + bytes.length + 8 * restartIds.length + 4 * restartEnds.length;
    }

    byte[] encoded() {
        return bytes;
    }

    @Override
    public int size() {
        return count;
    }

    @Override
    public int runLength() {
        return interval;
    }

    /**
     * Compares the key {@code ids[off, off + width)} with a search key given as its first {@code width}
     * eight-byte words zero-padded ({@link PageFormat#head}) in {@code k}: the first {@code compared} words
     * decide, and when they are equal the answer is {@code tie} ({@link #tie}). The key's length is folded
     * into those two numbers once per search, so the loop holds no branch on it and its JIT profile holds
     * for keys of every length.
     */
    private static int compare(long[] ids, int off, long[] k, int compared, int tie) {
        for (int i = 0; i < compared; i++) {
            int c = Long.compareUnsigned(ids[off + i], k[i]);
            if (c != 0) {
                return c;
            }
        }
        return tie;
    }

    /** The words of a search key of {@code length} bytes that a comparison reads: those it has begun. */
    private int compared(int length) {
        return Math.min(width, (length + 7) / 8);
    }

    /**
     * The comparison of a key with a search key of {@code length} bytes whose words read are equal to the
     * key's: the key sorts after a shorter search key (a prefix, also one ending inside an id), before a
     * longer one, and equals one of its own length.
     */
    private int tie(int length) {
        return length < 8 * width ? 1 : length == 8 * width ? 0 : -1;
    }

    @Override
    public int search(byte[] key) {
        return locate(key, null);
    }

    @Override
    public int scanCeiling(byte[] key, LeafScan scan) {
        int found = locate(key, scan);
        return found >= 0 ? found : -found - 1;
    }

    /**
     * The result of {@link #search}; if {@code scan} is not null, also puts it on the first entry
     * whose key is {@code >= key}, when there is one.
     */
    private int locate(byte[] key, LeafScan scan) {
        // the key's words zero-padded: the whole ones in a loop without a branch on the key's length, then a
        // partial one, so the JIT's profile of full-length keys holds for prefixes too
        long[] k = new long[width];
        int whole = Math.min(width, key.length / 8);
        for (int i = 0; i < whole; i++) {
            k[i] = PageFormat.readLong(key, 8 * i);
        }
        if (whole < width && key.length > 8 * whole) {
            k[whole] = PageFormat.head(key, 0, key.length, 8 * whole);
        }
        int compared = compared(key.length);
        int tie = tie(key.length);
        int lo = 0;
        int hi = restartEnds.length - 1;
        int block = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = compare(restartIds, mid * width, k, compared, tie);
            if (c == 0) {
                if (scan != null) {
                    scanTo(mid * interval, scan);
                }
                return mid * interval;
            } else if (c < 0) {
                block = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (block < 0) {
            if (scan != null) {
                scanTo(0, scan);
            }
            return -1;
        }
        long[] ids = scan != null ? scan.ids(width) : new long[width];
        System.arraycopy(restartIds, block * width, ids, 0, width);
        int e = block * interval;
        int end = Math.min(e + interval, count);
        int p = skipValue(restartEnds[block]);
        for (e++; e < end; e++) {
            long packed = IdTupleCoding.readNext(bytes, p, ids);
            int c = compare(ids, 0, k, compared, tie);
            if (c >= 0) {
                if (scan != null) {
                    land(scan, e, next(packed), 0);
                }
                return c == 0 ? e : -e - 1;
            }
            p = skipValue(next(packed));
        }
        if (scan != null && end < count) {
            scanTo(end, scan);
        }
        return -end - 1;
    }

    private int skipValue(int p) {
        if (!hasValues) {
            return p;
        }
        long tag = readVarint(bytes, p);
        return entryEnd(next(tag), value(tag));
    }

    /**
     * Completes {@code scan} on entry {@code index}, whose ids are in {@code scan.ids} and whose key
     * part ends at {@code keyEnd}: rewrites the key bytes from id {@code changedFrom} on and reads
     * where the value and the next entry are.
     */
    private void land(LeafScan scan, int index, int keyEnd, int changedFrom) {
        byte[] buf = scan.ensureCapacity(8 * width);
        long[] ids = scan.ids;
        for (int i = changedFrom; i < width; i++) {
            LONG_BE.set(buf, 8 * i, ids[i]);
        }
        scan.keyLength = 8 * width;
        scan.index = index;
        if (hasValues) {
            long tag = readVarint(bytes, keyEnd);
            scan.valueStart = next(tag);
            scan.tag = value(tag);
            scan.next = entryEnd(scan.valueStart, scan.tag);
        } else {
            scan.valueStart = keyEnd;
            scan.tag = 0;
            scan.next = keyEnd;
        }
    }

    @Override
    public void scanTo(int index, LeafScan scan) {
        checkIndex(index);
        int r = index / interval;
        long[] ids = scan.ids(width);
        System.arraycopy(restartIds, r * width, ids, 0, width);
        land(scan, r * interval, restartEnds[r], 0);
        for (int e = r * interval + 1; e <= index; e++) {
            long packed = IdTupleCoding.readNext(bytes, scan.next, ids);
            land(scan, e, next(packed), value(packed));
        }
    }

    @Override
    public void scanNext(LeafScan scan) {
        checkIndex(scan.index + 1);
        long packed = IdTupleCoding.readNext(bytes, scan.next, scan.ids);
        land(scan, scan.index + 1, next(packed), value(packed));
    }

    /** Decodes straight into {@code out}; the scan's key bytes are rebuilt once, for the last entry. */
    @Override
    public void scanNextIds(LeafScan scan, int keyWidth, long[] out, int off, int n) {
        if (keyWidth != width) {
            LeafNode.super.scanNextIds(scan, keyWidth, out, off, n);
            return;
        }
        if (n <= 0) {
            return;
        }
        checkIndex(scan.index + n);
        long[] ids = scan.ids;
        int p = scan.next;
        int keyEnd = p;
        if (width == 4 && !hasValues) {
            // statement keys: four stores instead of a copy of a length the compiler does not know
            for (int e = 0; e < n; e++, off += 4) {
                p = next(IdTupleCoding.readNext(bytes, p, ids));
                out[off] = ids[0];
                out[off + 1] = ids[1];
                out[off + 2] = ids[2];
                out[off + 3] = ids[3];
            }
            land(scan, scan.index + n, p, 0);
            return;
        }
        for (int e = 0; e < n; e++) {
            keyEnd = next(IdTupleCoding.readNext(bytes, p, ids));
            p = skipValue(keyEnd);
            System.arraycopy(ids, 0, out, off, width);
            off += width;
        }
        land(scan, scan.index + n, keyEnd, 0);
    }

    /**
     * Decodes each entry's ids straight into the columns, checking the prefix on the first id that
     * changed ({@link IdTupleCoding#readNext} gives it): an entry whose first change lies within the
     * first {@code keep} ids has left the prefix. The scan's key bytes are rebuilt once, for the last entry.
     */
    @Override
    public int scanNextColumns(LeafScan scan, int keyWidth, long[][] cols, int off, int n, int keep) {
        if (keyWidth != width) {
            return LeafNode.super.scanNextColumns(scan, keyWidth, cols, off, n, keep);
        }
        if (n <= 0) {
            return 0;
        }
        checkIndex(scan.index + n);
        long[] ids = scan.ids;
        int p = scan.next;
        if (width == 4 && !hasValues) {
            // statement keys: a store per wanted column, the columns held in locals
            long[] c0 = cols[0];
            long[] c1 = cols[1];
            long[] c2 = cols[2];
            long[] c3 = cols[3];
            for (int e = 0; e < n; e++) {
                long packed = IdTupleCoding.readNext(bytes, p, ids);
                if (value(packed) < keep) {
                    return e;
                }
                p = next(packed);
                int at = off + e;
                if (c0 != null) {
                    c0[at] = ids[0];
                }
                if (c1 != null) {
                    c1[at] = ids[1];
                }
                if (c2 != null) {
                    c2[at] = ids[2];
                }
                if (c3 != null) {
                    c3[at] = ids[3];
                }
            }
            land(scan, scan.index + n, p, 0);
            return n;
        }
        int keyEnd = p;
        for (int e = 0; e < n; e++) {
            long packed = IdTupleCoding.readNext(bytes, p, ids);
            if (value(packed) < keep) {
                return e;
            }
            keyEnd = next(packed);
            p = skipValue(keyEnd);
            for (int i = 0; i < width; i++) {
                if (cols[i] != null) {
                    cols[i][off + e] = ids[i];
                }
            }
        }
        land(scan, scan.index + n, keyEnd, 0);
        return n;
    }

    @Override
    public Object scanValue(LeafScan scan) {
        return PageFormat.storedValue(bytes, scan.valueStart, scan.tag);
    }

    @Override
    public byte[] keyAt(int index) {
        LeafScan scan = new LeafScan();
        scanTo(index, scan);
        return Arrays.copyOf(scan.key, scan.keyLength);
    }

    @Override
    public Object valueAt(int index) {
        LeafScan scan = new LeafScan();
        scanTo(index, scan);
        return scanValue(scan);
    }

    @Override
    public void decodeRun(int first, int n, byte[][] keys, Object[] values) {
        LeafScan scan = new LeafScan();
        for (int j = 0; j < n; j++) {
            if (j == 0) {
                scanTo(first, scan);
            } else {
                scanNext(scan);
            }
            keys[j] = Arrays.copyOf(scan.key, scan.keyLength);
            values[j] = scanValue(scan);
        }
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= count) {
            throw new IndexOutOfBoundsException("entry " + index + " of a leaf with " + count);
        }
    }
}
