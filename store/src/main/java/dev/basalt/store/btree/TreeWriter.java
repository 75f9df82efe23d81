package dev.basalt.store.btree;

import dev.basalt.store.journal.RecordStore;

import java.util.Iterator;
import java.util.Map;

/**
 * The single writer's half of a {@link BTree}: copy-on-write of the path to a change, splits and
 * merges, the write-retention queue, checkpoints and abandoning a transaction.
 *
 * <p>Invariants between operations: every dirty page is in the queue and reachable from the root
 * through dirty pages; the counts in every internal page are exact; no page but the root is below
 * its minimum after a removal, and no page is over its maximum after an insertion unless it holds
 * a single oversized entry. Writer thread only.
 */
final class TreeWriter {
    private final BTree tree;
    private final BTreeConfig config;
    private final PageIO io;
    private final RecordLedger ledger;
    private final WriteRetentionQueue queue = new WriteRetentionQueue();
    private BTreeCheckpoint last;

    TreeWriter(BTree tree, BTreeConfig config, PageIO io, BTreeCheckpoint last) {
        this.tree = tree;
        this.config = config;
        this.io = io;
        this.ledger = new RecordLedger(io);
        this.last = last;
    }

    BTreeCheckpoint lastCheckpoint() {
        return last;
    }

    int dirtyPages() {
        return queue.size();
    }

    RecordLedger ledger() {
        return ledger;
    }

    private DirtyNode copyForWrite(long address, int checksum) {
        Node page = io.load(address, checksum);
        DirtyNode copy = page instanceof LeafNode leaf
                ? DirtyLeaf.copyOf(leaf, config.leafMaxEntries() + 1)
                : DirtyInternal.copyOf((InternalPage) page, config.internalMaxEntries() + 1);
        ledger.release(address);
        return copy;
    }

    private DirtyNode dirtyRoot() {
        if (tree.rootDirty == null) {
            tree.rootDirty = copyForWrite(tree.rootAddress, tree.rootChecksum);
            tree.rootAddress = RecordStore.NULL;
            tree.rootChecksum = 0;
        }
        queue.touch(tree.rootDirty);
        return tree.rootDirty;
    }

    private DirtyNode dirtyChild(DirtyInternal parent, int index) {
        DirtyNode child = parent.dirtyChild(index);
        if (child == null) {
            child = copyForWrite(parent.childAddress(index), parent.childChecksum(index));
            parent.setDirty(index, child);
        }
        queue.touch(child);
        return child;
    }

    /** Inserts or replaces; returns the replaced stored value or null. {@code key} is owned by the tree. */
    Object put(byte[] key, Object stored) {
        if (tree.height == 0) {
            DirtyLeaf leaf = new DirtyLeaf(config.leafMaxEntries() + 1);
            leaf.append(key, stored);
            tree.rootDirty = leaf;
            tree.height = 1;
            queue.touch(leaf);
            return null;
        }
        DirtyNode root = dirtyRoot();
        Object old = insert(root, key, stored);
        if (root.overflows(config)) {
            DirtyNode.Split split = split(root);
            DirtyInternal newRoot = new DirtyInternal(config.internalMaxEntries() + 1);
            newRoot.appendClean(null, RecordStore.NULL, 0, root.entryCount());
            newRoot.setDirty(0, root);
            newRoot.insertDirty(1, split.separator(), split.right(), split.right().entryCount());
            newRoot.parent = null;
            tree.rootDirty = newRoot;
            tree.height++;
            queue.touch(newRoot);
        }
        return old;
    }

    private DirtyNode.Split split(DirtyNode node) {
        DirtyNode.Split split = node.split(config);
        queue.touch(split.right());
        return split;
    }

    private Object insert(DirtyNode node, byte[] key, Object stored) {
        if (node instanceof DirtyLeaf leaf) {
            int pos = leaf.search(key);
            if (pos >= 0) {
                return leaf.setValue(pos, stored);
            }
            leaf.insert(-pos - 1, key, stored);
            return null;
        }
        DirtyInternal in = (DirtyInternal) node;
        int i = in.childIndex(key);
        DirtyNode child = dirtyChild(in, i);
        Object old = insert(child, key, stored);
        if (old == null) {
            in.addEntries(i, 1);
        }
        if (child.overflows(config)) {
            DirtyNode.Split split = split(child);
            long moved = split.right().entryCount();
            in.addEntries(i, -moved);
            in.insertDirty(i + 1, split.separator(), split.right(), moved);
        }
        return old;
    }

    /** Removes {@code key}, which the caller has found in the tree; returns its stored value. */
    Object remove(byte[] key) {
        Object old = delete(dirtyRoot(), key);
        shrinkRoot();
        return old;
    }

    private Object delete(DirtyNode node, byte[] key) {
        if (node instanceof DirtyLeaf leaf) {
            int pos = leaf.search(key);
            if (pos < 0) {
                throw new IllegalStateException("key to remove vanished from its leaf");
            }
            return leaf.removeAt(pos);
        }
        DirtyInternal in = (DirtyInternal) node;
        int i = in.childIndex(key);
        DirtyNode child = dirtyChild(in, i);
        Object old = delete(child, key);
        in.addEntries(i, -1);
        if (in.width() > 1 && child.underflows(config)) {
            rebalance(in, i);
        }
        return old;
    }

    /** Merges child {@code i} with a neighbour and splits the union again if it is too large. */
    private void rebalance(DirtyInternal parent, int i) {
        int l = i + 1 < parent.width() ? i : i - 1;
        DirtyNode left = dirtyChild(parent, l);
        DirtyNode right = dirtyChild(parent, l + 1);
        if (left instanceof DirtyLeaf leftLeaf) {
            leftLeaf.absorb((DirtyLeaf) right);
        } else {
            ((DirtyInternal) left).absorb((DirtyInternal) right, parent.separator(l));
        }
        queue.remove(right);
        right.parent = null;
        parent.removeChild(l + 1);
        if (left.overflows(config)) {
            DirtyNode.Split split = split(left);
            parent.insertDirty(l + 1, split.separator(), split.right(), split.right().entryCount());
        }
        parent.setEntries(l, left.entryCount());
    }

    /**
     * Repacks the children of the page at {@code height} (2 = a parent of leaves) whose key range
     * holds {@code key} into as few pages as a bottom-up build would use ({@link TreeRepack});
     * returns the pages saved, 0 when the page is absent or repacking would not save enough.
     * Copy-on-write: the path to the page is copied and its old children are released.
     */
    int repack(byte[] key, int height) {
        if (height < 2 || height > tree.height) {
            return 0;
        }
        Node node = tree.root();
        for (int h = tree.height; h > height; h--) {
            InternalNode in = (InternalNode) node;
            node = tree.child(in, in.childIndex(key));
        }
        TreeRepack.Cut cut = new TreeRepack(tree, config).cut((InternalNode) node);
        if (cut == null) {
            return 0;
        }
        DirtyNode root = dirtyRoot();
        replaceChildren(root, tree.height, key, height, cut);
        shrinkRoot();
        return cut.saved();
    }

    private void replaceChildren(DirtyNode node, int h, byte[] key, int height, TreeRepack.Cut cut) {
        DirtyInternal in = (DirtyInternal) node;
        if (h > height) {
            int i = in.childIndex(key);
            DirtyNode child = dirtyChild(in, i);
            replaceChildren(child, h - 1, key, height, cut);
            if (in.width() > 1 && child.underflows(config)) {
                rebalance(in, i);
            }
            return;
        }
        for (int i = 0; i < in.width(); i++) {
            DirtyNode old = in.dirtyChild(i);
            if (old != null) {
                queue.remove(old);
                old.parent = null;
            } else {
                ledger.release(in.childAddress(i));
            }
        }
        in.replaceChildren(cut.pages(), cut.separators());
        for (DirtyNode page : cut.pages()) {
            queue.touch(page);
        }
    }

    private void shrinkRoot() {
        while (true) {
            DirtyNode root = tree.rootDirty;
            if (root instanceof DirtyLeaf && root.width() == 0) {
                queue.remove(root);
                tree.rootDirty = null;
                tree.height = 0;
                return;
            }
            if (!(root instanceof DirtyInternal in) || in.width() != 1) {
                return;
            }
            queue.remove(in);
            tree.height--;
            DirtyNode child = in.dirtyChild(0);
            if (child == null) {
                tree.rootDirty = null;
                tree.rootAddress = in.childAddress(0);
                tree.rootChecksum = in.childChecksum(0);
                return;
            }
            child.parent = null;
            tree.rootDirty = child;
        }
    }

    /** Writes the eldest writable dirty pages until the queue is within its capacity. */
    void evictOverCapacity() {
        while (queue.size() > config.writeRetentionCapacity()) {
            DirtyNode victim = queue.eldestWritable();
            if (victim == null) {
                return;
            }
            write(victim);
        }
    }

    private void write(DirtyNode node) {
        byte[] encoded = node instanceof DirtyLeaf leaf
                ? leaf.encode(config)
                : ((DirtyInternal) node).encode();
        Page page = io.writePage(encoded);
        ledger.written(page.address());
        queue.remove(node);
        DirtyInternal parent = node.parent;
        if (parent == null) {
            tree.rootDirty = null;
            tree.rootAddress = page.address();
            tree.rootChecksum = page.checksum();
        } else {
            parent.setClean(parent.indexOf(node), page.address(), page.checksum());
            node.parent = null;
        }
    }

    private void writeSubtree(DirtyNode node) {
        if (node instanceof DirtyInternal in) {
            for (int i = 0; i < in.width(); i++) {
                DirtyNode child = in.dirtyChild(i);
                if (child != null) {
                    writeSubtree(child);
                }
            }
        }
        write(node);
    }

    BTreeCheckpoint checkpoint() {
        if (tree.rootDirty != null) {
            writeSubtree(tree.rootDirty);
        }
        ledger.commit();
        last = new BTreeCheckpoint(tree.rootAddress, tree.rootChecksum, tree.size, tree.height);
        return last;
    }

    /**
     * Fills the empty tree bottom-up from strictly ascending entries. The pages go straight to the
     * store (not through the page cache) and count as written by this transaction, so
     * {@link #abandon} frees them; records the transaction released earlier stay in the ledger.
     */
    void bulkLoad(Iterator<? extends Map.Entry<byte[], byte[]>> sortedEntries) {
        if (tree.size != 0) {
            throw new IllegalStateException("bulk load needs an empty tree; this one holds " + tree.size + " entries");
        }
        BulkBuilder builder = new BulkBuilder(new PageIO(io.store(), null, config.compressPages()), config);
        BTreeCheckpoint built = builder.build(sortedEntries);
        builder.forEachWritten(ledger::written);
        queue.clear();
        tree.rootDirty = null;
        tree.rootAddress = built.rootAddress();
        tree.rootChecksum = built.rootChecksum();
        tree.size = built.entryCount();
        tree.height = built.height();
    }

    /**
     * Builds the tree again bottom-up from the merge of its entries with {@code sortedEntries}
     * (strictly ascending, none of their keys in the tree), then releases the old pages; an empty
     * tree is simply loaded. The old pages are read to the end before any is released.
     */
    void mergeBottomUp(Iterator<? extends Map.Entry<byte[], byte[]>> sortedEntries) {
        if (tree.size == 0) {
            bulkLoad(sortedEntries);
            return;
        }
        BulkBuilder builder = new BulkBuilder(new PageIO(io.store(), null, config.compressPages()), config);
        BTreeCheckpoint built = builder.build(new MergedEntries(tree.cursor(null, null), sortedEntries));
        clear();
        builder.forEachWritten(ledger::written);
        tree.rootAddress = built.rootAddress();
        tree.rootChecksum = built.rootChecksum();
        tree.size = built.entryCount();
        tree.height = built.height();
    }

    /** Frees what this transaction wrote and returns the tree to the last checkpoint. */
    void abandon() {
        ledger.abandon();
        queue.clear();
        tree.resetTo(last);
    }

    /** Releases every record of the current tree and empties it. */
    void clear() {
        if (tree.rootDirty != null) {
            TreeWalker.walk(io, tree.rootDirty.asNode(), RecordStore.NULL, ledger::release);
        } else if (tree.rootAddress != RecordStore.NULL) {
            TreeWalker.walk(io, io.load(tree.rootAddress, tree.rootChecksum), tree.rootAddress, ledger::release);
        }
        queue.clear();
        tree.rootDirty = null;
        tree.rootAddress = RecordStore.NULL;
        tree.rootChecksum = 0;
        tree.size = 0;
        tree.height = 0;
    }
}
