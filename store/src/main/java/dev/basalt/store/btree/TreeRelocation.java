package dev.basalt.store.btree;

import dev.basalt.store.journal.RecordStore;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Finds the keys whose rewrite moves a tree out of the space online compaction empties: putting a
 * key again with its own value copies, on write, every page from the root to the key's leaf, and
 * rewrites the key's large value. So for every clean page whose address is to move one key under
 * it is named (the first of its leftmost leaf), and for every large value to move its key.
 * Keys come in ascending order without repeats. Reads only immutable committed pages; a read-only
 * view may be walked by any thread, a writable tree only by its owner thread.
 */
final class TreeRelocation {
    private final PageIO io;
    private final java.util.function.LongPredicate moves;
    private final Consumer<byte[]> keys;
    private byte[] last;
    long pagesAbove;
    long largeValuesAbove;

    private TreeRelocation(PageIO io, java.util.function.LongPredicate moves, Consumer<byte[]> keys) {
        this.io = io;
        this.moves = moves;
        this.keys = keys;
    }

    static TreeRelocation walk(BTree tree, java.util.function.LongPredicate moves, Consumer<byte[]> keys) {
        TreeRelocation r = new TreeRelocation(tree.io(), moves, keys);
        Node root = tree.root();
        if (root != null) {
            r.visit(root, tree.rootDirty != null ? RecordStore.NULL : tree.rootAddress, false);
        }
        return r;
    }

    private boolean isAbove(long address) {
        return address != RecordStore.NULL && moves.test(address);
    }

    /** {@code touch}: an ancestor lies above the offset and needs one key under it. */
    private void visit(Node node, long address, boolean touch) {
        boolean above = isAbove(address);
        if (above) {
            pagesAbove++;
        }
        if (node instanceof InternalNode in) {
            for (int i = 0; i < in.size(); i++) {
                boolean first = i == 0 && (touch || above);
                DirtyNode dirty = in.dirtyChild(i);
                if (dirty != null) {
                    visit(dirty.asNode(), RecordStore.NULL, first);
                } else {
                    visit(io.load(in.childAddress(i), in.childChecksum(i)), in.childAddress(i), first);
                }
            }
            return;
        }
        LeafNode leaf = (LeafNode) node;
        if (leaf.size() == 0) {
            return;
        }
        if (touch || above) {
            emit(leaf.keyAt(0));
        }
        for (int i = 0; i < leaf.size(); i++) {
            if (leaf.valueAt(i) instanceof LargeValue large && isAbove(large.address())) {
                largeValuesAbove++;
                emit(leaf.keyAt(i));
            }
        }
    }

    private void emit(byte[] key) {
        if (last == null || !Arrays.equals(last, key)) {
            last = key.clone();
            keys.accept(last);
        }
    }
}
