package dev.basalt.store.btree;

import dev.basalt.store.journal.RecordStore;

import java.util.Arrays;

/**
 * An internal page the writer is changing. Child {@code i} is either a clean record
 * ({@code addresses[i]}, {@code checksums[i]}) or an in-memory dirty page ({@code dirty[i]}, whose
 * {@link DirtyNode#parent} is this page); {@code counts[i]} is always the exact number of entries
 * under child {@code i}.
 *
 * <p>Not thread-safe: only the thread writing its tree touches it (see {@link DirtyNode}).
 */
final class DirtyInternal extends DirtyNode implements InternalNode {
    private static final int CHILD_BYTES = 22;

    private byte[][] separators;
    private long[] addresses;
    private int[] checksums;
    private long[] counts;
    private DirtyNode[] dirty;
    private int n;
    private long separatorBytes;

    DirtyInternal(int capacity) {
        int c = Math.max(4, capacity);
        separators = new byte[c][];
        addresses = new long[c];
        checksums = new int[c];
        counts = new long[c];
        dirty = new DirtyNode[c];
    }

    static DirtyInternal copyOf(InternalPage page, int capacity) {
        DirtyInternal copy = new DirtyInternal(Math.max(capacity, page.size() + 1));
        for (int i = 0; i < page.size(); i++) {
            copy.appendClean(i == 0 ? null : page.separator(i - 1), page.childAddress(i), page.childChecksum(i),
                    page.childEntries(i));
        }
        return copy;
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
        long total = 0;
        for (int i = 0; i < n; i++) {
            total += counts[i];
        }
        return total;
    }

    @Override
    long estimatedBytes() {
        return PageFormat.INTERNAL_HEADER_BYTES + (long) CHILD_BYTES * n + separatorBytes;
    }

    @Override
    long slotBytes(int index) {
        return CHILD_BYTES + (index == 0 ? 0 : separators[index - 1].length + 4);
    }

    @Override
    boolean isWritable() {
        for (int i = 0; i < n; i++) {
            if (dirty[i] != null) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int childIndex(byte[] key) {
        return InternalPage.upperBound(separators, n - 1, key);
    }

    @Override
    public byte[] separator(int index) {
        return separators[index];
    }

    @Override
    public long childEntries(int index) {
        return counts[index];
    }

    @Override
    public long childAddress(int index) {
        return addresses[index];
    }

    @Override
    public int childChecksum(int index) {
        return checksums[index];
    }

    @Override
    public DirtyNode dirtyChild(int index) {
        return dirty[index];
    }

    void addEntries(int index, long delta) {
        counts[index] += delta;
    }

    void setEntries(int index, long count) {
        counts[index] = count;
    }

    void setDirty(int index, DirtyNode child) {
        dirty[index] = child;
        addresses[index] = RecordStore.NULL;
        checksums[index] = 0;
        child.parent = this;
    }

    void setClean(int index, long address, int checksum) {
        dirty[index] = null;
        addresses[index] = address;
        checksums[index] = checksum;
    }

    int indexOf(DirtyNode child) {
        for (int i = 0; i < n; i++) {
            if (dirty[i] == child) {
                return i;
            }
        }
        throw new IllegalStateException("dirty page is not a child of its parent");
    }

    private void grow() {
        int c = separators.length * 2;
        separators = Arrays.copyOf(separators, c);
        addresses = Arrays.copyOf(addresses, c);
        checksums = Arrays.copyOf(checksums, c);
        counts = Arrays.copyOf(counts, c);
        dirty = Arrays.copyOf(dirty, c);
    }

    /** Appends a clean child; {@code separator} is the key before it, null for the first child. */
    void appendClean(byte[] separator, long address, int checksum, long count) {
        insertAt(n, separator, count);
        addresses[n - 1] = address;
        checksums[n - 1] = checksum;
    }

    /** Inserts a dirty child at {@code index >= 1} with {@code separator} as the key before it. */
    void insertDirty(int index, byte[] separator, DirtyNode child, long count) {
        insertAt(index, separator, count);
        setDirty(index, child);
    }

    private void insertAt(int index, byte[] separator, long count) {
        if (n == separators.length) {
            grow();
        }
        if (n > 0) {
            if (index == 0) {
                throw new IllegalArgumentException("a child is inserted before the first only into an empty page");
            }
            int si = index - 1;
            System.arraycopy(separators, si, separators, si + 1, n - 1 - si);
            separators[si] = separator;
            separatorBytes += separator.length + 4;
        }
        System.arraycopy(addresses, index, addresses, index + 1, n - index);
        System.arraycopy(checksums, index, checksums, index + 1, n - index);
        System.arraycopy(counts, index, counts, index + 1, n - index);
        System.arraycopy(dirty, index, dirty, index + 1, n - index);
        addresses[index] = RecordStore.NULL;
        checksums[index] = 0;
        counts[index] = count;
        dirty[index] = null;
        n++;
    }

    /** Removes child {@code index >= 1} and the separator before it. */
    void removeChild(int index) {
        separatorBytes -= separators[index - 1].length + 4;
        System.arraycopy(separators, index, separators, index - 1, n - 1 - index);
        System.arraycopy(addresses, index + 1, addresses, index, n - index - 1);
        System.arraycopy(checksums, index + 1, checksums, index, n - index - 1);
        System.arraycopy(counts, index + 1, counts, index, n - index - 1);
        System.arraycopy(dirty, index + 1, dirty, index, n - index - 1);
        n--;
        separators[n - 1] = null;
        dirty[n] = null;
    }

    /**
     * Makes {@code pages} the children of this page, in order, with {@code separators.get(i)}
     * before page {@code i + 1}; the caller has let go of the children this page had.
     */
    void replaceChildren(java.util.List<DirtyNode> pages, java.util.List<byte[]> separators) {
        Arrays.fill(this.separators, null);
        Arrays.fill(dirty, null);
        n = 0;
        separatorBytes = 0;
        for (int i = 0; i < pages.size(); i++) {
            DirtyNode page = pages.get(i);
            insertAt(i, i == 0 ? null : separators.get(i - 1), page.entryCount());
            setDirty(i, page);
        }
    }

    /** Moves children {@code [at, size)} into a new right sibling; the separator before child {@code at} moves up. */
    Split splitOff(int at) {
        DirtyInternal right = new DirtyInternal(separators.length);
        byte[] up = separators[at - 1];
        for (int i = at; i < n; i++) {
            right.insertAt(right.n, i == at ? null : separators[i - 1], counts[i]);
            if (dirty[i] != null) {
                right.setDirty(right.n - 1, dirty[i]);
            } else {
                right.setClean(right.n - 1, addresses[i], checksums[i]);
            }
        }
        for (int i = at - 1; i < n - 1; i++) {
            separatorBytes -= separators[i].length + 4;
            separators[i] = null;
        }
        Arrays.fill(dirty, at, n, null);
        n = at;
        return new Split(up, right);
    }

    /** Appends every child of {@code right}; {@code separator} lies between the two pages' keys. */
    void absorb(DirtyInternal right, byte[] separator) {
        for (int i = 0; i < right.n; i++) {
            insertAt(n, i == 0 ? separator : right.separators[i - 1], right.counts[i]);
            if (right.dirty[i] != null) {
                setDirty(n - 1, right.dirty[i]);
            } else {
                setClean(n - 1, right.addresses[i], right.checksums[i]);
            }
        }
    }

    byte[] encode() {
        if (!isWritable()) {
            throw new IllegalStateException("an internal page with dirty children cannot be coded");
        }
        return InternalPage.encode(separators, addresses, checksums, counts, n);
    }
}
