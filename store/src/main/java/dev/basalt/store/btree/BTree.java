package dev.basalt.store.btree;

import dev.basalt.store.journal.RecordStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * A copy-on-write, counted B+tree of unsigned byte-string keys and byte-string values, stored as
 * immutable records of a {@link RecordStore}.
 *
 * <p><b>Copy-on-write.</b> A committed page is never changed: the writer copies it into a dirty
 * in-memory page and releases the old record, so every {@link BTreeCheckpoint} stays a consistent
 * snapshot. Dirty pages wait in a write-retention queue and are coded and written when they leave
 * it or at {@link #checkpoint()}, so a hot page is written once per commit. Every stored reference
 * (child pointer, large value, checkpoint root) carries the record's address and CRC32C.
 *
 * <p><b>Counted.</b> Internal pages keep the exact number of entries under each child, so
 * {@link #rank}, {@link #rangeCount} and {@link #entryAt} take one root-to-leaf descent.
 *
 * <p><b>Threads.</b> A writable tree ({@link #create}, {@link #open}) belongs to exactly one
 * thread at a time, which does all reads and writes on it. A read-only view
 * ({@link #openReadOnly}) of a committed checkpoint sees only immutable records and can be used by
 * any number of threads at once, concurrently with the writer, without locks, as long as the store
 * keeps the checkpoint's records (the journal defers frees while a reader pins the commit point).
 */
public final class BTree {
    private static final Logger LOG = LoggerFactory.getLogger(BTree.class);

    private final BTreeConfig config;
    private final PageIO io;
    private final TreeWriter writer;

    // The root is a dirty page (rootDirty), a clean record (rootAddress), or absent (empty tree).
    DirtyNode rootDirty;
    long rootAddress;
    int rootChecksum;
    long size;
    int height;
    private int modCount;
    private Node readOnlyRoot;

    private BTree(RecordStore store, BTreeCheckpoint checkpoint, BTreeConfig config, PageCache cache, boolean writable) {
        this.config = Objects.requireNonNull(config, "config");
        this.io = new PageIO(Objects.requireNonNull(store, "store"), cache, config.compressPages());
        resetTo(Objects.requireNonNull(checkpoint, "checkpoint"));
        this.writer = writable ? new TreeWriter(this, config, io, checkpoint) : null;
    }

    /** A new, empty, writable tree. */
    public static BTree create(RecordStore store, BTreeConfig config, PageCache cache) {
        return new BTree(store, BTreeCheckpoint.EMPTY, config, cache, true);
    }

    /** A writable tree that continues from {@code checkpoint}. */
    public static BTree open(RecordStore store, BTreeCheckpoint checkpoint, BTreeConfig config, PageCache cache) {
        return new BTree(store, checkpoint, config, cache, true);
    }

    /** A read-only view of {@code checkpoint}, safe for concurrent use by many threads. */
    public static BTree openReadOnly(RecordStore store, BTreeCheckpoint checkpoint, BTreeConfig config, PageCache cache) {
        return new BTree(store, checkpoint, config, cache, false);
    }

    /**
     * Builds a tree bottom-up from entries in strictly ascending key order into full pages and
     * returns its checkpoint; faster and denser than inserting one by one. On unsorted or duplicate
     * input it frees what it wrote and throws {@link IllegalArgumentException}. Keys and values are
     * copied as they are read, so the iterator may fill the same arrays again for its next entry.
     */
    public static BTreeCheckpoint bulkBuild(RecordStore store, BTreeConfig config,
                                            Iterator<? extends Map.Entry<byte[], byte[]>> sortedEntries) {
        return new BulkBuilder(new PageIO(store, null, config.compressPages()), config).build(sortedEntries);
    }

    /**
     * Fills this writable, empty tree from entries in strictly ascending key order, written
     * bottom-up into full pages as {@link #bulkBuild} does; the pages become part of the current
     * transaction (the next {@link #checkpoint()} keeps them, {@link #abandon()} frees them).
     *
     * @throws IllegalStateException    if the tree is not empty
     * @throws IllegalArgumentException on unsorted or duplicate input; the tree is then still empty
     */
    public void bulkLoad(Iterator<? extends Map.Entry<byte[], byte[]>> sortedEntries) {
        writer().bulkLoad(Objects.requireNonNull(sortedEntries, "sortedEntries"));
        modCount++;
    }

    /**
     * Adds entries in strictly ascending key order, none of whose keys the tree holds, by building
     * the whole tree again bottom-up into full pages from the merge of its entries with them, and
     * releasing its old pages: one sequential pass over the tree instead of a descent (and now and
     * then a split that leaves two half-full pages) per entry. Worth it when the entries are many
     * beside the tree. The pages become part of the current transaction as {@link #bulkLoad}'s do.
     *
     * @throws IllegalArgumentException if the merge is not strictly ascending (an entry's key is in
     *                                  the tree, or the entries are unsorted); the tree is then unchanged
     */
    public void bulkMerge(Iterator<? extends Map.Entry<byte[], byte[]>> sortedEntries) {
        writer().mergeBottomUp(Objects.requireNonNull(sortedEntries, "sortedEntries"));
        modCount++;
    }

    /** Frees every record of the tree at {@code checkpoint} (pages and large values). */
    public static void destroy(RecordStore store, BTreeCheckpoint checkpoint, PageCache cache) {
        TreeWalker.destroy(new PageIO(store, cache), checkpoint);
    }

    void resetTo(BTreeCheckpoint checkpoint) {
        rootDirty = null;
        readOnlyRoot = null;
        rootAddress = checkpoint.rootAddress();
        rootChecksum = checkpoint.rootChecksum();
        size = checkpoint.entryCount();
        height = checkpoint.height();
        modCount++;
    }

    public BTreeConfig config() {
        return config;
    }

    public boolean isReadOnly() {
        return writer == null;
    }

    /** Number of entries, O(1). */
    public long size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** Levels from root to leaves; 0 for the empty tree. */
    public int height() {
        return height;
    }

    /** Dirty pages held in memory now (0 for read-only views). */
    public int dirtyPages() {
        return writer == null ? 0 : writer.dirtyPages();
    }

    int modCount() {
        return modCount;
    }

    PageIO io() {
        return io;
    }

    Node root() {
        if (rootDirty != null) {
            return rootDirty.asNode();
        }
        if (rootAddress == RecordStore.NULL) {
            return null;
        }
        if (writer != null) {
            return io.load(rootAddress, rootChecksum);
        }
        // A read-only view's root never changes, so the view keeps it: one page per open view,
        // and every seek skips a cache lookup. Pages are immutable with final fields, so a racy
        // first load by two threads is harmless.
        Node root = readOnlyRoot;
        if (root == null) {
            root = io.load(rootAddress, rootChecksum);
            readOnlyRoot = root;
        }
        return root;
    }

    Node child(InternalNode parent, int index) {
        if (parent instanceof InternalPage page) {
            InternalNode held = page.heldChild(index);
            if (held != null) {
                return held;
            }
            Node child = io.loadChild(page, index);
            if (child instanceof InternalPage internal) {
                page.holdChild(index, internal);
            }
            return child;
        }
        DirtyNode dirty = parent.dirtyChild(index);
        return dirty != null ? dirty.asNode() : io.load(parent.childAddress(index), parent.childChecksum(index));
    }

    /** A copy of a stored value the caller owns; reads large values from the store. */
    byte[] materialize(Object stored) {
        return stored instanceof LargeValue large ? io.readLargeValue(large) : ((byte[]) stored).clone();
    }

    private Object findStored(byte[] key) {
        Node node = root();
        while (node instanceof InternalNode in) {
            node = child(in, in.childIndex(key));
        }
        if (node == null) {
            return null;
        }
        LeafNode leaf = (LeafNode) node;
        int pos = leaf.search(key);
        return pos >= 0 ? leaf.valueAt(pos) : null;
    }

    /** The value of {@code key}, or null. */
    public byte[] get(byte[] key) {
        Object stored = findStored(Objects.requireNonNull(key, "key"));
        return stored == null ? null : materialize(stored);
    }

    public boolean containsKey(byte[] key) {
        return findStored(Objects.requireNonNull(key, "key")) != null;
    }

    /** Number of keys strictly below {@code key}. */
    public long rank(byte[] key) {
        Objects.requireNonNull(key, "key");
        long rank = 0;
        Node node = root();
        while (node instanceof InternalNode in) {
            int i = in.childIndex(key);
            for (int j = 0; j < i; j++) {
                rank += in.childEntries(j);
            }
            node = child(in, i);
        }
        if (node == null) {
            return 0;
        }
        int pos = ((LeafNode) node).search(key);
        return rank + (pos >= 0 ? pos : -pos - 1);
    }

    /** Exact number of keys in {@code [fromInclusive, toExclusive)}; a null bound is unbounded. */
    public long rangeCount(byte[] fromInclusive, byte[] toExclusive) {
        if (fromInclusive != null && toExclusive != null && Arrays.compareUnsigned(fromInclusive, toExclusive) >= 0) {
            return 0;
        }
        long hi = toExclusive == null ? size : rank(toExclusive);
        long lo = fromInclusive == null ? 0 : rank(fromInclusive);
        return hi - lo;
    }

    /** The entry at position {@code index} in key order (0-based); key and value are copies. */
    public Map.Entry<byte[], byte[]> entryAt(long index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("entry " + index + " of a tree with " + size);
        }
        long rest = index;
        Node node = root();
        while (node instanceof InternalNode in) {
            int i = 0;
            while (rest >= in.childEntries(i)) {
                rest -= in.childEntries(i);
                i++;
            }
            node = child(in, i);
        }
        LeafNode leaf = (LeafNode) node;
        int pos = (int) rest;
        return new AbstractMap.SimpleImmutableEntry<>(leaf.keyAt(pos).clone(), materialize(leaf.valueAt(pos)));
    }

    /** Ascending cursor over keys in {@code [fromInclusive, toExclusive)}; null bounds are open. */
    public BTreeCursor cursor(byte[] fromInclusive, byte[] toExclusive) {
        return new BTreeCursor(this, copy(fromInclusive), copy(toExclusive), null, false);
    }

    /** Descending cursor over keys in {@code [fromInclusive, toExclusive)}, largest first. */
    public BTreeCursor descendingCursor(byte[] fromInclusive, byte[] toExclusive) {
        return new BTreeCursor(this, copy(fromInclusive), copy(toExclusive), null, true);
    }

    /**
     * Ascending cursor over the keys that start with {@code prefix} (all keys if it is empty). The
     * cursor keeps the array itself, not a copy: the caller must not change it while the cursor is
     * in use. Made for callers that build the prefix for this one scan.
     */
    public BTreeCursor prefixCursor(byte[] prefix) {
        Objects.requireNonNull(prefix, "prefix");
        return new BTreeCursor(this, prefix, null, prefix, false);
    }

    private static byte[] copy(byte[] bound) {
        return bound == null ? null : bound.clone();
    }

    private TreeWriter writer() {
        if (writer == null) {
            throw new UnsupportedOperationException("this B+tree is a read-only view of a checkpoint");
        }
        return writer;
    }

    private static void checkKey(byte[] key) {
        Objects.requireNonNull(key, "key");
        if (key.length > BTreeConfig.MAX_KEY_BYTES) {
            throw new IllegalArgumentException("key of " + key.length + " bytes exceeds the limit of "
                    + BTreeConfig.MAX_KEY_BYTES + "; store a hash of it instead");
        }
    }

    /** Stores {@code value} under {@code key}; returns the previous value or null. */
    public byte[] put(byte[] key, byte[] value) {
        TreeWriter w = writer();
        checkKey(key);
        Objects.requireNonNull(value, "value");
        Object stored;
        if (value.length > config.inlineValueThreshold()) {
            LargeValue large = io.writeLargeValue(value);
            w.ledger().written(large.address());
            stored = large;
        } else {
            stored = value.clone();
        }
        Object old = w.put(key.clone(), stored);
        if (old == null) {
            size++;
        }
        modCount++;
        byte[] previous = old == null ? null : materializeAndRelease(w, old);
        w.evictOverCapacity();
        return previous;
    }

    /** Removes {@code key}; returns its value or null if it was absent (then nothing is written). */
    public byte[] remove(byte[] key) {
        TreeWriter w = writer();
        Objects.requireNonNull(key, "key");
        if (findStored(key) == null) {
            return null;
        }
        Object old = w.remove(key);
        size--;
        modCount++;
        byte[] previous = materializeAndRelease(w, old);
        w.evictOverCapacity();
        return previous;
    }

    private byte[] materializeAndRelease(TreeWriter w, Object stored) {
        if (stored instanceof LargeValue large) {
            byte[] value = io.readLargeValue(large);
            w.ledger().release(large.address());
            return value;
        }
        return (byte[]) stored;
    }

    /**
     * Writes every dirty page bottom-up, frees the records the last checkpoint used and this one
     * does not, and returns the new checkpoint. The tree stays writable for the next transaction.
     */
    public BTreeCheckpoint checkpoint() {
        TreeWriter w = writer();
        int dirty = w.dirtyPages();
        BTreeCheckpoint checkpoint = w.checkpoint();
        modCount++;
        LOG.debug("checkpoint wrote {} dirty pages: {}", dirty, checkpoint);
        return checkpoint;
    }

    /** The checkpoint this tree was opened at or last produced. */
    public BTreeCheckpoint lastCheckpoint() {
        return writer == null ? new BTreeCheckpoint(rootAddress, rootChecksum, size, height) : writer.lastCheckpoint();
    }

    /**
     * Gives up the current transaction: frees every record it wrote (pages evicted from the
     * retention queue, large values) and returns the tree to {@link #lastCheckpoint()}.
     */
    public void abandon() {
        writer().abandon();
    }

    /** Removes every entry and releases every record; takes effect on disk at the next checkpoint. */
    public void clear() {
        writer().clear();
        modCount++;
    }

    /**
     * Walks every reachable page, reading clean ones through the store so each checksum is checked,
     * and checks the tree's invariants.
     *
     * @throws dev.basalt.store.journal.CorruptRecordException naming the address of a bad record
     * @throws IllegalStateException                          for a fault in a dirty in-memory page
     */
    public BTreeStats verify() {
        return TreeWalker.verify(this, io);
    }

    /** Calls {@code action} with the address of every record reachable from the tree (clean pages and large values). */
    public void forEachRecord(LongConsumer action) {
        Node root = root();
        if (root != null) {
            TreeWalker.walk(io, root, rootDirty != null ? RecordStore.NULL : rootAddress, action);
        }
    }

    /**
     * Names, in ascending order, the keys to put again (each with its own value) so that no page or
     * large value of this tree stays at an address {@code moves} accepts (online compaction): one
     * key under every such page, and the key of every such large value. Returns the records found.
     */
    public long relocationKeys(java.util.function.LongPredicate moves, java.util.function.Consumer<byte[]> keys) {
        TreeRelocation r = TreeRelocation.walk(this, moves, keys);
        return r.pagesAbove + r.largeValuesAbove;
    }

    /**
     * Names, in ascending order, one key in the key range of every page at {@code height} (2 =
     * the parents of leaves, up to {@link #height()} = the root), for {@link #repack}; nothing for
     * other heights.
     */
    public void repackKeys(int height, java.util.function.Consumer<byte[]> keys) {
        TreeRepack.pageKeys(this, height, Objects.requireNonNull(keys, "keys"));
    }

    /**
     * Rewrites the children of the page at {@code height} whose key range holds {@code key} into
     * as few pages as {@link #bulkBuild} would use for the same entries (online compaction), when
     * that saves at least one page in {@value TreeRepack#MIN_SAVING_SHARE}; returns the pages
     * saved (0: nothing changed). The entries are unchanged; the old pages are released like every
     * copy-on-write change, so snapshots stay valid.
     */
    public int repack(byte[] key, int height) {
        TreeWriter w = writer();
        int saved = w.repack(Objects.requireNonNull(key, "key"), height);
        if (saved > 0) {
            modCount++;
            w.evictOverCapacity();
        }
        return saved;
    }

    @Override
    public String toString() {
        return "BTree[" + (writer == null ? "read-only" : "writable") + ", " + size + " entries, height " + height + "]";
    }
}
