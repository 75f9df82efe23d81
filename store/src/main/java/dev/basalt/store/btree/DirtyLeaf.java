package dev.basalt.store.btree;

import java.util.Arrays;

/**
 * A leaf the writer is changing: keys and values in sorted parallel arrays. Keys and inline values
 * are private copies the tree owns; they are handed to users only as copies.
 * Not thread-safe: only the thread writing its tree touches it (see {@link DirtyNode}).
 */
final class DirtyLeaf extends DirtyNode implements LeafNode {
    private static final int RUN = 32;
    private static final int ENTRY_OVERHEAD = 4;

    private byte[][] keys;
    private Object[] values;
    private int n;
    private long bytes;

    DirtyLeaf(int capacity) {
        keys = new byte[Math.max(4, capacity)][];
        values = new Object[keys.length];
    }

    static DirtyLeaf copyOf(LeafNode page, int capacity) {
        int size = page.size();
        DirtyLeaf leaf = new DirtyLeaf(Math.max(capacity, size + 1));
        int run = page.runLength();
        byte[][] runKeys = new byte[run][];
        Object[] runValues = new Object[run];
        for (int first = 0; first < size; first += run) {
            int len = Math.min(run, size - first);
            page.decodeRun(first, len, runKeys, runValues);
            for (int j = 0; j < len; j++) {
                leaf.append(runKeys[j], runValues[j]);
            }
        }
        return leaf;
    }

    static long entryBytes(byte[] key, Object value) {
        return key.length + ENTRY_OVERHEAD
                + (value instanceof byte[] b ? b.length : PageFormat.LARGE_REF_BYTES);
    }

    @Override
    Node asNode() {
        return this;
    }

    @Override
    public int size() {
        return n;
    }

    @Override
    int width() {
        return n;
    }

    @Override
    long entryCount() {
        return n;
    }

    @Override
    long estimatedBytes() {
        return PageFormat.LEAF_HEADER_BYTES + bytes;
    }

    @Override
    long slotBytes(int index) {
        return entryBytes(keys[index], values[index]);
    }

    @Override
    boolean isWritable() {
        return true;
    }

    @Override
    public int search(byte[] key) {
        int lo = 0;
        int hi = n - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = Arrays.compareUnsigned(keys[mid], key);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -lo - 1;
    }

    @Override
    public byte[] keyAt(int index) {
        return keys[index];
    }

    @Override
    public Object valueAt(int index) {
        return values[index];
    }

    @Override
    public int runLength() {
        return RUN;
    }

    @Override
    public void decodeRun(int first, int count, byte[][] outKeys, Object[] outValues) {
        for (int j = 0; j < count; j++) {
            outKeys[j] = keys[first + j].clone();
            Object v = values[first + j];
            outValues[j] = v instanceof byte[] b ? b.clone() : v;
        }
    }

    @Override
    public void scanTo(int index, LeafScan scan) {
        scan.index = index;
        scan.setKey(keys[index]);
    }

    @Override
    public int scanCeiling(byte[] key, LeafScan scan) {
        int found = search(key);
        int index = found >= 0 ? found : -found - 1;
        if (index < n) {
            scanTo(index, scan);
        }
        return index;
    }

    @Override
    public void scanNext(LeafScan scan) {
        scanTo(scan.index + 1, scan);
    }

    @Override
    public Object scanValue(LeafScan scan) {
        Object v = values[scan.index];
        return v instanceof byte[] b ? b.clone() : v;
    }

    byte[] firstKey() {
        return keys[0];
    }

    byte[] lastKey() {
        return keys[n - 1];
    }

    /** Appends an entry whose key is greater than every key here (bulk build, merges). */
    void append(byte[] key, Object value) {
        insert(n, key, value);
    }

    void insert(int pos, byte[] key, Object value) {
        if (n == keys.length) {
            keys = Arrays.copyOf(keys, n * 2);
            values = Arrays.copyOf(values, n * 2);
        }
        System.arraycopy(keys, pos, keys, pos + 1, n - pos);
        System.arraycopy(values, pos, values, pos + 1, n - pos);
        keys[pos] = key;
        values[pos] = value;
        n++;
        bytes += entryBytes(key, value);
    }

    /** Replaces the value at {@code pos} and returns the old one. */
    Object setValue(int pos, Object value) {
        Object old = values[pos];
        bytes += entryBytes(keys[pos], value) - entryBytes(keys[pos], old);
        values[pos] = value;
        return old;
    }

    /** Removes the entry at {@code pos} and returns its value. */
    Object removeAt(int pos) {
        Object old = values[pos];
        bytes -= entryBytes(keys[pos], old);
        System.arraycopy(keys, pos + 1, keys, pos, n - pos - 1);
        System.arraycopy(values, pos + 1, values, pos, n - pos - 1);
        n--;
        keys[n] = null;
        values[n] = null;
        return old;
    }

    /** Moves entries {@code [at, size)} into a new right sibling; the separator is the shortest key between the halves. */
    Split splitOff(int at) {
        DirtyLeaf right = new DirtyLeaf(keys.length);
        for (int i = at; i < n; i++) {
            right.append(keys[i], values[i]);
            bytes -= entryBytes(keys[i], values[i]);
            keys[i] = null;
            values[i] = null;
        }
        n = at;
        return new Split(PageFormat.shortestSeparator(lastKey(), right.firstKey()), right);
    }

    /** Appends every entry of {@code right}, whose keys all follow this leaf's. */
    void absorb(DirtyLeaf right) {
        for (int i = 0; i < right.n; i++) {
            append(right.keys[i], right.values[i]);
        }
    }

    /**
     * Codes this leaf as the tree's configuration asks: as an id-tuple leaf if the tree's keys are
     * id tuples and every key here has that width, else front-coded (a key of another length in
     * such a tree is legal, and its page simply stays generic).
     */
    byte[] encode(BTreeConfig config) {
        int sizeHint = (int) Math.min(Integer.MAX_VALUE, estimatedBytes());
        if (config.idTupleWidth() > 0 && IdTupleCoding.fits(keys, n, config.idTupleWidth())) {
            return IdTupleCoding.encode(keys, values, n, config.idTupleWidth(), config.restartInterval(), sizeHint / 4);
        }
        return LeafPage.encode(keys, values, n, config.restartInterval(), sizeHint);
    }
}
